"""Game ownership in shared mode (issue 20): each live game has exactly one owner worker
at a time, under a lease in PostgreSQL's ``owners`` table.

- ``acquire(match)``: one statement — insert the lease row, or take over a row whose
  lease has expired (``ON CONFLICT … WHERE expires < now()``) — with a fresh random
  ``token`` and ``epoch + 1``.  Only PostgreSQL's clock is used.
- The owner renews all its leases in one ``UPDATE`` every ``ttl / 3`` seconds; a lease
  that did not come back (taken over after this worker was stalled for longer than the
  lease) is dropped from ``held`` (this worker's copy is a replica from then on).
- ``fence``: every group-writer statement that writes events (storage/writer.py) runs
  ``SELECT … FOR SHARE`` of the batch's matches' lease rows in the same statement and
  writes only the events of a match whose row still carries this worker's token (which
  ``fence`` gives it); the others fail with ``LeaseLost``.  A stale owner that wakes up
  cannot write; a takeover's ``UPDATE`` waits for a batch that holds the rows and then
  reads the database after it, so nothing committed is missed.  The ``(match_id, seq)``
  primary key stays the fence of last resort.
- ``release`` empties the row's token and lease (the next acquirer takes it at once,
  and the epoch goes on counting): drain, a game given away to the worker its sockets
  are on; the row of a game that ended is deleted.

A worker that dies (even SIGKILL) stops renewing; its leases expire ``ttl`` seconds after
the last renewal, and the next action or bot move on another worker takes the game over
from the database (scale/replica.py ``Replica.own``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import psycopg

from spillebord.server.infra.storage.health import READS

log = logging.getLogger(__name__)

ACQUIRE_SQL = (  # (epoch, whether the previous owner had released it)
    "WITH old AS (SELECT expires FROM owners WHERE match_id = %s) "
    "INSERT INTO owners AS o (match_id, worker, token, epoch, expires) "
    "VALUES (%s, %s, %s, 1, now() + make_interval(secs => %s)) "
    "ON CONFLICT (match_id) DO UPDATE SET worker = EXCLUDED.worker, token = EXCLUDED.token, "
    "epoch = o.epoch + 1, expires = EXCLUDED.expires WHERE o.expires < now() "
    "RETURNING o.epoch, coalesce((SELECT expires = '-infinity' FROM old), true)")
OWNER_SQL = "SELECT worker FROM owners WHERE match_id = %s"
RENEW_SQL = ("UPDATE owners SET expires = now() + make_interval(secs => %s) "
             "WHERE worker = %s AND match_id = ANY(%s) RETURNING match_id, token")
# A released row stays (its epoch goes on counting) with no token and a lease that has
# expired; the row of a game that ended is deleted (so a later acquire starts again at
# epoch 1: the epoch says nothing about who wrote the game's events).
RELEASE_SQL = ("UPDATE owners SET token = '', expires = '-infinity' "
               "WHERE match_id = %s AND token = %s")
RELEASE_ALL_SQL = "UPDATE owners SET token = '', expires = '-infinity' WHERE worker = %s"
ENDED_SQL = "DELETE FROM owners WHERE match_id = %s AND token = %s"


class Keeper(Protocol):
    """What the renewal asks of the rooms (scale/replica.py ``Keeper``)."""

    def give_away(self, match_id: str) -> bool:
        """Whether to let the game's lease go now (it ended, or its sockets are all on
        other workers)."""
        ...

    def ended(self, match_id: str) -> bool: ...

    def hold(self, match_id: str) -> AbstractAsyncContextManager[None]:
        """The game's lock: no event of it runs while its lease is let go."""
        ...


