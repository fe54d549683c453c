"""The fast make/unmake engine against the game package: its moves are GAME's moves on
random playouts, an exhausted exact search has expanded exactly the grids a plain
breadth-first search through GAME reaches, its winning lines replay to a win, and it
visits the same grids in the same order as the reference engine of search.py."""

from __future__ import annotations

import random
import time

import pytest

from spillebord.games.posthus import GAME, PosthusState
from spillebord.solvers.posthus.fast import WINS, Dfs, grid_key, node_moves
from spillebord.solvers.posthus.search import (
    EXACT,
    FORCED,
    FORCED_LOOSE,
    KEEP_RUNS,
    LOOSE,
    SUBSUMES,
    Search,
    encode,
    move_text,
    moves,
    run_lengths,
)

from .positions import P4, pos
from .test_solver import WON, replay_wins, small_spaces


def engine_moves(state: PosthusState, prune: int) -> set[tuple[int, int, int, bool]]:
    grid = bytearray(encode(state.grid))
    where = [0] * 29
    for i, v in enumerate(grid):
        if v:
            where[v] = i
    gaps = [i for i, v in enumerate(grid) if not v]
    return set(node_moves(grid, where, gaps, run_lengths(grid), state.open_gaps, prune))


@pytest.mark.parametrize("open_gaps", [False, True])
def test_node_moves_are_the_games_moves(open_gaps: bool) -> None:
    rng = random.Random(7)
    for deal in range(1, 11):
        state: PosthusState = GAME.new(deal=deal, open_gaps=open_gaps)
        for _ in range(60):
            mine = engine_moves(state, EXACT)
            assert {move_text(c, t) for c, _, t, _ in mine} == set(state.card_moves)
            grid = bytes(encode(state.grid))
            for prune in (EXACT, LOOSE, KEEP_RUNS, FORCED, FORCED_LOOSE):
                reference = set(moves(grid, run_lengths(grid), open_gaps, prune))
                assert engine_moves(state, prune) == reference
            if not state.card_moves:
                break
            nxt = state.apply(rng.choice(state.card_moves))
            assert isinstance(nxt, PosthusState)
            state = nxt


def test_the_win_keys_are_the_won_grids() -> None:
    assert grid_key(encode(pos(WON).grid)) in WINS
    assert grid_key(encode(pos(P4).grid)) not in WINS
    assert len(WINS) == 24


def test_an_exhausted_exact_search_expands_every_reachable_grid() -> None:
    for state, count in small_spaces(12, 25):
        search = Dfs(bytes(encode(state.grid)), False, EXACT, time.perf_counter() + 30)
        status = search.run()
        if status == "exhausted":
            assert search.nodes == count
        else:
            assert status == "win" and replay_wins(state, tuple(search.line))


def test_subsumed_prunings_offer_fewer_moves() -> None:
    """``SUBSUMES`` is sound: at every grid a subsumed pruning's moves are a subset, so
    its reachable grids are too, and an exhausted search rules out its subspaces."""
    rng = random.Random(9)
    for deal in range(20, 28):
        state: PosthusState = GAME.new(deal=deal)
        for _ in range(50):
            for big, smalls in SUBSUMES.items():
                for small in smalls:
                    assert engine_moves(state, small) <= engine_moves(state, big)
            if not state.card_moves:
                break
            nxt = state.apply(rng.choice(state.card_moves))
            assert isinstance(nxt, PosthusState)
            state = nxt


def test_loose_differs_from_exact_only_by_sevens_to_column_a() -> None:
    """Strict rule: a middle card of a run never moves, so the moves ``LOOSE`` drops
    are a run's 7 going to another column-a gap."""
    rng = random.Random(4)
    for deal in range(1, 9):
        state: PosthusState = GAME.new(deal=deal)
        for _ in range(60):
            dropped = engine_moves(state, EXACT) - engine_moves(state, LOOSE)
            assert all(card in (1, 8, 15, 22) and src & 7 == 0 and dst & 7 == 0
                       for card, src, dst, _ in dropped)
            if not state.card_moves:
                break
            nxt = state.apply(rng.choice(state.card_moves))
            assert isinstance(nxt, PosthusState)
            state = nxt


@pytest.mark.parametrize("prune", [EXACT, LOOSE, KEEP_RUNS, FORCED, FORCED_LOOSE])
def test_same_search_as_the_reference_engine(prune: int) -> None:
    for deal in (3, 5, 15, 40, 340):
        state = GAME.new(deal=deal)
        start = bytes(encode(state.grid))
        fast = Dfs(start, False, prune, time.perf_counter() + 30, 3_000)
        slow = Search(start, False, prune, time.perf_counter() + 30, 3_000)
        assert fast.run() == slow.run()
        assert (fast.nodes, fast.line, fast.best_run_cards) == (
            slow.nodes, slow.line, slow.best_run_cards)
        if fast.line:
            assert replay_wins(state, tuple(fast.line))


def test_jittered_lines_replay() -> None:
    for deal in range(1, 9):
        state = GAME.new(deal=deal)
        search = Dfs(bytes(encode(state.grid)), False, LOOSE, time.perf_counter() + 5,
                     20_000, random.Random(deal))
        if search.run() == "win":
            assert replay_wins(state, tuple(search.line))
        after = state
        for text in search.best_line:
            nxt = after.apply(text)
            assert isinstance(nxt, PosthusState)
            after = nxt
        assert sum(after.runs) == search.best_run_cards
