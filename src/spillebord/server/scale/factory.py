"""Choose the bus and the ownership leases from the settings (docs/deploy.md).

- no ``SPILLEBORD_REDIS``: one worker — the in-process ``LocalBus`` on any database
  (SQLite by default);
- ``SPILLEBORD_REDIS=redis://host:port/db`` with a PostgreSQL ``SPILLEBORD_DB``
  (``postgresql+psycopg://…``): shared mode — ``RedisBus`` (announcements, presence and
  forwarded actions) and ``Owners`` (one owner per live game, under a lease:
  scale/owners.py).  In both modes a game's events are serialised by this worker's own
  ``LocalSerializer``: in shared mode only the game's owner writes its events.

Redis with SQLite is refused at start: separate processes cannot share one SQLite file's
games safely.  ``redis`` and ``psycopg`` are imported only in shared mode (the ``scale``
extra of pyproject).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spillebord.server.infra.bus import EventBus, LocalBus, LocalSerializer
from spillebord.server.infra.settings import Settings
from spillebord.server.room.ports import HereRouter, Router

if TYPE_CHECKING:
    from spillebord.server.scale.forward import Forwarder
    from spillebord.server.scale.owners import Owners
    from spillebord.server.scale.redis_bus import RedisBus


class ScaleConfigError(RuntimeError):
    pass


def psycopg_dsn(sqlalchemy_url: str) -> str:
    """``postgresql+psycopg://…`` (SQLAlchemy) → ``postgresql://…`` (libpq)."""
    from sqlalchemy.engine import make_url

    url = make_url(sqlalchemy_url)
    if url.get_backend_name() != "postgresql":
        raise ValueError(f"not a PostgreSQL URL: {url.render_as_string()}")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass
class SharedParts:
    """Shared mode's concrete pieces (their hooks are wired by scale/wiring.py)."""

    bus: RedisBus
    owners: Owners  # one owner per live game
    forwarder: Forwarder | None = None  # set by wiring.install


@dataclass
class ScaleOut:
    bus: EventBus
    serializer: LocalSerializer = field(default_factory=LocalSerializer)
    parts: SharedParts | None = None  # None: one worker
    # where a game's events run: here (one worker), or on its owner (shared mode:
    # scale/forward.py's Forwarder, set by wiring.install)
    router: Router = field(default_factory=HereRouter)
    # shared mode: ``own(match)`` — whether this worker owns the match now, taking it
    # (and reading it from the database) when nobody does (set by wiring.install)
    own: Callable[[str], Awaitable[bool]] | None = None
    # shared mode: ``own`` for a bot driver — not for a game whose sockets are all on
    # other workers, and not asked again within ``LEASE_RETRY`` of a refusal
    drive: Callable[[str], Awaitable[bool]] | None = None

    @property
    def shared(self) -> bool:
        return self.parts is not None

    async def start(self) -> None:
        if self.parts is not None:
            await self.parts.bus.start()
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
        re-read the seats and tell their sockets (scale/wiring.py)."""
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
        """The game ended: its lease goes with the next renewal (owners.should_release)."""


def build(settings: Settings) -> ScaleOut:
    redis_url: str | None = settings.redis_url  # Settings.from_env: SPILLEBORD_REDIS
    if not redis_url:
        return ScaleOut(LocalBus())
    db_url: str = settings.db_url
    if not db_url.startswith("postgresql"):
        raise ScaleConfigError("SPILLEBORD_REDIS (several workers) needs a PostgreSQL "
                               "SPILLEBORD_DB such as postgresql+psycopg://user@host/db")
    try:
        from spillebord.server.scale.owners import Owners
        from spillebord.server.scale.redis_bus import RedisBus
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ScaleConfigError(f"several workers need the 'scale' extra (uv sync "
                               f"--extra scale in the checkout, docs/deploy.md): {exc}"
                               ) from None
    bus = RedisBus(redis_url)
    owners = Owners(psycopg_dsn(db_url), bus.worker, settings.lease_seconds)
    parts = SharedParts(bus, owners)
    return ScaleOut(bus, parts=parts)
