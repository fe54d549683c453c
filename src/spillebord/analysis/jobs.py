"""The work of a batch run: plain functions from a job and a chunk of deals (or game
numbers) to result rows (``schema``), the same in a Ray worker and in this process.

A solve row's verdict comes from the game's solver (``solvers.load(game).solve``) with
the run's budget: ``seconds`` on the chosen clock — ``cpu`` (the solving thread's CPU
time, ``time.thread_time``: the same budget however loaded the machine is) or ``wall`` —
and, when ``node_limit`` > 0, at most that many search states, a budget that gives the
same verdict on any machine.  A tournament game ``g`` is deal ``seed + g // k`` with the
``k`` bots rotated by ``g mod k`` (seat ``s`` plays ``bots[(s + g) mod k]``), so every
deal is played from every seating; its random generator is seeded by the run and ``g``.
"""

from __future__ import annotations

import importlib
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from spillebord import bots, games, solvers
from spillebord.analysis.schema import flags_text
from spillebord.core.errors import NotationError

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}
MAX_ACTIONS = 100_000


def clock_holder(game: str) -> str | None:
    """The module whose ``CLOCK`` the game's solver reads for its time limit (the
    manifest's ``solver_clock``)."""
    return games.manifest(game).solver_clock


def checked_flags(game: str, flags: dict[str, bool]) -> tuple[tuple[str, bool], ...]:
    return tuple(sorted(games.load(game).check_flags(flags).items()))


@dataclass(frozen=True)
class SolveJob:
    """What to solve each deal with.  Build it with ``make`` (which checks it)."""

    game: str
    flags: tuple[tuple[str, bool], ...]
    seconds: float
    clock: str = "cpu"
    node_limit: int = 0

    @classmethod
    def make(cls, game: str, flags: dict[str, bool], seconds: float, clock: str = "cpu",
             node_limit: int = 0) -> SolveJob:
        full = checked_flags(game, flags)
        if clock_holder(game) is None:
            solvers.load(game)  # NotationError: there is no solver for it
            raise NotationError(f"analyse solve does not know {game}'s solver clock")
        if not seconds > 0 or seconds == float("inf"):
            raise NotationError("--seconds must be a positive number")
        if clock not in CLOCKS:
            raise NotationError(f"--clock must be cpu or wall, not {clock!r}")
        if node_limit < 0:
            raise NotationError("--nodes must be 0 (no limit) or more")
        return cls(game, full, float(seconds), clock, node_limit)

    def run(self) -> dict[str, Any]:
        """The values of the run columns (``schema.SOLVE.run_columns``)."""
        return {"game": self.game, "flags": flags_text(dict(self.flags)),
                "clock": self.clock, "seconds": self.seconds, "node_limit": self.node_limit}


@contextmanager
def solver_clock(game: str, clock: str) -> Iterator[None]:
    """The solver of ``game`` measures its time limit on ``clock`` inside the block."""
    holder = importlib.import_module(str(clock_holder(game)))
    before = getattr(holder, "CLOCK")  # noqa: B009 (a module attribute mypy cannot see)
    setattr(holder, "CLOCK", CLOCKS[clock])  # noqa: B010
    try:
        yield
    finally:
        setattr(holder, "CLOCK", before)  # noqa: B010


def solve_chunk(job: SolveJob, deals: Sequence[int]) -> list[dict[str, Any]]:
    """One row per deal (``schema.SOLVE``), in the order of ``deals``."""
    game = games.load(job.game)
    module = solvers.load(job.game)
    flags = dict(job.flags)
    limit = {"node_limit": job.node_limit} if job.node_limit else {}
    warm_up = getattr(module, "warm_up", None)
    if warm_up is not None:
        warm_up()
    rows: list[dict[str, Any]] = []
    with solver_clock(job.game, job.clock):
        for deal in deals:
            state = game.new(deal=deal, **flags)
            cpu, wall = time.thread_time(), time.perf_counter()
            result = module.solve(state, job.seconds, **limit)
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            won = result.verdict == "winnable"
            extra = {k: v for k, v in result.extra.items() if k != "best_line"}
            rows.append({
                **job.run(), "deal": deal, "verdict": result.verdict, "nodes": result.nodes,
                "cpu_seconds": cpu, "wall_seconds": wall,
                "line_length": len(result.line) if won else None,
                "line": list(result.line) if won else None,
                "extra": json.dumps(extra, sort_keys=True),
            })
    return rows


@dataclass(frozen=True)
class TournamentJob:
    """A table of bots playing game after game.  Build it with ``make``."""

    game: str
    flags: tuple[tuple[str, bool], ...]
    seats: int
    bots: tuple[str, ...]
    seed: int = 1

    @classmethod
    def make(cls, game: str, flags: dict[str, bool], seats: int | None,
             bot_specs: Sequence[str], seed: int = 1) -> TournamentJob:
        g = games.load(game)
        if g.is_solitaire:
            raise NotationError(f"{game} is a solitaire: use analyse solve")
        full = checked_flags(game, flags)
        specs = tuple(s.strip() for s in bot_specs)
        if not specs or any(not s for s in specs):
            raise NotationError("--bots needs one or more bot specs, comma-separated")
        for spec in specs:
            bots.load_spec(game, spec)
        g.check_deal(seed)
        return cls(game, full, g.check_seats(seats), specs, seed)

    def run(self) -> dict[str, Any]:
        """The values of the run columns (``schema.TOURNAMENT.run_columns``)."""
        return {"game": self.game, "flags": flags_text(dict(self.flags)), "seats": self.seats,
                "bots": ",".join(self.bots), "seed": self.seed}

    def lineup(self, game_no: int) -> list[str]:
        k = len(self.bots)
        return [self.bots[(s + game_no) % k] for s in range(self.seats)]

    def deal(self, game_no: int) -> int:
        return self.seed + game_no // len(self.bots)


def play_chunk(job: TournamentJob, game_nos: Sequence[int]) -> list[dict[str, Any]]:
    """One row per game (``schema.TOURNAMENT``), in the order of ``game_nos``."""
    return [play_one(job, g) for g in game_nos]


def play_one(job: TournamentJob, game_no: int) -> dict[str, Any]:
    game = games.load(job.game)
    lineup = job.lineup(game_no)
    seat_bots = [bots.load_spec(job.game, spec) for spec in lineup]
    rng = random.Random(f"{job.run()}:{game_no}")
    state = game.new(deal=job.deal(game_no), seats=job.seats, **dict(job.flags))
    decisions = [0] * job.seats
    decision_cpu = [0.0] * job.seats
    actions = 0
    cpu0, wall0 = time.thread_time(), time.perf_counter()
    while (seat := state.to_move) is not None:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"game {game_no} did not end in {MAX_ACTIONS} actions")
        obs = bots.Observation(state, seat, rng)
        t = time.thread_time()
        action = seat_bots[seat].choose(obs)
        if len(state.legal_actions()) > 1:
            decisions[seat] += 1
            decision_cpu[seat] += time.thread_time() - t
        state = state.apply(action)
        actions += 1
    out = state.outcome
    assert out is not None
    place = {s: i + 1 for i, group in enumerate(out.ranking) for s in group}
    return {
        **job.run(), "game_no": game_no, "deal": job.deal(game_no), "seat_bots": lineup,
        "ranks": [place.get(s, len(out.ranking) + 1) for s in range(job.seats)],
        "winners": list(out.winners), "losers": list(out.losers), "reason": out.reason,
        "actions": actions, "decisions": decisions, "decision_cpu": decision_cpu,
        "cpu_seconds": time.thread_time() - cpu0, "wall_seconds": time.perf_counter() - wall0,
    }
