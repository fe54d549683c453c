"""Choose the bus and the ownership leases from the settings (docs/deploy.md), and build
shared mode's pieces with everything they use (server/services.py calls ``transport``
first, then ``build``; nothing is set on them afterwards).

- no ``SPILLEBORD_REDIS``: one worker — the in-process ``LocalBus`` on any database
  (SQLite by default);
- ``SPILLEBORD_REDIS=redis://host:port/db`` with a PostgreSQL ``SPILLEBORD_DB``
  (``postgresql+psycopg://…``): shared mode — ``RedisBus`` (announcements with the events,
  presence and forwarded actions), ``Owners`` (one owner per live game, under a lease:
  scale/owners.py), the ``Replica`` (this worker's copies of the games others own) and
  the ``Forwarder`` (events to the owner).  In both modes a game's events are
  serialised by this worker's own ``LocalSerializer``: in shared mode only the game's
  owner writes its events.

Redis with SQLite is refused at start: separate processes cannot share one SQLite file's
games safely.  ``redis`` and ``psycopg`` are imported only in shared mode (the ``scale``
extra of pyproject).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from spillebord.server.infra.bus import EventBus, LocalBus, LocalSerializer
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage import migrate
from spillebord.server.room.ports import HereRouter, Router
from spillebord.server.room.registry import Current, Freshness
from spillebord.server.scale.keys import lock_key

if TYPE_CHECKING:
    from spillebord.server.room.registry import Rooms
    from spillebord.server.scale.forward import Forwarder
    from spillebord.server.scale.owners import Owners
    from spillebord.server.scale.redis_bus import RedisBus
    from spillebord.server.scale.replica import Inbound, Replica
    from spillebord.server.scale.shared_quotas import SharedRates


class ScaleConfigError(RuntimeError):
    pass


def psycopg_dsn(sqlalchemy_url: str) -> str:
    """``postgresql+psycopg://…`` (SQLAlchemy) → ``postgresql://…`` (libpq)."""
    from sqlalchemy.engine import make_url

    url = make_url(sqlalchemy_url)
    if url.get_backend_name() != "postgresql":
        raise ValueError(f"not a PostgreSQL URL: {url.render_as_string()}")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass(frozen=True)
class Transport:
    """The bus and the lock, chosen from the settings before the rooms are built (the
    rooms count a match's listeners on the bus); ``redis``/``dsn``: shared mode."""

    bus: EventBus
    serializer: LocalSerializer
    redis: RedisBus | None = None
    dsn: str = ""  # the PostgreSQL database, for the leases (libpq form)
    lease_seconds: float = 10.0

    @property
    def shared(self) -> bool:
        return self.redis is not None

    def shared_rates(self, redis_url: str | None) -> SharedRates | None:
        """The quotas' rate counters in Redis, shared by the workers (shared mode; None on
        one worker: each counts alone)."""
        if self.redis is None or not redis_url:
            return None
        from spillebord.server.scale.shared_quotas import SharedRates
        return SharedRates(redis_url)

    def notice(self, topic: str) -> Callable[[str], None] | None:
        """How a service tells the other workers that ``topic`` changed for a match
        (``RedisBus.note``; None on one worker: nobody else to tell)."""
        return None if self.redis is None else functools.partial(self.redis.note, topic)


@dataclass(frozen=True)
class SharedParts:
    """Shared mode's concrete pieces, built together by ``build``."""

    bus: RedisBus
    owners: Owners  # one owner per live game
    replica: Replica  # this worker's copies of the games others own
    forwarder: Forwarder  # events of sockets here to their game's owner
    inbound: Inbound  # what the bus hears goes there


