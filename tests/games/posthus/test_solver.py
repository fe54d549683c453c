"""The posthus solver against the game package: its moves are the game's moves, its
winning lines replay to a win through GAME, and small positions agree with a plain
brute-force search written against the protocol only."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

import pytest

from spillebord import solvers
from spillebord.games.posthus import GAME, PosthusState
from spillebord.games.posthus import grid as g
from spillebord.solvers.posthus import estimate, hint, pick_winnable_deal, solve
from spillebord.solvers.posthus.search import (
    EXACT,
    FORCED,
    KEEP_RUNS,
    LOOSE,
    Search,
    encode,
    move_text,
    moves,
    run_lengths,
)

from .positions import P1, P2, P3, P4, pos

WON = P4.replace("QD -- KD", "QD KD --")


def replay_wins(state: PosthusState, line: tuple[str, ...]) -> bool:
    for text in line:
        nxt = state.apply(text)
        assert isinstance(nxt, PosthusState)
        state = nxt
    return state.outcome is not None and state.outcome.reason == "won"


def explore(state: PosthusState, cap: int, stop_at_win: bool) -> tuple[bool, int] | None:
    """Breadth-first over this round's card moves through the protocol: (a won grid was
    met, grids seen), stopping at the first won grid when asked; None past ``cap``."""
    seen = {state.grid}
    frontier = [state]
    while frontier:
        nxt: list[PosthusState] = []
        for s in frontier:
            if stop_at_win and s.is_won:
                return True, len(seen)
            for action in s.card_moves:
                child = s.apply(action)
                assert isinstance(child, PosthusState)
                if child.grid not in seen:
                    seen.add(child.grid)
                    nxt.append(child)
        if len(seen) > cap:
            return None
        frontier = nxt
    return False, len(seen)


def brute_force(state: PosthusState, cap: int = 20_000) -> bool | None:
    """Winnable in this round?  None when more than ``cap`` grids would be needed."""
    found = explore(state, cap, stop_at_win=True)
    return None if found is None else found[0]


def reachable(state: PosthusState, cap: int) -> int | None:
    """How many grids this round reaches, None past ``cap``."""
    found = explore(state, cap, stop_at_win=False)
    return None if found is None else found[1]


@pytest.mark.parametrize("open_gaps", [False, True])
def test_solver_moves_are_the_games_moves(open_gaps: bool) -> None:
    rng = random.Random(5)
    for deal in range(1, 9):
        state: PosthusState = GAME.new(deal=deal, open_gaps=open_gaps)
        for _ in range(60):
            grid = bytes(encode(state.grid))
            mine = {move_text(c, t) for c, _, t, _ in
                    moves(grid, run_lengths(grid), open_gaps, EXACT)}
            assert mine == set(state.card_moves)
            assert run_lengths(grid) == list(state.runs)
            if not state.card_moves:
                break
            nxt = state.apply(rng.choice(state.card_moves))
            assert isinstance(nxt, PosthusState)
            state = nxt


def test_winning_lines_replay_to_a_win() -> None:
    won = 0
    for deal in range(1, 13):
        state = GAME.new(deal=deal)
        result = solve(state, 1.0)
        if result.verdict == "winnable":
            won += 1
            assert replay_wins(state, result.line), deal
    assert won >= 6


def test_one_move_from_a_win() -> None:
    result = solve(pos(P4), 1.0)
    assert result.verdict == "winnable" and result.line == ("KD g4",)
    assert solve(pos(WON), 1.0).verdict == "winnable"
    json.dumps(result.to_json())


def test_no_move_is_unwinnable() -> None:
    result = solve(pos(P3), 1.0)
    assert result.verdict == "unwinnable" and result.line == ()
    assert solve(pos(P1).apply("resign"), 1.0).verdict == "unwinnable"


def scrambled(rng: random.Random, swaps: int) -> PosthusState:
    cells = list(pos(WON).grid)
    for _ in range(swaps):
        i, j = rng.sample(range(g.PLACES), 2)
        cells[i], cells[j] = cells[j], cells[i]
    text = "\n".join(
        " ".join(c or "--" for c in cells[r * 8 : r * 8 + 8]) for r in range(4)
    )
    return GAME.parse_position(text)


def small_spaces(seed: int, n: int, cap: int = 5_000) -> Iterator[tuple[PosthusState, int]]:
    """``n`` scrambled won grids, still in play, whose round reaches at most ``cap``
    grids; each with that count."""
    rng = random.Random(seed)
    checked = 0
    while checked < n:
        state = scrambled(rng, rng.randint(1, 4))
        if state.outcome is not None or state.is_won:
            continue
        count = reachable(state, cap)
        if count is None:
            continue
        yield state, count
        checked += 1


def test_small_positions_agree_with_brute_force() -> None:
    rng = random.Random(11)
    verdicts: dict[str, int] = {}
    checked = 0
    while checked < 60:
        state = scrambled(rng, rng.randint(1, 4))
        if state.outcome is not None:
            continue
        truth = brute_force(state)
        if truth is None:
            continue
        checked += 1
        result = solve(state, 5.0)
        assert result.verdict == ("winnable" if truth else "unwinnable"), state.position()
        if truth:
            assert replay_wins(state, result.line)
        verdicts[result.verdict] = verdicts.get(result.verdict, 0) + 1
    assert verdicts.get("winnable", 0) >= 4 and verdicts.get("unwinnable", 0) >= 10


def test_unknown_when_the_time_runs_out() -> None:
    assert solve(GAME.new(deal=20), 0.01).verdict == "unknown"


def test_open_gaps_lines_replay() -> None:
    state = pos(P2, open_gaps=True)
    result = solve(state, 2.0)
    assert result.verdict == "winnable"
    assert replay_wins(state, result.line)


def test_hint() -> None:
    assert hint(pos(P4)) == "KD g4"
    assert hint(pos(P3)) == "redeal"  # no card move, a redeal left
    assert hint(pos(P3, 3)) is None  # over: stuck
    state = GAME.new(deal=3)
    text = hint(state, 0.5)
    assert text is not None
    assert text in {str(a) for a in state.legal_actions()}


def test_pick_winnable_deal() -> None:
    deal = pick_winnable_deal(1, 0.5)
    assert deal >= 1
    assert solve(GAME.new(deal=deal), 0.5).verdict == "winnable"
    for earlier in range(1, deal):
        assert solve(GAME.new(deal=earlier), 0.5).verdict != "winnable"
    later = pick_winnable_deal(deal + 1, 0.5)
    assert later > deal


def test_estimate() -> None:
    assert estimate(pos(P4), 4, 1.0) == 100.0
    assert estimate(pos(P3, 3), 4, 1.0) == 0.0
    # P3 in round 2: one redeal of KS QS KD over g3 h3 h4 (gaps f3 g4), then round 3.
    value = estimate(pos(P3, 2), 12, 2.0)
    assert 0.0 <= value <= 100.0
    assert estimate(pos(P3, 2), 12, 2.0) == value


def test_solver_is_registered_for_the_cli() -> None:
    assert solvers.has_solver("posthus")
    assert solvers.load("posthus").solve is solve


def test_pruned_move_lists_are_subsets_and_forced_offers_only_extensions() -> None:
    rng = random.Random(8)
    for deal in range(20, 26):
        state: PosthusState = GAME.new(deal=deal)
        for _ in range(40):
            grid = bytes(encode(state.grid))
            runs = run_lengths(grid)
            exact = set(moves(grid, runs, False, EXACT))
            for prune in (LOOSE, KEEP_RUNS, FORCED):
                assert set(moves(grid, runs, False, prune)) <= exact
            kept = moves(grid, runs, False, KEEP_RUNS)
            assert all(src & 7 >= runs[src >> 3] for _, src, _, _ in kept)
            forced = moves(grid, runs, False, FORCED)
            if any(ext for *_, ext in kept):
                assert forced and all(ext for *_, ext in forced)
                for card, _, dst, _ in forced:
                    after = state.apply(move_text(card, dst))
                    assert isinstance(after, PosthusState)
                    assert sum(after.runs) > sum(state.runs)
            else:
                assert forced == kept
            if not state.card_moves:
                break
            nxt = state.apply(rng.choice(state.card_moves))
            assert isinstance(nxt, PosthusState)
            state = nxt


@pytest.mark.slow
def test_breaking_a_run_can_be_necessary() -> None:
    """Why pruned searches prove nothing: deal 40's whole never-break-a-run space holds
    no win, yet the exact search wins it (by breaking runs)."""
    state = GAME.new(deal=40)
    start = bytes(encode(state.grid))
    kept = Search(start, False, KEEP_RUNS, time.perf_counter() + 120)
    assert kept.run() == "exhausted"
    exact = Search(start, False, EXACT, time.perf_counter() + 120)
    assert exact.run() == "win"
    assert replay_wins(state, tuple(exact.line))
    assert solve(state, 2.0).verdict == "winnable"


def test_node_limit_is_a_budget_that_does_not_depend_on_time() -> None:
    # Deal 2 (strict) takes ~77,000 grids: 10,000 leave it unknown, every time alike.
    state = GAME.new(deal=2)
    capped = [solve(state, 600.0, node_limit=10_000) for _ in range(2)]
    assert [r.verdict for r in capped] == ["unknown", "unknown"]
    assert capped[0].nodes == capped[1].nodes <= 10_000
    full = solve(state, 600.0, node_limit=1_000_000)
    assert full.verdict == "winnable" and replay_wins(state, full.line)
    assert full.nodes == solve(state, 600.0, node_limit=1_000_000).nodes
    with pytest.raises(ValueError):
        solve(state, 1.0, node_limit=0)
