"""Work that must not run on the event loop: solver calls and bot decisions.

Solvers and bots run in worker processes (pure-Python search would otherwise hold the
GIL and slow every socket): one process for solver calls, one for bot decisions, so a
long hint never delays a bot.  They receive only JSON text (a game record) and return
text, so nothing is pickled but strings.  The bot process keeps the last state of each
game it has seen and applies only the new actions, so a long game costs O(new actions)
per decision, not a replay from the start.  ``SPILLEBORD_BOT_POOL=thread`` runs bots in
threads of the server process instead (quick bots only).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from spillebord import bots, games, solvers
from spillebord.core.protocol import State, replay
from spillebord.core.record import GameRecord
from spillebord.server.infra.fair_queue import HEAVY_SECONDS, FairQueue, low_worker
from spillebord.server.infra.orphans import die_with
from spillebord.solvers import tables

T = TypeVar("T")
log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=64)
def bot_names(game: str) -> tuple[str, ...]:
    """``bots.names(game)``, cached for the process."""
    return tuple(bots.names(game))


@functools.lru_cache(maxsize=64)
def bot_catalogue(game: str) -> dict[str, Any]:
    """``bots.catalogue(game)``, cached for the process (do not mutate)."""
    return bots.catalogue(game)


@functools.lru_cache(maxsize=256)
def solver_offers(game: str, *functions: str) -> bool:
    """Whether the game's solver module exists and offers all ``functions`` (cached for
    the process: a failed import is not cached by Python and costs file-system calls)."""
    if not solvers.has_solver(game):
        return False
    module = solvers.load(game)
    return all(callable(getattr(module, name, None)) for name in functions)


def rated_flags(game: str) -> dict[str, bool] | None:
    """The flags of the game's shipped table of rated deals (the difficulty picker works
    with exactly these), or None when the game has none."""
    table = tables.table(game) if tables.has_levels(game) else None
    return None if table is None else dict(table.flags)


def _start_game(record: GameRecord) -> State:
    """The record replayed (its game looked up in the registry)."""
    return record.replay(games.load(record.game))


def solver_hint(record_json: str, seconds: float) -> str | None:
    record = GameRecord.loads(record_json)
    result = solvers.load(record.game).hint(_start_game(record), seconds)
    return None if result is None else str(result)


def solver_hint_verdict(record_json: str, seconds: float) -> tuple[str | None, str]:
    """A hint and the position's verdict (issue 27): no move is suggested in a position
    that cannot be won any more — the page offers to undo back to a winnable one."""
    verdict = solver_verdict(record_json, seconds)
    if verdict == "unwinnable":
        return None, verdict
    return solver_hint(record_json, seconds), verdict


def solver_verdict(record_json: str, seconds: float) -> str:
    """The verdict of the record's position: for the first position of a numbered deal
    that a shipped table decides (``solvers.tables``), the table's; else a fresh solve
    within ``seconds``."""
    record = GameRecord.loads(record_json)
    state = _start_game(record)
    known = shipped_verdict(record, state)
    if known is not None:
        return known
    result = solvers.load(record.game).solve(state, seconds)
    return str(result.verdict)


def shipped_verdict(record: GameRecord, state: State) -> str | None:
    """The shipped table's decided verdict when ``state`` is the deal's first position
    (no actions yet, or play led back to it), else None."""
    if record.position is not None:
        return None
    known = tables.verdict(record.game, record.deal, record.flags)
    if known is None or known == "unknown":
        return None
    if record.actions and state != record.start(games.load(record.game)):
        return None
    return known


def winnable_deal(game: str, start: int, seconds: float, flags: dict[str, bool]) -> int:
    return int(solvers.load(game).pick_winnable_deal(start, seconds, **flags))


_STATES: collections.OrderedDict[str, tuple[tuple[str, ...], State]] = (
    collections.OrderedDict())
_MAX_STATES = 256


def _replayed(record: GameRecord) -> State:
    """The record's final state, reusing the cached state of the same game when the
    record extends the actions it was built from."""
    key = json.dumps([record.game, record.seats, record.deal, sorted(record.flags.items()),
                      record.position])
    cached = _STATES.get(key)
    if cached is not None and record.actions[: len(cached[0])] == cached[0]:
        state = replay(cached[1], record.actions[len(cached[0]):])
    else:
        state = _start_game(record)
    _STATES[key] = (record.actions, state)
    _STATES.move_to_end(key)
    while len(_STATES) > _MAX_STATES:
        _STATES.popitem(last=False)
    return state


def bot_choose(record_json: str, seat: int, bot: str, options: dict[str, Any],
               seed: int) -> str:
    """A bot's action text for ``seat``; the bot sees only the seat's Observation."""
    record = GameRecord.loads(record_json)
    player = bots.load(record.game, bot, **options)
    obs = bots.Observation(_replayed(record), seat, random.Random(seed))
    return str(player.choose(obs))


LOW_PROCESS = "lanes-low"  # the one worker process of both low lanes (``process_of``)


def process_of(lane: str) -> str:
    """The worker process a lane's calls run in: its own, but the two low lanes (bots-only
    rooms' bots, lowered players' questions) share one, so low-priority work holds at
    most one core — on a 2-core machine one core is always left to the event loop and
    the normal lanes."""
    return LOW_PROCESS if lane.endswith("-low") else lane


class Compute:
    """The executors; created lazily, shut down with the app."""

    def __init__(self, solver_pool: str = "process", bot_pool: str = "process",
                 observe: Callable[[str, float], None] | None = None) -> None:
        self.solver_pool = solver_pool
        self.bot_pool = bot_pool
        self._process: dict[str, ProcessPoolExecutor] = {}
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="spillebord")
        self.inflight: dict[str, int] = {}  # calls waiting or running, by pool name
        self.observe = observe  # (pool, seconds) of every call: the metrics
        # Every bot and solver call waits its turn here (server/infra/fair_queue.py).
        self.queues = {"bots": FairQueue(self._lane_runner(bot_pool, "bots")),
                       "solver": FairQueue(self._lane_runner(solver_pool, "solver"),
                                           heavy=HEAVY_SECONDS)}

    def _lane_runner(self, kind: str, name: str) -> Callable[..., Any]:
        async def run(lane: str, fn: Callable[..., Any], *args: Any) -> Any:
            return await self.run(kind, fn, *args,
                                  name=name if lane == "normal" else f"{name}-low")
        return run

    async def queued(self, pool: str, flow: str, fn: Callable[..., T], *args: Any,
                     low: bool = False) -> T:
        """``fn(*args)`` on the pool ("bots" or "solver") in ``flow``'s turn."""
        result: T = await self.queues[pool].submit(flow, fn, *args, low=low)
        return result

    def _pool(self, kind: str, name: str) -> Executor:
        if kind != "process":
            return self._threads
        name = process_of(name)
        pool = self._process.get(name)
        if pool is None:
            # spawn: never fork a process that runs an event loop and threads; the
            # worker ends with this process, even after a SIGKILL (orphans.py).
            pool = self._process[name] = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=low_worker if name.endswith("-low") else die_with,
                initargs=(os.getpid(),))
        return pool

    async def run(self, kind: str, fn: Callable[..., T], *args: Any,
                  name: str = "solver") -> T:
        loop = asyncio.get_running_loop()
        self.inflight[name] = self.inflight.get(name, 0) + 1
        start = time.perf_counter()
        try:
            return await loop.run_in_executor(self._pool(kind, name), fn, *args)
        finally:
            self.inflight[name] -= 1
            if self.observe is not None:
                self.observe(name, time.perf_counter() - start)

    async def solver(self, fn: Callable[..., T], *args: Any) -> T:
        """A solver call of the server's own (a winnable deal), in the queue's turns."""
        return await self.queued("solver", "server", fn, *args)

    async def bot(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.queued("bots", "server", fn, *args)

    def close(self) -> None:
        """Stop the workers (blocking: queued work is dropped, running work — bounded by
        the solver and bot budgets — is waited for, so no process is left behind).  The
        low lanes' workers are ended at once: in the idle scheduling class a call of
        theirs may wait long for a core on a busy machine, and their callers (bots-only
        rooms, flooders) lose nothing that matters."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        for name, pool in self._process.items():
            if name.endswith("-low"):
                processes = dict(getattr(pool, "_processes", None) or {})
                pool.shutdown(wait=False, cancel_futures=True)
                for process in processes.values():
                    process.kill()
                    process.join(5)
        for name, pool in self._process.items():
            if not name.endswith("-low"):
                pool.shutdown(wait=True, cancel_futures=True)