@dataclass(frozen=True)
class ScaleOut:
    bus: EventBus
    serializer: LocalSerializer = field(default_factory=LocalSerializer)
    parts: SharedParts | None = None  # None: one worker
    # where a game's events run: here (one worker), or on its owner (shared mode:
    # scale/forward.py's Forwarder)
    router: Router = field(default_factory=HereRouter)
    # bringing a copy up to date before use: nothing (one worker), or the replica's
    # read of what other workers wrote
    fresh: Freshness = field(default_factory=Current)
    # shared mode: ``drive(match)`` — whether this worker should play the match's bots
    # (it owns the game, taking it if nobody does: scale/replica.py ``Replica.drive``)
    drive: Callable[[str], Awaitable[bool]] | None = None

    @property
    def shared(self) -> bool:
        return self.parts is not None

    async def start(self) -> None:
        if self.parts is not None:
            await self.parts.bus.start(self.parts.inbound)
            self.parts.owners.start()

    async def stop(self) -> None:
        if self.parts is not None:
            await self.parts.owners.close()
            await self.parts.bus.stop()

    async def redis_ok(self) -> bool | None:
        """Whether Redis answers (None: one worker, no Redis)."""
        return None if self.parts is None else await self.parts.bus.ping()

    async def release_leases(self, keep: Callable[[str], bool] | None = None) -> None:
        """Take no new games and let the game leases go at once (drain), all of them or
        those ``keep`` does not keep: the other workers take each game at its next
        action or bot move."""
        if self.parts is None:
            return
        owners = self.parts.owners
        owners.accepting = False
        if keep is None:
            await owners.release_all()
            return
        for match_id in [m for m in owners.held if not keep(m)]:
            await owners.release(match_id)

    async def may_drive(self, match_id: str) -> bool:
        """Whether this worker should play the match's bots now (it owns the game)."""
        return self.drive is None or await self.drive(match_id)

    def lost(self, match_id: str) -> None:
        """The writer's fence refused an event: another worker owns the match now."""
        if self.parts is not None:
            self.parts.owners.drop(match_id)

    def seats_written(self, match_id: str) -> None:
        """A seat of the match was written to the database here: the other workers
        re-read the seats and tell their sockets (scale/replica.py)."""
        if self.parts is not None:
            self.parts.bus.note("seats", match_id)

    def holds(self, match_id: str) -> bool:
        """Whether this worker holds the game's lease (shared mode; never otherwise)."""
        return self.parts is not None and match_id in self.parts.owners.held

    async def let_go(self, match_id: str, ended: bool) -> None:
        """Release the game's lease (shared mode)."""
        if self.parts is not None:
            await self.parts.owners.release(match_id, ended=ended)

    async def done_driving(self, match_id: str) -> None:
        """The game ended: its lease goes with the next renewal (``Keeper.give_away``)."""


def transport(settings: Settings) -> Transport:
    redis_url: str | None = settings.redis_url  # Settings.from_env: SPILLEBORD_REDIS
    if not redis_url:
        return Transport(LocalBus(), LocalSerializer())
    db_url: str = settings.db_url
    if not db_url.startswith("postgresql"):
        raise ScaleConfigError("SPILLEBORD_REDIS (several workers) needs a PostgreSQL "
                               "SPILLEBORD_DB such as postgresql+psycopg://user@host/db")
    try:
        from spillebord.server.scale.owners import Owners  # noqa: F401 (psycopg)
        from spillebord.server.scale.redis_bus import RedisBus
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ScaleConfigError(f"several workers need the 'scale' extra (uv sync "
                               f"--extra scale in the checkout, docs/deploy.md): {exc}"
                               ) from None
    bus = RedisBus(redis_url, only_watched=True)
    return Transport(bus, LocalSerializer(), bus, psycopg_dsn(db_url),
                     settings.lease_seconds)


def build(transport: Transport, rooms: Rooms, engine: Engine,
          notes: Mapping[str, Callable[[str], None]]) -> ScaleOut:
    """One worker: the bus and the lock.  Shared mode: the leases, the replica and the
    forwarder too, each given what it uses; ``notes``: topic → what to call when
    another worker's notice of it comes (chat lines, lobby changes)."""
    bus, serializer = transport.redis, transport.serializer
    if bus is None:
        return ScaleOut(transport.bus, serializer)
    from spillebord.server.scale.forward import Forwarder
    from spillebord.server.scale.owners import Owners
    from spillebord.server.scale.replica import Inbound, Keeper, Replica

    keeper = Keeper(rooms, bus, serializer)
    owners = Owners(transport.dsn, bus.worker, transport.lease_seconds, keeper)
    replica = Replica(rooms, engine, serializer, bus, owners, keeper)
    forwarder = Forwarder(rooms.sessions.get, bus, owners, replica.own, replica.received)
    parts = SharedParts(bus, owners, replica, forwarder, Inbound(replica, forwarder, notes))
    return ScaleOut(bus, serializer, parts, router=forwarder, fresh=replica,
                    drive=replica.drive)


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
