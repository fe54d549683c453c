"""Group commit: the events of many games are committed together.

``await writer.write(ops)`` returns once ``ops`` (functions of a Connection) are
committed, so a session acknowledges an action only after it is durable.
``writer.submit(ops, on_commit)`` also runs ``on_commit()`` on the event loop right after
the commit, before the returned future resolves — whether or not anyone still awaits it
(a session applies the event there, so memory never lags the database).  Requests that
arrive while a commit runs share the next one, which keeps the commit rate, not the
action rate, the limit.  A batch that fails is retried request by request so one bad
request cannot fail the others.

SQLite (and any database but PostgreSQL): one writer thread commits each batch in one
transaction.  PostgreSQL: a batch of event rows is ONE statement and one network round
trip (rows.py ``PgRows``, the lease fence folded in), sent **from the event loop** on an
asynchronous autocommit connection of its own — no thread to wake and no hand-back per
batch: the loop sends the statement, waits on the socket like on any other, and
resolves the batch's futures when the answer comes.  A batch that also holds other ops
(a game's end, chat lines: functions of a SQLAlchemy connection) runs on the writer
thread in one transaction, in its turn: batches are committed strictly one after
another, in the order they were submitted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection, Engine

from spillebord.server.storage.models import actions
from spillebord.server.storage.rows import Fence, PgRows, RowInserter

log = logging.getLogger(__name__)

# An op is either a row for the actions table (a dict, inserted with one executemany
# per batch) or a function of the connection for anything else.
Op = dict[str, Any] | Callable[[Connection], None]
OnCommit = Callable[[], None] | None
_Request = tuple[Sequence[Op], asyncio.Future[None], asyncio.AbstractEventLoop, OnCommit]
MAX_BATCH = 512


class LeaseLost(RuntimeError):
    """The event's match is owned by another worker now: nothing was written."""


