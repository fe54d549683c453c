"""Choose the bus and the serializer from the settings (docs/deploy.md).

- no ``SPILLEBORD_REDIS``: one worker — the in-process ``LocalBus`` and
  ``LocalSerializer`` on any database (SQLite by default);
- ``SPILLEBORD_REDIS=redis://host:port/db`` with a PostgreSQL ``SPILLEBORD_DB``
  (``postgresql+psycopg://…``): shared mode — ``RedisBus`` and ``PgSerializer``, and
  sessions catch up from the database before every event.

Redis with SQLite is refused at start: separate processes cannot share one SQLite file's
games safely.  ``redis`` and ``psycopg`` are imported only in shared mode (the ``scale``
extra of pyproject).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from spillebord.server.bus import EventBus, LocalBus, LocalSerializer, MatchSerializer
from spillebord.server.settings import Settings

if TYPE_CHECKING:
    from spillebord.server.scale.leases import Leases
    from spillebord.server.scale.pg_lock import PgSerializer
    from spillebord.server.scale.redis_bus import RedisBus


class ScaleConfigError(RuntimeError):
    pass


@dataclass
class SharedParts:
    """Shared mode's concrete pieces (their hooks are wired by scale/wiring.py)."""

    bus: RedisBus
    serializer: PgSerializer
    leases: Leases  # one worker drives a match's bots


@dataclass
class ScaleOut:
    bus: EventBus
    serializer: MatchSerializer
    parts: SharedParts | None = None  # None: one worker

    @property
    def shared(self) -> bool:
        return self.parts is not None

    async def start(self) -> None:
        if self.parts is not None:
            await self.parts.bus.start()

    async def stop(self) -> None:
        if self.parts is not None:
            await self.parts.bus.stop()
            await self.parts.serializer.close()
            await self.parts.leases.close()

    async def redis_ok(self) -> bool | None:
        """Whether Redis answers (None: one worker, no Redis)."""
        return None if self.parts is None else await self.parts.bus.ping()

    async def release_leases(self) -> None:
        """Let every bot lease go at once (its session ends; the next ``may_drive``
        would open a new one)."""
        if self.parts is not None:
            await self.parts.leases.close()

    async def may_drive(self, match_id: str) -> bool:
        """Whether this worker should play the match's bots now."""
        return self.parts is None or await self.parts.leases.acquire(match_id)

    async def done_driving(self, match_id: str) -> None:
        if self.parts is not None:
            await self.parts.leases.release(match_id)


def build(settings: Settings) -> ScaleOut:
    redis_url: str | None = settings.redis_url  # Settings.from_env: SPILLEBORD_REDIS
    if not redis_url:
        return ScaleOut(LocalBus(), LocalSerializer())
    db_url: str = settings.db_url
    if not db_url.startswith("postgresql"):
        raise ScaleConfigError("SPILLEBORD_REDIS (several workers) needs a PostgreSQL "
                               "SPILLEBORD_DB such as postgresql+psycopg://user@host/db")
    try:
        from spillebord.server.scale.leases import Leases
        from spillebord.server.scale.pg_lock import PgSerializer, psycopg_dsn
        from spillebord.server.scale.redis_bus import RedisBus
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ScaleConfigError(f"several workers need the 'scale' extra "
                               f"(pip install 'spillebord[scale]'): {exc}") from None
    dsn = psycopg_dsn(db_url)
    parts = SharedParts(RedisBus(redis_url), PgSerializer(dsn), Leases(dsn))
    return ScaleOut(parts.bus, parts.serializer, parts)
