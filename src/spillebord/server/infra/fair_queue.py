"""A fair queue in front of each compute pool (issue 29, findings 2 and 3: one client's
bots-only rooms made another room's bot wait 72 s; one seat asking hints on 12 sockets
made everyone's hints take 5-8 s).  docs/server.md "Fair compute".

Each pool (bots, solver) has two lanes, each one worker process: **normal** and **low**
(the low worker lowers its own CPU priority by ``LOW_NICE``, so under load the
operating system runs the normal lane first).  Every call names its *flow* — who it
is for — and each lane serves its flows in turn, one call per flow at a time
(round-robin), so a call waits for at most one call of each other flow, never behind a
flow's backlog.

- **Bots:** a room with a human seat is its own flow in the normal lane; a bots-only room
  goes to the low lane, and all bots-only rooms of one creator are *one* flow (a
  creator's rooms share one turn, however many they open).
- **Hints and verdicts:** the flow is the player (a guest id or account; the address
  when there is none).  A seat has at most ``SEAT_QUEUE`` questions in the queue (one
  computing, one waiting behind it); more are refused with ``busy``.  A player whose
  recent solver time (decaying, half-life ``HALF_LIFE``) is over ``HEAVY_SECONDS`` asks
  in the low lane until it has decayed: a flood of long questions runs beside the
  others' instead of in front of them.

Everything here is per worker (each worker has its own pools).
"""

from __future__ import annotations

import asyncio
import collections
import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from spillebord.server.errors import Refusal
from spillebord.server.infra.orphans import die_with

LANES = ("normal", "low")
LOW_NICE = 10         # the low lane's worker process: os.nice(LOW_NICE)
SEAT_QUEUE = 2        # questions a seat may have computing or waiting
HALF_LIFE = 30.0      # seconds: how fast a player's recent solver time is forgotten
HEAVY_SECONDS = 10.0  # recent solver time past which a player's questions go low


def low_worker(parent: int) -> None:
    """Initializer of a low-lane worker process: a lower CPU priority, and ending with
    the server (orphans.py)."""
    os.nice(LOW_NICE)
    die_with(parent)


@dataclass
class Job:
    flow: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any] = field(default_factory=lambda: (
        asyncio.get_running_loop().create_future()))


class FairQueue:
    """Round-robin over flows, per lane; ``run(lane, fn, *args)`` runs a call on the
    lane's executor."""

    def __init__(self, run: Callable[..., Awaitable[Any]], heavy: float | None = None
                 ) -> None:
        self.run = run
        self.heavy = heavy  # None: flows are never moved to the low lane by usage
        self.pending: dict[str, collections.OrderedDict[str, collections.deque[Job]]] = {
            lane: collections.OrderedDict() for lane in LANES}
        self.busy = dict.fromkeys(LANES, False)
        self.running: set[str] = set()  # flows with a call computing
        self.held: collections.Counter[str] = collections.Counter()  # seat → questions
        self.used: dict[str, tuple[float, float]] = {}  # flow → (seconds, when)
        self.tasks: set[asyncio.Task[None]] = set()

    # -- a seat's questions ---------------------------------------------------------
    def hold(self, group: str, cap: int = SEAT_QUEUE) -> None:
        """Reserve one of ``group``'s places in the queue or refuse with ``busy``;
        ``release`` gives it back when the question is answered."""
        if self.held[group] >= cap:
            raise Refusal("busy", "the solver is still working on this seat's last "
                                  "questions", 429)
        self.held[group] += 1

    def release(self, group: str) -> None:
        self.held[group] -= 1
        if self.held[group] <= 0:
            del self.held[group]

    # -- usage ----------------------------------------------------------------------
    def usage(self, flow: str, at: float | None = None) -> float:
        seconds, when = self.used.get(flow, (0.0, 0.0))
        at = time.monotonic() if at is None else at
        return seconds * math.exp(-(at - when) * math.log(2) / HALF_LIFE)

    def _charge(self, flow: str, seconds: float) -> None:
        at = time.monotonic()
        self.used[flow] = (self.usage(flow, at) + seconds, at)
        if len(self.used) > 10_000:  # forget the flows that went quiet
            for f in [f for f in self.used if self.usage(f, at) < 0.01]:
                del self.used[f]

    # -- the queue ------------------------------------------------------------------
    async def submit(self, flow: str, fn: Callable[..., Any], *args: Any,
                     low: bool = False) -> Any:
        """Run ``fn(*args)`` in its turn; ``low``: in the low lane."""
        if not low and self.heavy is not None and self.usage(flow) > self.heavy:
            low = True
        job = Job(flow, fn, args)
        lane = "low" if low else "normal"
        self.pending[lane].setdefault(flow, collections.deque()).append(job)
        self._dispatch()
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            # a call already computing ends in its own time; nobody reads its answer
            job.future.add_done_callback(lambda f: f.cancelled() or f.exception())
            queue = self.pending[lane].get(flow)
            if queue is not None and job in queue:  # not started: forget it
                queue.remove(job)
                if not queue:
                    del self.pending[lane][flow]
            raise

    def waiting(self) -> int:
        return sum(len(q) for lane in LANES for q in self.pending[lane].values())

    def _dispatch(self) -> None:
        for lane in LANES:
            if self.busy[lane]:
                continue
            flows = self.pending[lane]
            flow = next((f for f in flows if f not in self.running), None)
            if flow is None:
                continue
            queue = flows[flow]
            job = queue.popleft()
            if queue:
                flows.move_to_end(flow)  # its next call waits for the others' turns
            else:
                del flows[flow]
            self.busy[lane] = True
            self.running.add(flow)
            task = asyncio.get_running_loop().create_task(self._run(lane, job))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _run(self, lane: str, job: Job) -> None:
        start = time.monotonic()
        try:
            result = await self.run(lane, job.fn, *job.args)
        except BaseException as exc:  # the caller gets it (or is gone)
            if not job.future.done():
                job.future.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._charge(job.flow, time.monotonic() - start)
            self.busy[lane] = False
            self.running.discard(job.flow)
            self._dispatch()
