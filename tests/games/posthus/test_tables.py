"""The shipped table of solved posthus deals (``solvers/posthus/data/verdicts.json``,
``solvers.tables``): every strict deal 1–1000 decided; the live verdict of a deal's
first position reads it (a deal the 2 s solver leaves unknown gets the table's
verdict, which no short solve could give) and agrees with a fresh solve on easy deals;
the difficulty pools hold only proven winnable deals."""

from __future__ import annotations

from spillebord.core.record import GameRecord
from spillebord.games.posthus import GAME
from spillebord.server.infra import compute
from spillebord.solvers import tables
from spillebord.solvers.posthus import solve

# Deals the 2 s solver left unknown (docs/benchmarks/posthus.md), decided by long runs.
FORMERLY_UNKNOWN = (20, 72, 89, 92, 103, 130, 228, 269, 317, 354, 391, 406, 436, 453,
                    480, 517, 569, 595, 613, 824, 885, 943, 970, 998)


def record(deal: int, actions: tuple[str, ...] = (), **flags: bool) -> str:
    return GameRecord("posthus", 1, deal, dict(flags), actions).dumps()


def test_every_strict_deal_1_to_1000_is_decided() -> None:
    for deal in range(1, 1001):
        assert tables.verdict("posthus", deal, {}) in ("winnable", "unwinnable"), deal
    assert tables.verdict("posthus", 1001, {}) is None
    assert tables.verdict("posthus", 5, {"open_gaps": True}) is None  # rated strict only


def test_first_position_reads_the_table() -> None:
    for deal in FORMERLY_UNKNOWN[:3]:
        shipped = tables.verdict("posthus", deal, {})
        assert shipped in ("winnable", "unwinnable")
        # A 0.05 s solve cannot decide these deals: the answer comes from the table.
        assert solve(GAME.new(deal=deal), 0.05).verdict == "unknown"
        assert compute.solver_verdict(record(deal), 0.05) == shipped


def test_table_agrees_with_fresh_solves() -> None:
    for deal in (1, 2, 3, 4, 5, 474):  # 474: lost, a small exact space (186,319 grids)
        fresh = solve(GAME.new(deal=deal), 10.0).verdict
        assert fresh != "unknown"
        assert tables.verdict("posthus", deal, {}) == fresh
        assert compute.solver_verdict(record(deal), 10.0) == fresh


def test_a_later_position_is_solved_live() -> None:
    state = GAME.new(deal=20)
    move = state.card_moves[0]
    later = state.apply(move)
    # Not the first position: the table does not answer, the short solve does.
    assert compute.shipped_verdict(GameRecord.loads(record(20, (move,))), later) is None
    assert compute.solver_verdict(record(20, (move,)), 0.05) == "unknown"


def test_difficulty_pools() -> None:
    pools = {level: tables.winnable_deals("posthus", level) for level in tables.LEVELS}
    sizes = [len(p) for p in pools.values()]
    assert min(sizes) > 250 and max(sizes) - min(sizes) <= 30
    for level, pool in pools.items():
        for deal in pool:
            assert tables.verdict("posthus", deal, {}) == "winnable"
            rated = tables.difficulty("posthus", deal, {})
            assert rated is not None and rated[1] == level
    easy = [tables.difficulty("posthus", d, {}) for d in pools["easy"]]
    hard = [tables.difficulty("posthus", d, {}) for d in pools["hard"]]
    assert max(s for s, _ in easy if s is not None) <= min(s for s, _ in hard if s is not None)
    assert tables.difficulty("posthus", 192, {}) is None  # unwinnable: not rated
