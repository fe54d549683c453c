"""``PgSerializer``: the ``MatchSerializer`` seam across workers, with PostgreSQL
session-level advisory locks.

``async with hold(match_id)`` first takes the worker's own ``asyncio.Lock`` for the match
(so one worker sends at most one lock request per match), then borrows a connection from
a small pool of dedicated autocommit connections and runs ``pg_advisory_lock(key)``
there, ``key`` being a 64-bit hash of the match id; on the way out
``pg_advisory_unlock(key)``.

Why PostgreSQL and not a Redis lock: the games live in PostgreSQL already, and an
advisory lock belongs to a database session, so a worker that dies (even SIGKILL)
releases every lock it held the moment its connections close — no expiry time to pick,
no clock, no lock that lapses while its holder is merely slow.  A Redis lock needs a TTL
and a fencing token checked by the store; here the ``(match_id, seq)`` primary key of the
actions table is the fence of last resort (a duplicate event is refused by the
database).  A hash collision between two match ids only serialises two games together.

Failures (PostgreSQL unreachable, ``lock_timeout`` exceeded) raise ``Refusal``
``unavailable``: the action is refused, nothing changed, the client may retry.  A
connection that failed or was interrupted is closed, never reused (closing it releases
anything it held).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import psycopg

from spillebord.server.bus import LocalSerializer
from spillebord.server.errors import Refusal
from spillebord.server.scale.keys import lock_key

log = logging.getLogger(__name__)


def psycopg_dsn(sqlalchemy_url: str) -> str:
    """``postgresql+psycopg://…`` (SQLAlchemy) → ``postgresql://…`` (libpq)."""
    from sqlalchemy.engine import make_url

    url = make_url(sqlalchemy_url)
    if url.get_backend_name() != "postgresql":
        raise ValueError(f"not a PostgreSQL URL: {url.render_as_string()}")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class PgSerializer:
    def __init__(self, dsn: str, size: int = 16, lock_timeout_ms: int = 10_000,
                 connect_timeout: float = 3.0) -> None:
        self.dsn = dsn
        self.size = size
        self.lock_timeout_ms = lock_timeout_ms
        self.connect_timeout = connect_timeout
        self._local = LocalSerializer()
        self._idle: list[psycopg.AsyncConnection[tuple[Any, ...]]] = []
        self._open = 0
        self._freed = asyncio.Condition()
        self.failures = 0
        self.acquired = 0
        # Catching up under the lock: ``catch_up_query(match)`` gives the SQL and its
        # parameters (or None), which run in the same round trip as the lock;
        # ``on_locked(match, rows)`` applies the rows before the caller's body runs.
        self.catch_up_query: Callable[[str], tuple[str, tuple[object, ...]] | None] | None \
            = None
        self.on_locked: Callable[[str, list[tuple[object, ...]]], None] | None = None

    def local(self, match_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """This worker's own lock for the match, without the database lock (held by
        ``hold`` too, so holding it keeps local events of the match out)."""
        return self._local.hold(match_id)

    async def _connect(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        conn = await asyncio.wait_for(
            psycopg.AsyncConnection.connect(self.dsn, autocommit=True,
                                            application_name="spillebord-lock",
                                            connect_timeout=max(1, int(self.connect_timeout))),
            self.connect_timeout + 1)
        await conn.execute(f"SET lock_timeout = {int(self.lock_timeout_ms)}")
        return conn

    async def _borrow(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        async with self._freed:
            while True:
                while self._idle:
                    conn = self._idle.pop()
                    if not conn.closed and not conn.broken:
                        return conn
                    self._open -= 1
                if self._open < self.size:
                    self._open += 1
                    break
                await self._freed.wait()
        try:
            return await self._connect()
        except BaseException:
            async with self._freed:
                self._open -= 1
                self._freed.notify()
            raise

    async def _give_back(self, conn: psycopg.AsyncConnection[tuple[Any, ...]], ok: bool) -> None:
        if not ok:
            with contextlib.suppress(Exception):
                await conn.close()
        async with self._freed:
            if ok:
                self._idle.append(conn)
            else:
                self._open -= 1
            self._freed.notify()

    @asynccontextmanager
    async def hold(self, match_id: str) -> AsyncIterator[None]:
        key = lock_key(match_id)
        async with self._local.hold(match_id):
            try:
                conn = await self._borrow()
            except (psycopg.Error, OSError, TimeoutError) as exc:
                self.failures += 1
                log.warning("match lock: cannot reach PostgreSQL (%s)", exc)
                raise Refusal("unavailable", "the game store is unreachable; nothing "
                                             "changed, try again", 503) from None
            ok = False
            try:
                query = self.catch_up_query(match_id) if self.catch_up_query else None
                try:
                    rows = await self._lock(conn, key, query)
                except (psycopg.Error, OSError) as exc:
                    self.failures += 1
                    log.warning("match lock for %s failed (%s)", match_id, exc)
                    raise Refusal("unavailable", "the game is busy or its store is "
                                                 "unreachable; nothing changed, try again",
                                  503) from None
                self.acquired += 1
                try:
                    if self.on_locked is not None and rows is not None:
                        self.on_locked(match_id, rows)
                    yield
                finally:
                    # Shielded so a cancelled caller cannot leave the lock held on a
                    # connection that goes back to the pool.
                    ok = await asyncio.shield(self._unlock(conn, key))
            finally:
                await asyncio.shield(self._give_back(conn, ok))

    @staticmethod
    async def _lock(conn: psycopg.AsyncConnection[tuple[Any, ...]], key: int,
                    query: tuple[str, tuple[object, ...]] | None
                    ) -> list[tuple[object, ...]] | None:
        """Take the advisory lock and, in the same round trip, run ``query``."""
        if query is None:
            await conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            return None
        async with conn.pipeline():
            await conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            cur = await conn.execute(query[0], query[1])
        return list(await cur.fetchall())

    @staticmethod
    async def _unlock(conn: psycopg.AsyncConnection[tuple[Any, ...]], key: int) -> bool:
        try:
            cur = await conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
            row = await cur.fetchone()
            return bool(row and row[0])
        except (psycopg.Error, OSError):
            return False  # the connection is closed and PostgreSQL drops its locks

    def forget(self, match_id: str) -> None:
        self._local.forget(match_id)

    async def close(self) -> None:
        async with self._freed:
            idle, self._idle = self._idle, []
            self._open -= len(idle)
        for conn in idle:
            with contextlib.suppress(Exception):
                await conn.close()
