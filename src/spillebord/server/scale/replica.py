"""This worker's side of shared mode (several workers): its copies of the games other
workers own, taking a game, and what it does with what the bus hears.  Built once by
scale/factory.py with everything it uses; nothing is set on it afterwards.

- Each live game has one owner (scale/owners.py).  The owner runs the game's events in
  memory as a single worker does — this worker's own lock, no read, no database lock —
  and writes them through the group writer, whose fence refuses them if the lease has
  gone.  ``own`` takes a game nobody owns (or whose owner's lease expired) and reads its
  newest events from the database first (always: see ``own``), exactly as a restart
  reloads a game.
- A worker that is not the owner keeps a replica for its sockets: the owner ships each
  event it commits (the bus message, or its answer to a forwarded move) and ``receive``
  applies it under the worker's own lock for the match — reading the database only to
  fill a gap — then the sockets are told; its events go to the owner (scale/forward.py).
- ``refresh`` (on every ``Rooms.get`` and before a refused ``hello``) also re-reads the
  seats, so an invite claimed (or a lobby seat taken, or open seats filled with bots)
  on another worker shows here too.
- Chat lines and lobby changes: the worker that wrote them tells the others (a Redis
  notice), which read them then (chat/service.py, tables/feed.py).
- The owner gives a game away (releases its lease) when it has no socket on it and
  another worker has its players' sockets (``Keeper``): the next event there takes it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from spillebord.server.errors import unavailable
from spillebord.server.scale.catchup import apply_missing, apply_shipped, read_seats, read_since

if TYPE_CHECKING:
    from spillebord.server.infra.bus import LocalSerializer
    from spillebord.server.room.registry import Rooms
    from spillebord.server.room.session import Session
    from spillebord.server.scale.forward import Forwarder
    from spillebord.server.scale.owners import Owners
    from spillebord.server.scale.redis_bus import RedisBus
    from spillebord.server.scale.shipped import Shipped

log = logging.getLogger(__name__)
DRIVE_RETRY = 2.0  # seconds before a bot driver asks again for a game it could not take
SEAT_READS = 3  # reads of the seats at most when writes here keep overtaking them


class Keeper:
    """What the leases ask of the rooms at each renewal (scale/owners.py): whether to
    give a game away — it ended or was dropped, or its players' sockets are all on
    other workers — and the game's lock, so no event of it is in flight meanwhile."""

    def __init__(self, rooms: Rooms, bus: RedisBus, serializer: LocalSerializer) -> None:
        self.rooms = rooms
        self.bus = bus
        self.serializer = serializer

    def give_away(self, match_id: str) -> bool:
        session = self.rooms.sessions.get(match_id)
        if session is None or not session.running:
            return True
        if self.bus.count(match_id) > 0:
            return False
        return any(self.bus.present_elsewhere(match_id, s.seat) for s in session.seats)

    def ended(self, match_id: str) -> bool:
        session = self.rooms.sessions.get(match_id)
        return session is not None and not session.running

    def hold(self, match_id: str) -> AbstractAsyncContextManager[None]:
        return self.serializer.local(match_id)


