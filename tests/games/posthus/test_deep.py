"""Long proof runs (``solvers.posthus.deep``): the table is sized from the memory budget
and never grows past it (a full table stops the search with ``memory`` — an honest
unknown, never a false proof); with room enough the run proves a lost deal and wins a
winnable one with a line that replays to a win."""

from __future__ import annotations

import pytest

from spillebord.core.errors import NotationError
from spillebord.games.posthus import GAME
from spillebord.solvers.posthus import deep, engine
from spillebord.solvers.posthus.search import EXACT, encode


def test_table_size_from_the_budget() -> None:
    assert deep.table_slots_for(24 * 2**20) == 2**20
    assert deep.table_slots_for(24 * 2**20 + 100) == 2**20
    assert deep.table_slots_for(6 * 2**30) == 2**28
    with pytest.raises(NotationError):
        deep.table_slots_for(1000)


def test_a_full_table_stops_the_search() -> None:
    start = bytes(encode(GAME.new(deal=474).grid))  # lost; 186,319 exact grids
    small = engine.JitDfs(start, False, EXACT, engine.CLOCK() + 60, table_slots=1 << 16,
                          max_table_slots=1 << 16)
    assert small.run() == "memory"
    assert small.seen <= (1 << 16) * 0.7
    big = engine.JitDfs(start, False, EXACT, engine.CLOCK() + 60, table_slots=1 << 19,
                        max_table_slots=1 << 19)
    assert big.run() == "exhausted"
    with pytest.raises(ValueError):
        engine.JitDfs(start, False, EXACT, engine.CLOCK() + 60, table_slots=1000).run()


def test_prove_decides_with_room_enough() -> None:
    lost = deep.prove(GAME.new(deal=474), 60.0, 24 * 2**19)
    assert lost.verdict == "unwinnable"
    # The schedule cut short: the exact search with the sized table proves it.
    exact = deep.prove(GAME.new(deal=474), 60.0, 24 * 2**19, first_seconds=0.001)
    assert (exact.verdict, exact.stopped) == ("unwinnable", "exhausted")
    assert exact.seen == exact.nodes > 100_000 and exact.table_slots == 2**19
    short = deep.prove(GAME.new(deal=474), 0.5, 24 * 2**12)
    assert short.verdict in ("unwinnable", "unknown")
    won = deep.prove(GAME.new(deal=1), 60.0, 24 * 2**16)
    assert won.verdict == "winnable"
    state = GAME.new(deal=1)
    for action in won.line:
        state = state.apply(action)
    assert state.is_won
