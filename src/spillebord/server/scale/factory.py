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
from typing import Any

from spillebord.server.bus import LocalBus, LocalSerializer


class ScaleConfigError(RuntimeError):
    pass


@dataclass
class ScaleOut:
    bus: Any
    serializer: Any
    shared: bool
    leases: Any = None  # shared mode: leases.Leases (one worker drives a match's bots)

    async def start(self) -> None:
        if self.shared:
            await self.bus.start()

    async def stop(self) -> None:
        if self.shared:
            await self.bus.stop()
            await self.serializer.close()
            await self.leases.close()

    async def may_drive(self, match_id: str) -> bool:
        """Whether this worker should play the match's bots now."""
        return not self.shared or await self.leases.acquire(match_id)

    async def done_driving(self, match_id: str) -> None:
        if self.shared:
            await self.leases.release(match_id)


def build(settings: Any) -> ScaleOut:
    redis_url: str | None = settings.redis_url  # Settings.from_env: SPILLEBORD_REDIS
    if not redis_url:
        return ScaleOut(LocalBus(), LocalSerializer(), shared=False)
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
    return ScaleOut(RedisBus(redis_url), PgSerializer(dsn), shared=True, leases=Leases(dsn))
