"""The live rooms of this worker: one ``Session`` per game in memory and the bot driver
of each, loading a game on demand (under a per-match loading lock that parking takes
too), adopting a new or reloaded game, and letting a finished one go.

It knows the rooms and nothing of the services: what it needs comes in as functions at
build time (server/services.py) — read a match, start a bot driver, how many sockets
watch a match here, forget a match's lock — and the rooms' ports at start, among them
``Freshness``: bring a copy up to date before use (shared mode: from the database)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.repo import MatchRow
from spillebord.server.room.ports import RoomPorts
from spillebord.server.room.session import Session

log = logging.getLogger(__name__)


class Driver(Protocol):
    """A bot driver as the registry sees it (room/bots.py)."""

    def controller(self, seat: int | None) -> tuple[object | None, object]: ...

    async def stop(self) -> None: ...


class Freshness(Protocol):
    async def refresh(self, session: Session) -> None:
        """Bring this worker's copy of the game up to date before it is used (shared
        mode: the events and seats another worker wrote, scale/replica.py)."""
        ...


class Current:
    """One worker: every copy is the game (nothing to refresh)."""

    async def refresh(self, session: Session) -> None:
        pass


class Rooms:
    def __init__(self, load_match: Callable[[str], MatchRow | None],
                 new_driver: Callable[[Session], Driver],
                 watched: Callable[[str], int], forget: Callable[[str], None],
                 shared: bool = False) -> None:
        self.sessions: dict[str, Session] = {}
        self.drivers: dict[str, Driver] = {}
        self._load_match = load_match
        self._new_driver = new_driver
        self._watched = watched
        self._forget = forget
        self._shared = shared
        self._loading: dict[str, asyncio.Lock] = {}
        self._ports: RoomPorts | None = None
        self._fresh: Freshness = Current()

    def bind(self, ports: RoomPorts, fresh: Freshness | None = None) -> None:
        """The ports every session is built with (made at start: the writer and loop),
        and how a copy is brought up to date before use (shared mode's replica)."""
        self._ports = ports
        self._fresh = fresh or Current()

    @property
    def ports(self) -> RoomPorts:
        assert self._ports is not None, "the rooms are not started"
        return self._ports

    @property
    def shared(self) -> bool:
        """Whether other workers may write these games too (shared mode)."""
        return self._shared

    async def refresh(self, session: Session) -> None:
        """Bring the copy up to date (shared mode: catch the replica up and re-read
        its seats; nothing on one worker)."""
        await self._fresh.refresh(session)

    def adopt(self, row: MatchRow) -> Session:
        session = Session(self.ports, row)
        self.sessions[row.id] = session
        self.ensure_driver(session)
        return session

    def ensure_driver(self, session: Session) -> None:
        """A bot driver for a running game with bot seats, bot takeover, a turn timer
        or a seat given up (room/turns.py)."""
        row = session.row
        needs_driver = (row.takeover_seconds is not None or row.turn_seconds is not None
                        or any(seat.kind == "bot" or seat.left is not None
                               for seat in session.seats))
        if session.running and needs_driver and session.id not in self.drivers:
            self.drivers[session.id] = self._new_driver(session)

    async def get(self, match_id: str) -> Session:
        session = self.sessions.get(match_id)
        if session is not None:
            session.touched = time.monotonic()  # in use: not idle (parking.py)
            await self._fresh.refresh(session)  # another worker may have moved it on
            return session
        if len(match_id) > 32:
            raise Refusal("not_found", "there is no such match", 404)
        lock = self.loading_lock(match_id)
        try:
            async with lock:
                session = self.sessions.get(match_id)
                if session is None:
                    session = await self._load(match_id)
                session.touched = time.monotonic()
        finally:
            self.loading_done(match_id, lock)
        return session

    def loading_lock(self, match_id: str) -> asyncio.Lock:
        """The lock under which a match is loaded into memory or parked."""
        return self._loading.setdefault(match_id, asyncio.Lock())

    def loading_done(self, match_id: str, lock: asyncio.Lock) -> None:
        if not lock.locked():
            self._loading.pop(match_id, None)

    async def _load(self, match_id: str) -> Session:
        row = await asyncio.to_thread(self._load_match, match_id)
        if row is None:
            raise Refusal("not_found", "there is no such match", 404)
        try:
            return self.adopt(row)
        except Exception:
            log.exception("could not load match %s (%s)", row.id, row.game)
            raise Refusal("internal", "this match cannot be loaded", 500) from None

    def bot_playing(self, match_id: str, seat: int) -> bool:
        driver = self.drivers.get(match_id)
        return driver is not None and driver.controller(seat)[0] is not None

    def release(self, session: Session) -> None:
        """Forget a finished session nobody watches (it is reloaded on demand)."""
        if not session.running and self._watched(session.id) == 0:
            self.drop(session.id)

    def drop(self, match_id: str) -> Driver | None:
        """Take a session out of memory (its bot driver, returned to be stopped by the
        caller if it still runs, and its lock too)."""
        self.sessions.pop(match_id, None)
        self._forget(match_id)
        return self.drivers.pop(match_id, None)

    async def stop_drivers(self) -> None:
        for driver in list(self.drivers.values()):
            await driver.stop()
        self.drivers.clear()
