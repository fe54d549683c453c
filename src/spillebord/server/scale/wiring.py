"""How the rooms use the scale-out pieces in shared mode (several workers).

- Each live game has one owner (scale/owners.py).  The owner runs the game's events in
  memory as a single worker does — this worker's own lock, no catch-up read, no database
  lock — and writes them through the group writer, whose fence refuses them if the lease
  has gone.  ``own`` takes a game nobody owns (or whose owner's lease expired) and reads
  its newest events from the database first (always: see ``own``), exactly as a restart
  reloads a game.
- A worker that is not the owner keeps a replica for its sockets: ``RedisBus`` calls
  ``catch_up`` when the owner announces a version, under the worker's own lock for the
  match, then tells the sockets; its events go to the owner (scale/forward.py).
- ``refresh`` (on every ``Rooms.get`` and before a refused ``hello``) also re-reads the
  seats, so an invite claimed (or a lobby seat taken, or open seats filled with bots)
  on another worker shows here too.
- Chat lines and lobby changes: the worker that wrote them tells the others (a Redis
  notice), which read them then (chat.py, tables/feed.py).
- The owner gives a game away (releases its lease) when it has no socket on it and
  another worker has its players' sockets: the next event there takes it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from spillebord.server.errors import unavailable
from spillebord.server.infra.storage import migrate
from spillebord.server.scale.catchup import apply_missing, apply_shipped, read_seats, read_since
from spillebord.server.scale.factory import ScaleOut
from spillebord.server.scale.keys import lock_key

if TYPE_CHECKING:
    from spillebord.server.chat.service import Chat
    from spillebord.server.infra.bus import LocalSerializer
    from spillebord.server.room.registry import Rooms
    from spillebord.server.room.session import Session
    from spillebord.server.scale.factory import SharedParts
    from spillebord.server.scale.redis_bus import RedisBus
    from spillebord.server.scale.shipped import Shipped
    from spillebord.server.tables.feed import LobbyFeed

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Node:
    """This worker's side of shared mode: its rooms, the database engine, its
    per-match lock and the Redis bus."""

    rooms: Rooms
    engine: Engine
    serializer: LocalSerializer
    bus: RedisBus


DRIVE_RETRY = 2.0  # seconds before a bot driver asks again for a game it could not take


async def catch_up_unlocked(node: Node, match_id: str) -> int:
    """Apply the events another worker committed; the caller holds the match."""
    session = node.rooms.sessions.get(match_id)
    if session is None:
        return 0
    node.bus.stats.event_reads += 1
    events, status = await asyncio.to_thread(read_since, node.engine, match_id,
                                             session.version)
    if apply_missing(session, events, status):
        session.announce_change()  # wake the bot driver: the position moved
        # (the bus tells the sockets when it called us; a direct caller does it)
    return session.version


async def catch_up(node: Node, match_id: str, _seen: int = 0) -> int:
    """``catch_up_unlocked`` under this worker's lock for the match."""
    async with node.serializer.local(match_id):
        return await catch_up_unlocked(node, match_id)


async def receive(node: Node, match_id: str, events: list[Shipped], version: int) -> int:
    """Events another worker committed and shipped (its bus message, or the owner's
    answer to a forwarded move): apply those that follow the local copy; read the
    database only when the copy is still behind ``version`` (a gap)."""
    session = node.rooms.sessions.get(match_id)
    if session is None:
        return 0
    async with node.serializer.local(match_id):
        applied = apply_shipped(session, events)
        if applied:
            node.bus.stats.events_applied += applied
            session.announce_change()  # wake the bot driver: the position moved
        if session.version < version:
            await catch_up_unlocked(node, match_id)
    return session.version


async def refresh(node: Node, parts: SharedParts, session: Session) -> None:
    """Catch up the events (not on the game's owner: it wrote them) and re-read the
    seats (tokens claimed elsewhere)."""
    if session.id not in parts.owners.held:
        before = session.version
        await catch_up(node, session.id)
        if session.version > before:
            node.bus.tell_local(session.id, session.version)
    await reread_seats(node, session)


async def reread_seats(node: Node, session: Session) -> None:
    """The seats from the database (another worker may have written them): the session
    applies and announces what changed."""
    fresh = await asyncio.to_thread(read_seats, node.engine, session.id)
    if session.seats_read(fresh):
        node.rooms.ensure_driver(session)  # bots took open seats there


def _seats_hook(node: Node) -> Callable[[str], None]:
    """Another worker wrote seats of a match: re-read them if it is in memory here."""
    tasks: set[asyncio.Task[None]] = set()

    async def reread(match_id: str) -> None:
        session = node.rooms.sessions.get(match_id)
        if session is None:
            return
        try:
            await reread_seats(node, session)
        except Exception:  # the next refresh (node.get, a hello) reads them again
            log.warning("re-reading the seats of %s failed", match_id, exc_info=True)

    def heard(match_id: str) -> None:
        if match_id in node.rooms.sessions:
            task = asyncio.get_running_loop().create_task(reread(match_id))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    return heard


MIGRATION_LOCK = lock_key("migrations")


