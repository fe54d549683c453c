"""The shipped Studenterkabalen table (``solvers/studenter/data/verdicts.json``): deals
1–1000 all decided, the first position's verdict read from it and equal to a fresh
solve, and three difficulty pools of winnable deals."""

from __future__ import annotations

from spillebord.core.record import GameRecord
from spillebord.games.studenter import GAME
from spillebord.server.infra import compute
from spillebord.solvers import tables
from spillebord.solvers.studenter import solve


def test_studenter_table() -> None:
    assert all(tables.verdict("studenter", d, {}) == "winnable" for d in range(1, 1001))
    assert tables.verdict("studenter", 1001, {}) is None
    for deal in (1, 2, 3):
        fresh = solve(GAME.new(deal=deal), 10.0).verdict
        assert tables.verdict("studenter", deal, {}) == fresh == "winnable"
        record = GameRecord("studenter", 1, deal, {}, ()).dumps()
        assert compute.solver_verdict(record, 10.0) == fresh
    sizes = [len(tables.winnable_deals("studenter", level)) for level in tables.LEVELS]
    assert sum(sizes) == 1000 and min(sizes) >= 330