class Replica:
    def __init__(self, rooms: Rooms, engine: Engine, serializer: LocalSerializer,
                 bus: RedisBus, owners: Owners, keeper: Keeper) -> None:
        self.rooms = rooms
        self.engine = engine
        self.serializer = serializer
        self.bus = bus
        self.owners = owners
        self.keeper = keeper
        self.event_reads = 0  # reads of a game's newest events (metrics.py)
        self.events_applied = 0  # shipped events applied from the message
        self._refused: dict[str, float] = {}  # match -> when a bot driver was refused
        self._elsewhere: dict[str, set[int]] = {}  # match -> seats with sockets there
        self._tasks: set[asyncio.Task[None]] = set()

    # -- bringing a copy up to date ----------------------------------------------------
    async def catch_up_unlocked(self, match_id: str) -> int:
        """Read and apply the events another worker committed; the caller holds the
        match."""
        session = self.rooms.sessions.get(match_id)
        if session is None:
            return 0
        self.event_reads += 1
        events, status = await asyncio.to_thread(read_since, self.engine, match_id,
                                                 session.version)
        if apply_missing(session, events, status):
            session.announce_change()  # wake the bot driver: the position moved
            # (the bus tells the sockets when it called us; a direct caller does it)
        return session.version

    async def catch_up(self, match_id: str) -> int:
        """``catch_up_unlocked`` under this worker's lock for the match."""
        async with self.serializer.local(match_id):
            return await self.catch_up_unlocked(match_id)

    async def receive(self, match_id: str, events: list[Shipped], version: int) -> int:
        """Events another worker committed and shipped (its bus message, or the owner's
        answer to a forwarded move): apply those that follow the local copy; read the
        database only when the copy is still behind ``version`` (a gap)."""
        session = self.rooms.sessions.get(match_id)
        if session is None:
            return 0
        async with self.serializer.local(match_id):
            applied = apply_shipped(session, events)
            if applied:
                self.events_applied += applied
                session.announce_change()  # wake the bot driver: the position moved
            if session.version < version:
                await self.catch_up_unlocked(match_id)
        return session.version

    async def received(self, match_id: str, events: list[Shipped], version: int) -> None:
        """``receive``, then tell this worker's sockets (a forwarded move's answer)."""
        session = self.rooms.sessions.get(match_id)
        before = -1 if session is None else session.version
        await self.receive(match_id, events, version)
        if session is not None and session.version > before:
            self.bus.tell_local(match_id, session.version)

    async def refresh(self, session: Session) -> None:
        """Catch up the events (not on the game's owner: it wrote them) and re-read the
        seats (tokens claimed elsewhere)."""
        if session.id not in self.owners.held:
            before = session.version
            await self.catch_up(session.id)
            if session.version > before:
                self.bus.tell_local(session.id, session.version)
        await self.reread_seats(session)

    async def reread_seats(self, session: Session) -> None:
        """The seats from the database (another worker may have written them): the
        session applies and announces what changed.  Reads run off the loop and end in
        any order (a notice, a socket, a request at once): one older than the seats shown
        is dropped — read again when a write here overtook it (``ReadOrder.overtaken``),
        at most a few times: a later notice or refresh reads again anyway."""
        for _ in range(SEAT_READS):
            mark = session.seat_reads.begin()
            fresh = await asyncio.to_thread(read_seats, self.engine, session.id)
            changed = session.seats_read(fresh, mark)
            if changed:
                self.rooms.ensure_driver(session)  # bots took open seats there
            if changed is not None or not session.seat_reads.overtaken(mark):
                return

    # -- what the bus hears --------------------------------------------------------------
    def seats_heard(self, match_id: str) -> None:
        """Another worker wrote seats of a match: re-read them if it is in memory here."""
        session = self.rooms.sessions.get(match_id)
        if session is None:
            return

        async def reread() -> None:
            try:
                await self.reread_seats(session)
            except Exception:  # the next refresh (Rooms.get, a hello) reads them again
                log.warning("re-reading the seats of %s failed", match_id, exc_info=True)

        task = asyncio.get_running_loop().create_task(reread())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def presence_changed(self, match_id: str) -> None:
        """Another worker's sockets for a match came or went: a seat that just lost its
        last socket anywhere is "away" from now (takeover counts from here), and the
        bot driver looks again."""
        session = self.rooms.sessions.get(match_id)
        if session is None:
            self._elsewhere.pop(match_id, None)
            return
        now_there = {s.seat for s in session.seats
                     if self.bus.present_elsewhere(match_id, s.seat)}
        for seat in self._elsewhere.get(match_id, set()) - now_there:
            if session.connected.get(seat, 0) == 0:
                session.away_since[seat] = time.monotonic()
        self._elsewhere[match_id] = now_there
        session.announce_change()
        session.seats_changed()  # the sockets here see the seats there

    def current(self, match_id: str) -> int | None:
        """The version of a game this worker owns (None: it does not)."""
        session = self.rooms.sessions.get(match_id)
        held = session is not None and match_id in self.owners.held
        return session.version if held and session is not None else None

    def local_version(self, match_id: str) -> int:
        session = self.rooms.sessions.get(match_id)
        return 0 if session is None else session.version

    # -- owning a game -------------------------------------------------------------------
    async def own(self, match_id: str) -> bool:
        """Whether this worker owns the match now; takes it when nobody does (not while
        draining) and then brings its copy up to date from the database."""
        owners = self.owners
        if match_id in owners.held:
            return True
        session = self.rooms.sessions.get(match_id)
        if session is None or not owners.accepting or not session.running:
            return False
        async with self.serializer.local(match_id):
            if match_id in owners.held:
                return True
            epoch = await owners.acquire(match_id)
            if epoch == 0:
                return False
            before = session.version
            try:
                # Always read the database before the first event (issue 31): the epoch
                # does not prove this copy current — the lease row of a game that ended
                # is deleted, so a worker whose copy of it went stale (unwatched here, so
                # never caught up) gets a fresh row at epoch 1 although others wrote its
                # events.
                await self.catch_up_unlocked(match_id)
            except Exception as exc:
                log.warning("taking match %s: reading it failed (%s)", match_id,
                            type(exc).__name__)
                await owners.release(match_id)
                raise unavailable() from None
            if not session.running:  # it ended on another worker: nothing to own
                await owners.release(match_id, ended=True)
        if session.version > before:
            self.bus.tell_local(match_id, session.version)
        return session.running

    async def drive(self, match_id: str) -> bool:
        """``own`` for a bot driver: not for a game whose sockets are all on other
        workers, and not asked again within ``DRIVE_RETRY`` of a refusal."""
        if match_id in self.owners.held:
            return True
        now = time.monotonic()
        if now - self._refused.get(match_id, -DRIVE_RETRY) < DRIVE_RETRY \
                or self.keeper.give_away(match_id):
            return False
        if await self.own(match_id):
            self._refused.pop(match_id, None)
            return True
        self._refused[match_id] = now
        return False


class Inbound:
    """What this worker does with what the bus hears (scale/redis_bus.py's ``Inbound``):
    shipped events and presence go to the replica, direct messages to the forwarder,
    notices to the service of their topic (``notes``: topic → its ``heard``)."""

    def __init__(self, replica: Replica, forwarder: Forwarder,
                 notes: Mapping[str, Callable[[str], None]]) -> None:
        self.replica = replica
        self.forwarder = forwarder
        self.notes = {**notes, "seats": replica.seats_heard}  # seats written elsewhere

    async def receive(self, match_id: str, events: list[Shipped], version: int) -> int:
        return await self.replica.receive(match_id, events, version)

    def presence(self, match_id: str) -> None:
        self.replica.presence_changed(match_id)

    def note(self, topic: str, arg: str) -> None:
        hook = self.notes.get(topic)
        if hook is not None:
            hook(arg)

    def direct(self, sender: str, payload: str) -> None:
        self.forwarder.on_direct(sender, payload)

    def current(self, match_id: str) -> int | None:
        return self.replica.current(match_id)

    def local_version(self, match_id: str) -> int:
        return self.replica.local_version(match_id)