def migrate_once(engine: Engine) -> None:
    """Run the migrations while holding a PostgreSQL advisory lock, so workers that
    start together do not race to create the tables (the second finds them current)."""
    with engine.connect() as conn:
        conn.exec_driver_sql("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            migrate.upgrade(engine)
        finally:
            conn.exec_driver_sql("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
            conn.commit()


def _presence_hook(node: Node) -> Callable[[str], None]:
    """When another worker's sockets for a match come or go: a seat that just lost its
    last socket anywhere is "away" from now (takeover counts from here), and the bot
    driver looks again."""
    elsewhere: dict[str, set[int]] = {}

    def changed(match_id: str) -> None:
        session = node.rooms.sessions.get(match_id)
        if session is None:
            elsewhere.pop(match_id, None)
            return
        now_there = {s.seat for s in session.seats
                     if node.bus.present_elsewhere(match_id, s.seat)}
        for seat in elsewhere.get(match_id, set()) - now_there:
            if session.connected.get(seat, 0) == 0:
                session.away_since[seat] = time.monotonic()
        elsewhere[match_id] = now_there
        session.announce_change()
        session.seats_changed()  # the sockets here see the seats there

    return changed


async def own(node: Node, parts: SharedParts, match_id: str) -> bool:
    """Whether this worker owns the match now; takes it when nobody does (not while
    draining) and then brings its copy up to date from the database."""
    owners = parts.owners
    if match_id in owners.held:
        return True
    session = node.rooms.sessions.get(match_id)
    if session is None or not owners.accepting or not session.running:
        return False
    async with node.serializer.local(match_id):
        if match_id in owners.held:
            return True
        epoch = await owners.acquire(match_id)
        if epoch == 0:
            return False
        before = session.version
        try:
            # Always read the database before the first event (issue 31): the epoch
            # does not prove this copy current — the lease row of a game that ended is
            # deleted, so a worker whose copy of it went stale (unwatched here, so never
            # caught up) gets a fresh row at epoch 1 although others wrote its events.
            await catch_up_unlocked(node, match_id)
        except Exception as exc:
            log.warning("taking match %s: reading it failed (%s)", match_id,
                        type(exc).__name__)
            await owners.release(match_id)
            raise unavailable() from None
        if not session.running:  # it ended on another worker: nothing to own
            await owners.release(match_id, ended=True)
    if session.version > before:
        node.bus.tell_local(match_id, session.version)
    return session.running


def _give_away(node: Node, parts: SharedParts) -> Callable[[str], bool]:
    """Whether the owner should let the match go (checked at each lease renewal): the
    game ended or was dropped, or its players' sockets are all on other workers."""
    def should(match_id: str) -> bool:
        session = node.rooms.sessions.get(match_id)
        if session is None or not session.running:
            return True
        if node.bus.count(match_id) > 0:
            return False
        return any(parts.bus.present_elsewhere(match_id, s.seat) for s in session.seats)

    return should


def install(node: Node, scale: ScaleOut, parts: SharedParts, chat: Chat,
            feed: LobbyFeed) -> None:
    """Hook shared mode's bus and leases up to this worker's rooms, chat and lobby."""
    from spillebord.server.scale.forward import Forwarder

    async def owning(match_id: str) -> bool:
        return await own(node, parts, match_id)

    async def caught_up(match_id: str, events: list[Shipped], version: int) -> None:
        session = node.rooms.sessions.get(match_id)
        before = -1 if session is None else session.version
        await receive(node, match_id, events, version)
        if session is not None and session.version > before:
            node.bus.tell_local(match_id, session.version)

    async def release(match_id: str) -> None:
        session = node.rooms.sessions.get(match_id)
        async with node.serializer.local(match_id):  # no event of it in flight
            await parts.owners.release(match_id, ended=session is not None
                                       and not session.running)

    refused: dict[str, float] = {}  # match -> when a bot driver was last refused
    away = _give_away(node, parts)

    async def driving(match_id: str) -> bool:
        if match_id in parts.owners.held:
            return True
        now = time.monotonic()
        if now - refused.get(match_id, -DRIVE_RETRY) < DRIVE_RETRY or away(match_id):
            return False
        if await owning(match_id):
            refused.pop(match_id, None)
            return True
        refused[match_id] = now
        return False

    scale.own = owning
    scale.drive = driving
    parts.forwarder = Forwarder(node.rooms.sessions.get, parts.bus, parts.owners, owning,
                                caught_up)
    scale.router = parts.forwarder
    parts.owners.should_release = away
    parts.owners.release_hook = release
    def current(match_id: str) -> int | None:
        session = node.rooms.sessions.get(match_id)
        held = session is not None and match_id in parts.owners.held
        return session.version if held and session is not None else None

    parts.bus.set_receive(lambda m, events, v: receive(node, m, events, v))
    def local_version(match_id: str) -> int:
        session = node.rooms.sessions.get(match_id)
        return 0 if session is None else session.version

    parts.bus.only_watched = True
    parts.bus.current = current
    parts.bus.local_version = local_version
    parts.bus.on_presence = _presence_hook(node)
    parts.bus.on_note["seats"] = _seats_hook(node)  # seats written elsewhere
    # other workers' chat lines are read when their notice comes (chat.py)
    bus = parts.bus
    chat.notify = lambda match_id: bus.note("chat", match_id)
    bus.on_note["chat"] = chat.heard
    # and the lobby's changes (tables/feed.py)
    feed.notify = lambda match_id: bus.note("lobby", match_id)
    bus.on_note["lobby"] = feed.heard
