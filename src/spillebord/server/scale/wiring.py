"""How the hub uses the scale-out pieces in shared mode (several workers).

- ``PgSerializer.hold(match)`` reads the events after the session's version in the
  same round trip that takes the cross-worker lock and applies them, so a session
  always checks an action against the newest committed state, even if another worker
  advanced the game a moment ago.
- ``RedisBus`` calls ``catch_up`` when another worker announces a version this worker
  has not applied, under the worker's own lock for the match (never while a local event
  is between its commit and its application), then tells the sockets.
- ``refresh`` (on every ``hub.get`` and before a refused ``hello``) also re-reads the
  seats, so an invite claimed (or a lobby seat taken, or open seats filled with bots)
  on another worker shows here too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine

from spillebord.server.scale.catchup import (
    SINCE_SQL,
    apply_missing,
    read_seats,
    read_since,
    rows_to_events,
)
from spillebord.server.scale.factory import ScaleOut, build
from spillebord.server.scale.keys import lock_key
from spillebord.server.storage import migrate

if TYPE_CHECKING:
    from spillebord.server.hub import Hub
    from spillebord.server.sessions import Session


async def catch_up_unlocked(hub: Hub, match_id: str) -> int:
    """Apply the events another worker committed; the caller holds the match."""
    session = hub.sessions.get(match_id)
    if session is None:
        return 0
    events, status = await asyncio.to_thread(read_since, hub.engine, match_id,
                                             session.version)
    if apply_missing(session, events, status):
        session.announce_change()  # wake the bot driver: the position moved
        # (the bus tells the sockets when it called us; a direct caller does it)
    return session.version


async def catch_up(hub: Hub, match_id: str, _seen: int = 0) -> int:
    """``catch_up_unlocked`` under this worker's lock for the match."""
    async with hub.serializer.local(match_id):
        return await catch_up_unlocked(hub, match_id)


async def refresh(hub: Hub, session: Session) -> None:
    """Catch up the events and re-read the seats (tokens claimed elsewhere)."""
    before = session.version
    await catch_up(hub, session.id)
    if session.version > before:
        hub.bus.tell_local(session.id, session.version)
    fresh = await asyncio.to_thread(read_seats, hub.engine, session.id)
    for old, new in zip(session.seats, fresh, strict=False):
        old.token_hash = new.token_hash
        old.player_id = new.player_id
        old.kind, old.bot, old.level = new.kind, new.bot, new.level  # bots filled seats


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


def _presence_hook(hub: Hub) -> Callable[[str], None]:
    """When another worker's sockets for a match come or go: a seat that just lost its
    last socket anywhere is "away" from now (takeover counts from here), and the bot
    driver looks again."""
    elsewhere: dict[str, set[int]] = {}

    def changed(match_id: str) -> None:
        session = hub.sessions.get(match_id)
        if session is None:
            elsewhere.pop(match_id, None)
            return
        now_there = {s.seat for s in session.seats
                     if hub.bus.present_elsewhere(match_id, s.seat)}
        for seat in elsewhere.get(match_id, set()) - now_there:
            if session.connected.get(seat, 0) == 0:
                session.away_since[seat] = time.monotonic()
        elsewhere[match_id] = now_there
        session.announce_change()
        session.seats_changed()  # the sockets here see the seats there

    return changed


def install(hub: Hub) -> ScaleOut:
    """Build the bus and serializer from the hub's settings and hook them up."""
    scale = build(hub.settings)
    parts = scale.parts
    if parts is not None:
        def query(match_id: str) -> tuple[str, tuple[object, ...]] | None:
            session = hub.sessions.get(match_id)
            return None if session is None else (SINCE_SQL, (match_id, session.version))

        def on_locked(match_id: str, rows: list[tuple[Any, ...]]) -> None:
            session = hub.sessions.get(match_id)
            if session is not None and apply_missing(session, *rows_to_events(rows)):
                session.announce_change()
                parts.bus.tell_local(match_id, session.version)

        parts.serializer.catch_up_query = query
        parts.serializer.on_locked = on_locked
        parts.bus.set_catch_up(lambda m, v: catch_up(hub, m, v),
                               holds=lambda m: m in parts.leases.held)
        parts.bus.on_presence = _presence_hook(hub)
    return scale
