"""A fair queue in front of each compute pool (issue 29, findings 2 and 3: one client's
bots-only rooms made another room's bot wait 72 s; one seat asking hints on 12 sockets
made everyone's hints take 5-8 s).  docs/server.md "Fair compute".

Each pool (bots, solver) has two lanes: **normal**, a worker process of its own, and
**low**; the two pools' low lanes share one worker process (infra/compute.py), so
low-priority work holds at most one core, and it lowers its own CPU priority by
``LOW_NICE``, so under load the operating system runs the normal lanes first.
Every call names its *flow* — who it is for — and each lane serves its flows in turn,
one call per flow at a time (round-robin), so a call waits for at most one call of each
other flow, never behind a flow's backlog.

- **Bots:** a room with a human seat is its own flow in the normal lane; a bots-only room
  goes to the low lane, and all bots-only rooms of one creator are *one* flow (a
  creator's rooms share one turn, however many they open).
- **Hints and verdicts:** the flow is the player (a guest id or account; the address
  when there is none).  A seat has at most ``SEAT_QUEUE`` questions in the queue (one
  computing, one waiting behind it); more are refused with ``busy``.  Two things move a
  player's questions to the low lane: asking past the seat's queue (a ``busy``
  refusal: several sockets or a script asking at once) — for ``FLOOD_SECONDS`` after
  the last such refusal — and heavy use: recent solver CPU time (decaying, half-life
  ``HALF_LIFE``) over ``HEAVY_SECONDS``.  Usage is the CPU time the call took in the
  worker (``timed``), not the wall time: on a busy machine a player who asks now and
  then must not look heavy because everyone's calls run slower.  A flood thus runs
  beside the others' questions, at the low lane's priority, instead of in front of them.

The low lane's worker processes run at ``nice`` +``LOW_NICE``; ``SPILLEBORD_LOW_LANE=group``
puts each in a session and scheduling group of its own too (``_own_group``; ``session``:
one at the ordinary group priority), ``idle``
puts them in Linux's idle scheduling class too (``SCHED_IDLE``: only when a core has
nothing else to run — fairer to the others, but on a machine that is never idle the
bots-only rooms then never move; the full test run showed it) (docs/deploy.md "Limits").

Everything here is per worker (each worker has its own pools).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from spillebord.server.errors import Refusal
from spillebord.server.infra.orphans import die_with

LANES = ("normal", "low")
LOW_NICE = 10         # the low lane's worker process: os.nice(LOW_NICE) (and SCHED_IDLE)
SEAT_QUEUE = 2        # questions a seat may have computing or waiting
HALF_LIFE = 30.0      # seconds: how fast a player's recent solver time is forgotten
HEAVY_SECONDS = 20.0  # recent solver CPU seconds past which a player's questions go low
FLOOD_SECONDS = 60.0  # a player refused ``busy`` asks in the low lane this long after


def low_worker(parent: int) -> None:
    """Initializer of a low-lane worker process: a lower CPU priority (``idle``: and the
    idle scheduling class; ``group`` / ``session``: in a scheduling group of its own,
    nice or not), and ending with
    the server (orphans.py)."""
    die_with(parent)  # first: its watching thread keeps the ordinary priority
    how = os.environ.get("SPILLEBORD_LOW_LANE", "nice")
    if how == "group":
        _own_group()
    elif how == "session":
        _own_group(0)
    os.nice(LOW_NICE)  # (Linux: this thread, which runs the calls)
    if how == "idle":
        with contextlib.suppress(AttributeError, OSError):  # Linux only
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _own_group(nice: int = LOW_NICE) -> None:
    """``SPILLEBORD_LOW_LANE=group``.  Linux's autogroup scheduling
    (``/proc/sys/kernel/sched_autogroup_enabled``; it applies where the server is not in
    a cgroup of its own, e.g. started from a shell, not a systemd unit) shares the CPUs
    equally between *sessions* first and by ``nice`` only within one: in the server's
    session a busy low-lane worker, however nice, spends the session's share, and on a
    machine with other busy sessions the event loop then waits for a CPU behind them
    (issue 29's soak, docs/benchmarks.md).  Here the worker starts a session of its own
    and sets that group's nice to ``LOW_NICE``: its CPU comes from a group of its own,
    lower than the server's — and lower than every other busy session's, so on a shared
    busy machine the low lane crawls (a first low-lane hint waited > 30 s for its
    worker's start at load 10-15: why it is not the default).

    ``SPILLEBORD_LOW_LANE=session`` (``nice`` 0 here): a session and group of its own at
    the ordinary group priority — the low lane's CPU is no longer charged to the
    server's group, and it is not behind every other session either: it gets one
    session's share, like any other (and, being one process, never more than a core)."""
    with contextlib.suppress(OSError):
        os.setsid()
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))


def timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and the CPU seconds it took on this thread (run in the worker)."""
    start = time.thread_time()
    result = fn(*args)
    return result, time.thread_time() - start


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
        self.flooding: dict[str, float] = {}  # flow → when it was last refused busy
        self.tasks: set[asyncio.Task[None]] = set()

    # -- a seat's questions ---------------------------------------------------------
    def hold(self, group: str, flow: str | None = None, cap: int = SEAT_QUEUE) -> None:
        """Reserve one of ``group``'s places in the queue or refuse with ``busy`` (and
        send ``flow``'s questions to the low lane for FLOOD_SECONDS); ``release`` gives
        the place back when the question is answered."""
        if self.held[group] >= cap:
            if flow is not None:
                self.flooding[flow] = time.monotonic()
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
        if len(self.flooding) > 10_000:
            for f in [f for f, t in self.flooding.items() if at - t > FLOOD_SECONDS]:
                del self.flooding[f]

    def lowered(self, flow: str) -> bool:
        """Whether ``flow``'s calls go to the low lane now (flooding or heavy)."""
        flooded = self.flooding.get(flow)
        if flooded is not None and time.monotonic() - flooded < FLOOD_SECONDS:
            return True
        return self.heavy is not None and self.usage(flow) > self.heavy

    # -- the queue ------------------------------------------------------------------
    async def submit(self, flow: str, fn: Callable[..., Any], *args: Any,
                     low: bool = False) -> Any:
        """Run ``fn(*args)`` in its turn; ``low``: in the low lane."""
        if not low and self.lowered(flow):
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
        cpu: float | None = None
        try:
            result, cpu = await self.run(lane, timed, job.fn, *job.args)
        except BaseException as exc:  # the caller gets it (or is gone)
            if not job.future.done():
                job.future.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            # the worker's CPU time; the wall time when the call failed or was cut off
            self._charge(job.flow, time.monotonic() - start if cpu is None else cpu)
            self.busy[lane] = False
            self.running.discard(job.flow)
            self._dispatch()
