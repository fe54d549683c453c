"""Bot-driver leases: with several workers, only one worker plays a match's bots.

Every worker keeps the running games in memory, and each would otherwise start a bot
driver for each of them (correct — the match lock refuses the slower duplicate as stale —
but N times the bot work).  A driver plays only while its worker holds the match's lease:
a PostgreSQL advisory lock taken with ``pg_try_advisory_lock`` on one dedicated
connection per worker.  A worker that dies drops its connection and with it every lease;
the other workers' drivers retry every ``RETRY`` seconds and take them over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import psycopg

from spillebord.server.scale.keys import lock_key

log = logging.getLogger(__name__)
RETRY = 2.0


class Leases:
    def __init__(self, dsn: str, retry: float = RETRY) -> None:
        self.dsn = dsn
        self.retry = retry
        self.held: set[str] = set()
        self.taken = 0  # leases taken since start (metrics.py)
        self._conn: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self._lock = asyncio.Lock()
        self._tried: dict[str, float] = {}  # match -> when a failed attempt was made

    async def _connection(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self.held.clear()  # a new database session holds nothing yet
            self._conn = await psycopg.AsyncConnection.connect(
                self.dsn, autocommit=True, application_name="spillebord-lease",
                connect_timeout=3)
        return self._conn

    async def acquire(self, match_id: str) -> bool:
        """Whether this worker holds (or just took) the match's lease."""
        if match_id in self.held and self._conn is not None and not self._conn.broken:
            return True
        now = time.monotonic()
        if now - self._tried.get(match_id, -self.retry) < self.retry:
            return False  # asked a moment ago; the holder is alive or we will see
        self._tried[match_id] = now
        async with self._lock:
            try:
                conn = await self._connection()
                cur = await conn.execute("SELECT pg_try_advisory_lock(%s)",
                                         (lock_key("lease:" + match_id),))
                row = await cur.fetchone()
            except (psycopg.Error, OSError) as exc:
                log.warning("bot lease for %s: database unreachable (%s)", match_id, exc)
                self.held.clear()
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                self._conn = None
                return False
            if row and row[0]:
                self.held.add(match_id)
                self.taken += 1
                self._tried.pop(match_id, None)
                return True
            return False

    async def release(self, match_id: str) -> None:
        self._tried.pop(match_id, None)
        if match_id not in self.held:
            return
        async with self._lock:
            self.held.discard(match_id)
            if self._conn is not None and not self._conn.broken:
                with contextlib.suppress(psycopg.Error, OSError):
                    await self._conn.execute("SELECT pg_advisory_unlock(%s)",
                                             (lock_key("lease:" + match_id),))

    async def close(self) -> None:
        self.held.clear()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