class Owners:
    """``keeper``: whom the renewal asks which games to give away (none without one)."""

    def __init__(self, dsn: str, worker: str, ttl: float = 10.0,
                 keeper: Keeper | None = None) -> None:
        self.dsn = dsn
        self.worker = worker
        self.ttl = ttl
        self.held: dict[str, str] = {}  # match -> this worker's lease token
        self.accepting = True  # False while draining: take no new games
        self.acquired = 0  # leases taken (new games and takeovers), for metrics.py
        self.taken_over = 0  # of those, taken from an owner whose lease had expired
        self.lost = 0  # leases found taken by another worker (renewal or fence)
        self.keeper = keeper
        self._conn: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self._lock = asyncio.Lock()
        self._renewing: asyncio.Task[None] | None = None

    # -- the lease connection ---------------------------------------------------------
    async def _connection(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = await psycopg.AsyncConnection.connect(
                self.dsn, autocommit=True, application_name="spillebord-owner",
                connect_timeout=3)
        return self._conn

    async def _run(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        async with self._lock:
            try:
                conn = await self._connection()
                cur = await conn.execute(sql, params)
                return list(await cur.fetchall()) if cur.description else []
            except (psycopg.Error, OSError):
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                self._conn = None
                raise

    # -- acquiring and releasing ------------------------------------------------------
    async def acquire(self, match_id: str) -> int:
        """0 if another worker owns the match; else the lease's epoch (-1: held
        already).  The caller reads the game from the database before acting whatever
        the epoch: a game's row is deleted when it ends, so epoch 1 does not mean that
        nobody wrote its events (scale/replica.py ``Replica.own``)."""
        if match_id in self.held:
            return -1
        if not self.accepting:
            return 0
        token = secrets.token_hex(16)
        try:
            rows = await self._run(ACQUIRE_SQL, (match_id, match_id, self.worker, token,
                                                 self.ttl))
        except (psycopg.Error, OSError) as exc:
            if not READS.note(exc, "taking a game lease"):  # an outage: one line
                log.warning("game lease for %s: the database refused (%s)", match_id,
                            type(exc).__name__)
            return 0
        if not rows:
            return 0
        self.held[match_id] = token
        self.acquired += 1
        epoch, released = int(rows[0][0]), bool(rows[0][1])
        if not released:
            self.taken_over += 1
            log.info("took match %s over (owner %d)", match_id, epoch)
        return epoch

    async def owner_of(self, match_id: str) -> str | None:
        """The worker that holds the match's lease row (None: nobody)."""
        try:
            rows = await self._run(OWNER_SQL, (match_id,))
        except (psycopg.Error, OSError):
            return None
        return str(rows[0][0]) if rows else None

    async def release(self, match_id: str, ended: bool = False) -> None:
        """Let the match go (``ended``: the game is over; its row goes too)."""
        token = self.held.pop(match_id, None)
        if token is not None:
            with contextlib.suppress(psycopg.Error, OSError):
                await self._run(ENDED_SQL if ended else RELEASE_SQL, (match_id, token))

    async def release_all(self) -> None:
        """Let every game go at once (drain): another worker takes each at its next
        action or bot move."""
        self.held.clear()
        try:
            await self._run(RELEASE_ALL_SQL, (self.worker,))
        except (psycopg.Error, OSError) as exc:
            log.warning("releasing the game leases failed (%s); they expire instead", exc)

    def drop(self, match_id: str) -> None:
        """The lease is gone (another worker holds it now)."""
        if self.held.pop(match_id, None) is not None:
            self.lost += 1
            log.warning("lost the lease of match %s", match_id)

    # -- renewal ----------------------------------------------------------------------
    def start(self) -> None:
        self._renewing = asyncio.create_task(self._renew_loop(), name="game-leases")

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not READS.note(exc, "renewing the game leases"):  # once an outage
                    log.warning("renewing the game leases failed", exc_info=True)

    async def renew(self) -> None:
        keeper = self.keeper
        if keeper is not None:
            for match_id in [m for m in self.held if keeper.give_away(m)]:
                async with keeper.hold(match_id):  # no event of it in flight
                    await self.release(match_id, ended=keeper.ended(match_id))
        if not self.held:
            return
        mine = dict(self.held)
        rows = await self._run(RENEW_SQL, (self.ttl, self.worker, list(mine)))
        kept = {(str(m), str(t)) for m, t in rows}
        for match_id, token in mine.items():
            if (match_id, token) not in kept and self.held.get(match_id) == token:
                self.drop(match_id)

    # -- the fence (on the writer's thread) ---------------------------------------------
    def fence(self, match_ids: Iterable[str]) -> dict[str, str]:
        """This worker's lease token of each of ``match_ids`` it holds.  The group
        writer's statement (storage/writer.py ``_PgRows``) share-locks those matches'
        ``owners`` rows and writes only the events of the matches whose row still
        carries this token; the locks are held until it commits."""
        held = self.held
        return {m: held[m] for m in match_ids if m in held}

    async def close(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
            self._renewing = None
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
