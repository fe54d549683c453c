"""Parking idle games (issue 20, docs/deploy.md "Idle games"): a game nobody has a
socket on and that has not moved for ``Settings.idle_seconds`` leaves this worker's
memory — its bot driver stops and, in shared mode, its lease is released, so it is no
longer renewed.  Players close tabs without resigning; without this every abandoned
game stayed in memory, and held and renewed by its owner, for the worker's life.

A parked game is still ``running`` in the database and comes back on demand, exactly
as restart recovery brings it back: the next socket or API call loads it from its
events (``Rooms.get``), and in shared mode the next event takes its lease again.  At
start a worker reloads only the running games that moved within the idle time
(``Repository.load_running``): the others stay parked.

The check and the removal happen under the rooms' loading lock of the match, so a
socket that arrives meanwhile waits and then loads the game afresh; ``Rooms.get`` marks
a session as used, so a game that a caller has just been handed is never idle.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from spillebord.server.infra.background import cancel, every

if TYPE_CHECKING:
    from spillebord.server.room.registry import Rooms
    from spillebord.server.room.session import Session

log = logging.getLogger(__name__)


def sweep_interval(idle_seconds: float) -> float:
    """How often to look: a quarter of the idle time, between 0.1 s and a minute."""
    return min(60.0, max(0.1, idle_seconds / 4))


class Parking:
    """``watched(match)``: how many sockets watch the match on this worker; shared
    mode: ``holds(match)`` whether this worker holds the game's lease, ``elsewhere(match,
    seat)`` whether a seat has a socket on another worker, ``let_go(match, ended)``
    release the lease."""

    def __init__(self, rooms: Rooms, idle_seconds: float, watched: Callable[[str], int],
                 holds: Callable[[str], bool], elsewhere: Callable[[str, int], bool],
                 let_go: Callable[[str, bool], Awaitable[None]]) -> None:
        self.rooms = rooms
        self.holds = holds
        self.elsewhere = elsewhere
        self.let_go = let_go
        self.idle_seconds = idle_seconds
        self.watched = watched
        self.parked = 0  # games this worker parked (metrics.py)
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = every(sweep_interval(self.idle_seconds), self.sweep,
                          "parking", "parking idle games failed", log)

    async def stop(self) -> None:
        await cancel(self.task)

    def idle(self, session: Session, now: float) -> bool:
        """No socket of it on this worker, none of its lease's players elsewhere (the
        owner gives such a game away first), and no event or socket for the idle time."""
        if now - session.touched < self.idle_seconds or self.watched(session.id):
            return False
        return not self.holds(session.id) or not any(
            self.elsewhere(session.id, s.seat) for s in session.seats)

    async def sweep(self) -> int:
        """Park every idle game; how many were parked."""
        now = time.monotonic()
        done = 0
        for session in [s for s in self.rooms.sessions.values() if self.idle(s, now)]:
            if await self.park(session):
                done += 1
        return done

    async def park(self, session: Session) -> bool:
        rooms = self.rooms
        match_id = session.id
        lock = rooms.loading_lock(match_id)
        try:
            async with lock:
                if rooms.sessions.get(match_id) is not session or not self.idle(
                        session, time.monotonic()):
                    return False
                driver = rooms.drop(match_id)
                if driver is not None:
                    await driver.stop()
                if self.holds(match_id):
                    await self.let_go(match_id, not session.running)
        finally:
            rooms.loading_done(match_id, lock)
        self.parked += 1
        log.info("parked idle match %s", match_id)
        return True
