"""The compiled engine (``jit`` kernel behind ``engine.JitDfs``): the same search as
``fast.Dfs`` grid for grid, exhausted exact searches expand exactly the grids a
breadth-first search through GAME reaches, growing arrays change nothing, the row-sorted
key is a sound transposition key, and real deals are proven unwinnable."""

from __future__ import annotations

import random
import time

import pytest

from spillebord.games.posthus import GAME
from spillebord.solvers.posthus import engine, solve, table
from spillebord.solvers.posthus.engine import JitDfs
from spillebord.solvers.posthus.fast import Dfs
from spillebord.solvers.posthus.search import (
    EXACT,
    FORCED,
    FORCED_LOOSE,
    KEEP_RUNS,
    LOOSE,
    encode,
)

from .positions import P1, P2, pos
from .test_solver import brute_force, replay_wins, scrambled, small_spaces


def later() -> float:
    return time.perf_counter() + 60


@pytest.mark.parametrize("prune", [EXACT, LOOSE, KEEP_RUNS, FORCED, FORCED_LOOSE])
def test_same_search_as_the_python_engine(prune: int) -> None:
    for deal in (3, 5, 15, 40, 340):
        state = GAME.new(deal=deal)
        start = bytes(encode(state.grid))
        slow = Dfs(start, False, prune, later(), 4_000)
        fast = JitDfs(start, False, prune, later(), 4_000)
        slow_status, fast_status = slow.run(), fast.run()
        # Dfs checks its node limit every 256 nodes, JitDfs exactly.
        assert fast_status == slow_status
        if slow_status != "timeout":
            assert fast.nodes == slow.nodes
        assert (fast.line, fast.best_run_cards, fast.best_line) == (
            slow.line, slow.best_run_cards, slow.best_line)
        if fast.line:
            assert replay_wins(state, tuple(fast.line))


@pytest.mark.parametrize("open_gaps", [False, True])
def test_same_search_on_scrambled_positions(open_gaps: bool) -> None:
    rng = random.Random(21)
    for _ in range(30):
        state = scrambled(rng, rng.randint(2, 8))
        if open_gaps:
            state = GAME.parse_position(state.position(), open_gaps=True)
        if state.outcome is not None:
            continue
        start = bytes(encode(state.grid))
        slow = Dfs(start, open_gaps, EXACT, later(), 3_000)
        fast = JitDfs(start, open_gaps, EXACT, later(), 3_000)
        assert fast.run() == slow.run()
        assert (fast.line, fast.best_line) == (slow.line, slow.best_line)


@pytest.mark.parametrize("symmetry", [False, True])
def test_exhausted_exact_searches_are_proofs(symmetry: bool) -> None:
    for state, count in small_spaces(12, 25):
        search = JitDfs(bytes(encode(state.grid)), False, EXACT, later(), symmetry=symmetry)
        status = search.run()
        assert status == ("win" if brute_force(state) else "exhausted")
        if status == "exhausted" and not symmetry:
            assert search.nodes == search.seen == count
        if status == "win":
            assert replay_wins(state, tuple(search.line))


def test_growing_the_arrays_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    start = bytes(encode(GAME.new(deal=474).grid))
    big = JitDfs(start, False, EXACT, later())
    assert big.run() == "exhausted"
    monkeypatch.setattr(engine, "TABLE_MIN", 1 << 8)
    monkeypatch.setattr(engine, "TABLE_MAX", 1 << 8)
    monkeypatch.setattr(engine, "PATH0", 1 << 4)
    small = JitDfs(start, False, EXACT, later())
    assert small.run() == "exhausted"
    assert (small.nodes, small.seen, small.best_line) == (big.nodes, big.seen, big.best_line)


def test_row_sorted_keys() -> None:
    grid = bytes(encode(GAME.new(deal=7).grid))
    swapped = grid[8:16] + grid[:8] + grid[16:]
    assert table.start_key(grid, True) == table.start_key(swapped, True)
    assert table.start_key(grid, False) != table.start_key(swapped, False)
    # Unsorted keys order grids place by place from a1, like the bytes.
    assert (table.start_key(grid, False) < table.start_key(swapped, False)) == (grid < swapped)


# Unwinnable: QS h3, then JS e3 leaves g3 right of KS; every other gap is right of a King.
LOCKED = """round 1
7C 8C 9C TC JC QC KC --
7H 8H 9H TH JH QH KH --
7S 8S 9S TS QS KS JS --
7D 8D 9D TD JD QD KD --
"""


@pytest.mark.parametrize("text", [P1, P2, LOCKED])
def test_row_sorted_keys_on_hand_written_positions(text: str) -> None:
    """A position and the same rows in another order: with row-sorted keys the verdict
    is the one without; an exhausted search marks no more grids, and as many for both
    orders; a win replays."""
    lines = text.strip().splitlines()
    swapped = "\n".join([lines[0], lines[3], lines[1], lines[4], lines[2]]) + "\n"
    counts = []
    for position in (text, swapped):
        state = pos(position)
        start = bytes(encode(state.grid))
        plain = JitDfs(start, False, EXACT, later())
        sorted_rows = JitDfs(start, False, EXACT, later(), symmetry=True)
        status = plain.run()
        assert sorted_rows.run() == status
        if status == "exhausted":
            assert sorted_rows.seen <= plain.seen
            counts.append((plain.seen, sorted_rows.seen))
        else:
            assert replay_wins(state, tuple(plain.line))
            assert replay_wins(state, tuple(sorted_rows.line))
    assert len(set(counts)) <= 1
    if text == LOCKED:
        assert counts == [(3, 3), (3, 3)]  # the start, after QS h3, after JS e3


@pytest.mark.parametrize("deal", [340, 474, 192])
def test_deals_proven_unwinnable(deal: int) -> None:
    result = solve(GAME.new(deal=deal), 120.0)
    assert result.verdict == "unwinnable"
    assert result.extra["best_run_cards"] < 28


def test_lines_of_the_first_deals_replay() -> None:
    for deal in range(1, 41):
        state = GAME.new(deal=deal)
        result = solve(state, 2.0)
        if result.verdict == "winnable":
            assert replay_wins(state, result.line), deal