class GroupWriter:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._pg = PgRows.for_engine(engine)
        self._insert = None if self._pg is not None else RowInserter.for_engine(engine)
        # Items are lists of requests: the event loop hands over everything submitted
        # in one loop iteration with a single put (one wake-up of this thread, not one
        # per action).
        self._queue: queue.SimpleQueue[list[_Request] | None] = queue.SimpleQueue()
        self._pending: list[_Request] = []
        self._pending_lock = threading.Lock()
        self._conn: Connection | None = None
        self._thread = threading.Thread(target=self._run, name="spillebord-writer",
                                        daemon=True)
        if self._pg is None:  # (PostgreSQL: the loop's pump, and a pool thread for ops)
            self._thread.start()
        # PostgreSQL: the batches waiting for the loop's pump, the pump, its connection
        self._loop_pending: list[_Request] = []
        self._pump: asyncio.Task[None] | None = None
        self._aconn: Any = None  # psycopg.AsyncConnection of the pump's loop
        self._aconn_loop: asyncio.AbstractEventLoop | None = None
        self.batches = 0
        self.requests = 0
        # (requests, seconds) of every committed batch (metrics.py)
        self.observe: Callable[[int, float], None] | None = None
        # shared mode (PostgreSQL only): the lease tokens this worker holds; the events
        # of a match whose ``owners`` row carries another token are not written
        self.fence: Fence | None = None

    async def write(self, ops: Sequence[Op]) -> None:
        await self.submit(ops)

    def submit(self, ops: Sequence[Op], on_commit: OnCommit = None,
               loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Future[None]:
        """Queue ``ops``; the future resolves once they are committed (after
        ``on_commit()`` ran on this loop) or fails with RuntimeError (``on_commit`` is
        then not called).  Cancelling the future does not withdraw the write.
        ``loop``: the running loop, when the caller knows it (Python 3.11 makes a
        ``getpid`` system call in every ``get_running_loop``)."""
        if loop is None:
            loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        request = (ops, fut, loop, on_commit)
        if self._pg is not None:
            self._loop_pending.append(request)
            if self._pump is None or self._pump.done():
                self._pump = loop.create_task(self._pump_batches(), name="writer")
            return fut
        with self._pending_lock:
            self._pending.append(request)
            first = len(self._pending) == 1
        if first:
            loop.call_soon(self._hand_over)
        return fut

    def _hand_over(self) -> None:
        with self._pending_lock:
            requests, self._pending = self._pending, []
        if requests:
            self._queue.put(requests)

    async def aclose(self) -> None:
        """Commit what is queued, then close (on the loop that submitted)."""
        while self._pump is not None and not self._pump.done():
            await asyncio.shield(self._pump)
        if self._aconn is not None:
            with contextlib.suppress(Exception):
                await self._aconn.close()
            self._aconn = None
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        if self._aconn is not None:  # its loop is gone: close the socket directly
            with contextlib.suppress(Exception):
                self._aconn.pgconn.finish()
            self._aconn = None
        if self._thread.is_alive():
            self._hand_over()
            self._queue.put(None)
            self._thread.join(timeout=10)
        self._drop_connection()

    # -- PostgreSQL: the pump on the event loop -------------------------------------------
    async def _pump_batches(self) -> None:
        """Commit the queued requests batch by batch, in order, until none is left."""
        pending = self._loop_pending
        while pending:  # (started by a task: this loop iteration's submissions are in)
            batch = pending[:MAX_BATCH]
            del pending[:MAX_BATCH]
            if any(not isinstance(op, dict) for ops, *_ in batch for op in ops):
                # functions of a SQLAlchemy connection: the thread's transaction
                await asyncio.to_thread(self._commit, batch)
            else:
                await self._commit_async(batch)

    async def _aconnection(self) -> Any:
        loop = asyncio.get_running_loop()
        conn = self._aconn
        if conn is None or conn.closed or conn.broken or self._aconn_loop is not loop:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.pgconn.finish()
            import psycopg

            url = self.engine.url.set(drivername="postgresql")
            self._aconn = None
            self._aconn = await psycopg.AsyncConnection.connect(
                url.render_as_string(hide_password=False), autocommit=True,
                application_name="spillebord-writer", connect_timeout=10)
            self._aconn_loop = loop
        return self._aconn

    async def _commit_async(self, batch: list[_Request]) -> None:
        assert self._pg is not None
        self.batches += 1
        self.requests += len(batch)
        start = time.perf_counter()
        try:
            plan = self._pg.plan([ops for ops, *_ in batch], self.fence)
            let_by = await self._pg.run_async(await self._aconnection(), plan)
        except Exception:
            if self._aconn is not None:
                with contextlib.suppress(Exception):
                    self._aconn.pgconn.finish()
                self._aconn = None
            if len(batch) > 1:
                for request in batch:
                    await self._commit_async([request])
                return
            log.exception("database write failed")
            _fail(batch[0][1])
            return
        self._finish(batch, plan.written(let_by), start, threadsafe=False)

    # -- the writer thread ---------------------------------------------------------------
    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._drop_connection()
                return
            batch = list(first)
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.extend(item)
            self._commit(batch)
            if stop:
                self._drop_connection()
                return

    def _connection(self) -> Connection:
        # One connection for the writer's lifetime: no pool check-out per batch.
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
        return self._conn

    def _commit(self, batch: list[_Request]) -> None:
        self.batches += 1
        self.requests += len(batch)
        start = time.perf_counter()
        try:
            conn = self._connection()
            if self._pg is not None:
                written = self._commit_pg(conn, batch)
            else:
                if self.fence is not None:
                    raise RuntimeError("the lease fence needs PostgreSQL")
                self._commit_other(conn, batch)
                written = [True] * len(batch)
        except Exception:
            self._drop_connection()
            if len(batch) > 1:
                for request in batch:
                    self._commit([request])
                return
            log.exception("database write failed")
            _, fut, loop, _cb = batch[0]
            loop.call_soon_threadsafe(_fail, fut)
            return
        self._finish(batch, written, start, threadsafe=True)

    def _finish(self, batch: list[_Request], written: list[bool], start: float,
                threadsafe: bool) -> None:
        """Resolve a committed batch's futures (those the fence refused: ``LeaseLost``),
        with one wake-up per event loop from the thread, not one per request."""
        done: list[_Request] = []
        for request, ok in zip(batch, written, strict=True):
            if ok:
                done.append(request)
            elif threadsafe:
                request[2].call_soon_threadsafe(_fail, request[1], LeaseLost)
            else:
                _fail(request[1], LeaseLost)
        if self.observe is not None:
            self.observe(len(done), time.perf_counter() - start)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], OnCommit]]]
        by_loop = {}
        for _ops, fut, loop, on_commit in done:
            by_loop.setdefault(loop, []).append((fut, on_commit))
        for loop, resolved in by_loop.items():
            if threadsafe:
                loop.call_soon_threadsafe(_done_all, resolved)
            else:
                _done_all(resolved)

    def _commit_pg(self, conn: Connection, batch: list[_Request]) -> list[bool]:
        assert self._pg is not None
        plan = self._pg.plan([ops for ops, *_ in batch], self.fence)
        driver: Any = conn.connection.driver_connection
        if not plan.other_ops:
            return plan.written(self._pg.run_alone(driver, plan))
        with conn.begin():
            written = plan.written(self._pg.run(driver, plan))
            _run_ops(conn, [r for r, ok in zip(batch, written, strict=True) if ok])
        return written

    def _commit_other(self, conn: Connection, batch: list[_Request]) -> None:
        """SQLite (and any database but PostgreSQL): one transaction, one executemany."""
        with conn.begin():
            rows = [op for ops, _f, _l, _c in batch for op in ops if isinstance(op, dict)]
            if rows:
                if self._insert is not None:
                    self._insert(conn, rows)
                else:
                    conn.execute(insert(actions), rows)
            _run_ops(conn, batch)

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # already broken
                log.debug("closing the writer connection failed", exc_info=True)
            self._conn = None


def _run_ops(conn: Connection, batch: list[_Request]) -> None:
    for ops, _fut, _loop, _cb in batch:
        for op in ops:
            if not isinstance(op, dict):
                op(conn)


def _done_all(done: list[tuple[asyncio.Future[None], OnCommit]]) -> None:
    for fut, on_commit in done:
        if on_commit is not None:
            try:
                on_commit()
            except Exception:  # committed, but the caller's bookkeeping failed
                log.exception("after-commit callback failed")
        _done(fut)


def _done(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


def _fail(fut: asyncio.Future[None], kind: type[RuntimeError] = RuntimeError) -> None:
    if not fut.done():
        fut.set_exception(kind("the database refused the write" if kind is RuntimeError
                               else "another worker owns this match now"))

