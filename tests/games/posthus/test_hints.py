"""Posthus hints are consistent: following ``hint()`` from a winnable position walks to
a win without ever repeating a grid (issue 3; hints used to alternate ``JD f3`` ↔
``JD d2`` forever)."""

from __future__ import annotations

import random

from spillebord.games.posthus import GAME, PosthusState
from spillebord.solvers.posthus import hint, solve
from spillebord.solvers.posthus.hints import MEMORY, LineMemory, line_grids, tighten

MOVE_BOUND = 400


def follow_hints(state: PosthusState, seconds: float = 1.0) -> list[str]:
    """Play ``hint()`` until the game ends; fails on a repeated grid or the move bound."""
    seen = {state.grid}
    played: list[str] = []
    while state.outcome is None:
        text = hint(state, seconds)
        assert text is not None and text != "redeal", (played, state.position())
        nxt = state.apply(text)
        assert isinstance(nxt, PosthusState)
        state = nxt
        played.append(text)
        assert state.grid not in seen, f"grid repeated after {played}"
        seen.add(state.grid)
        assert len(played) <= MOVE_BOUND
    assert state.outcome.reason == "won"
    return played


def test_following_hints_wins_without_repeating_a_grid() -> None:
    followed = 0
    for deal in range(1, 31):
        state = GAME.new(deal=deal)
        if solve(state, 0.3).verdict != "winnable":
            continue  # hard deals are left to the benchmark
        MEMORY.clear()
        follow_hints(state)
        followed += 1
    assert followed >= 20


def test_hints_from_a_position_off_the_committed_line() -> None:
    """The player leaves the hinted line: the next hint commits a fresh line, and
    following it still wins without repeating a grid."""
    MEMORY.clear()
    rng = random.Random(3)
    state = GAME.new(deal=3)
    for _ in range(6):
        text = hint(state, 1.0)
        assert text is not None
        others = [a for a in state.card_moves if a != text]
        choice = rng.choice(others) if others else text
        nxt = state.apply(choice)
        assert isinstance(nxt, PosthusState)
        state = nxt
    if solve(state, 1.0).verdict == "winnable":
        follow_hints(state)


def test_tighten_keeps_the_end_and_drops_detours() -> None:
    state = GAME.new(deal=1)
    line = list(solve(state, 1.0).line)
    assert line
    # A detour: a move and its undo, twice, in front of the line.
    detour: list[str] = []
    for text in state.card_moves:
        after = state.apply(text)
        assert isinstance(after, PosthusState)
        undo = [a for a in after.card_moves if GAME.format_position(after.apply(a))
                == GAME.format_position(state)]
        if undo:
            detour = [text, undo[0]]
            break
    assert detour, "some first move of deal 1 can be undone"
    detoured = [*detour, *detour, *line]
    tight = tighten(state, detoured)
    assert len(tight) <= len(line)
    grids = line_grids(state, tight)
    assert grids[-1] == line_grids(state, line)[-1]
    assert len(set(grids)) == len(grids)


def test_newer_commitments_never_make_a_loop() -> None:
    """Two committed lines that cross: the walk follows the newer one from the crossing
    on and still ends in a win."""
    memory = LineMemory()
    state = GAME.new(deal=1)
    line = tighten(state, solve(state, 1.0).line)
    memory.commit(state, line)
    # A second line from the third grid of the first, committed later.
    middle = state
    for text in line[:2]:
        nxt = middle.apply(text)
        assert isinstance(nxt, PosthusState)
        middle = nxt
    memory.commit(middle, list(solve(middle, 1.0).line))
    seen = {state.grid}
    while state.outcome is None:
        step = memory.lookup(state)
        assert step is not None
        nxt = state.apply(step)
        assert isinstance(nxt, PosthusState)
        state = nxt
        assert state.grid not in seen
        seen.add(state.grid)
    assert state.is_won


def test_memory_is_bounded() -> None:
    memory = LineMemory(max_grids=5)
    state = GAME.new(deal=1)
    memory.commit(state, solve(state, 1.0).line)
    assert len(memory) <= 5
