"""Group commit: one writer thread commits the events of many games together.

``await writer.write(ops)`` returns once ``ops`` (functions of a Connection) are
committed, so a session acknowledges an action only after it is durable.
``writer.submit(ops, on_commit)`` also runs ``on_commit()`` on the event loop right after
the commit, before the returned future resolves — whether or not anyone still awaits it
(a session applies the event there, so memory never lags the database).  Requests that
arrive while a commit runs share the next transaction, which keeps the commit rate, not
the action rate, the limit of a SQLite file.  A batch that fails is retried request by
request so one bad request cannot fail the others.

On a SQLite file the writer thread waits for the write lock itself (``_SqliteWait``),
looking every 0.5–5 ms: SQLite's own busy wait sleeps 1, 2, 5, 10, 15, 20, 25… ms between
looks, so a batch that met another connection's write (a match being created, a sign-up)
waited tens of milliseconds after the lock was free — every player's move then waited
with it (issue 29's soak: move p99 4 → 80 ms with the abusers).

On PostgreSQL a batch of event rows is ONE statement and one network round trip
(``_PgRows``): an ``INSERT`` of all its rows in autocommit (a single statement is its
own transaction) — no ``BEGIN`` / ``COMMIT`` trips and no per-row ``executemany``
messages.  In shared mode the lease fence (scale/owners.py) is
folded into that statement: a ``SELECT … FOR SHARE`` of the batch's ``owners`` rows,
and only the rows of matches whose row carries this worker's token are inserted; the
statement returns those matches, so the others' requests fail with ``LeaseLost``.  A
batch that also holds other ops (a game's end, chat lines) runs the same statement in
one transaction with them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import operator
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from spillebord.server.infra.storage.health import StoreUnavailable, WriteHealth
from spillebord.server.infra.storage.models import actions, owners

log = logging.getLogger(__name__)

# An op is either a row for the actions table (a dict, inserted with one executemany
# per batch) or a function of the connection for anything else.
Op = dict[str, Any] | Callable[[Connection], None]
OnCommit = Callable[[], None] | None
_Request = tuple[Sequence[Op], asyncio.Future[None], asyncio.AbstractEventLoop, OnCommit]
MAX_BATCH = 512
QUIET = 0.0005  # s: a request this soon after one committed alone waits for a batch
# shared mode: (the matches of a batch) -> this worker's lease token of those it holds
Fence = Callable[[Iterable[str]], dict[str, str]]


class LeaseLost(RuntimeError):
    """The event's match is owned by another worker now: nothing was written."""


class GroupWriter:
    def __init__(self, engine: Engine, observe: Callable[[int, float], None] | None = None,
                 fence: Fence | None = None) -> None:
        self.engine = engine
        self._pg = _PgRows.for_engine(engine)
        self._insert = None if self._pg is not None else _RowInserter.for_engine(engine)
        self._inline = _Inline.for_engine(engine, self._insert)
        self._sqlite = engine.dialect.name == "sqlite"
        self._in_thread = 0  # hand-overs queued for the thread, not yet committed
        # Items are lists of requests: the event loop hands over everything submitted
        # in one loop iteration with a single put (one wake-up of this thread, not one
        # per action).
        self._queue: queue.SimpleQueue[list[_Request] | None] = queue.SimpleQueue()
        self._pending: list[_Request] = []
        self._pending_lock = threading.Lock()
        self._conn: Connection | None = None
        self._thread = threading.Thread(target=self._run, name="spillebord-writer",
                                        daemon=True)
        self._thread.start()
        self.batches = 0
        self.requests = 0
        # (requests, seconds) of every committed batch, on this thread (metrics.py)
        self.observe = observe
        # shared mode (PostgreSQL only): the lease tokens this worker holds; the events
        # of a match whose ``owners`` row carries another token are not written
        self.fence = fence
        self.health = WriteHealth()  # failures by reason, logged once per outage
        # A request alone commits at once, in its caller's step, without waiting for
        # the next loop iteration (``_alone``): a paced game server's every action
        # saves a loop iteration and a wake-up of its task.  Set by the first batch
        # (on the loop's thread).
        self._loop_thread: int | None = None
        self._batching = True  # the last batch held several requests: keep batching
        self._alone_at = float("-inf")  # the loop's time of the last request alone

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
        if (not self._batching and self._inline is not None and self._alone(loop)
                and self._commit_inline([request])):  # on_commit ran; fut resolved
            self._alone_at = loop.time()
            return fut
        with self._pending_lock:
            self._pending.append(request)
            first = len(self._pending) == 1
        if first:
            loop.call_soon(self._hand_over)
        return fut

    def _alone(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether a request may be committed at once, in the caller's own step (a
        SQLite file, on the loop's thread): nothing else waits or is in the thread's
        hands, and no request was committed that way in this loop iteration or within
        ``QUIET`` seconds of it (uvloop's clock moves once an iteration) — more than one
        request a moment means a busy game server, whose requests share batches again
        (``_batching``, until a batch holds one request)."""
        if threading.get_ident() != self._loop_thread:
            return False
        with self._pending_lock:
            if self._pending or self._in_thread:
                return False
        if loop.time() - self._alone_at < QUIET:
            self._batching = True
            return False
        return True

    def _hand_over(self, inline: bool = True) -> None:
        """The requests of one loop iteration: committed right here when they are
        event rows only, the database is a SQLite file and the thread has nothing in
        hand (``_Inline``); to the writer thread otherwise."""
        with self._pending_lock:
            requests, self._pending = self._pending, []
            idle = self._in_thread == 0
        if not requests:
            return
        if inline:  # (called by the loop: its thread)
            self._loop_thread = threading.get_ident()
            self._batching = len(requests) > 1
        if inline and idle and self._inline is not None and self._commit_inline(requests):
            return
        with self._pending_lock:
            self._in_thread += 1
        self._queue.put(requests)

    def _commit_inline(self, requests: list[_Request]) -> bool:
        """Commit ``requests`` on this (the event loop's) thread; False: not done, nothing
        written — the writer thread takes them (it retries, and reports a failure)."""
        assert self._inline is not None
        rows: list[dict[str, Any]] = []
        loop = requests[0][2]
        for ops, _fut, req_loop, _cb in requests:
            if req_loop is not loop or self.fence is not None:
                return False
            for op in ops:
                if not isinstance(op, dict):  # a game's end, chat lines: the thread
                    return False
                rows.append(op)
        start = time.perf_counter()
        if not self._inline.commit(rows):
            return False
        self.batches += 1
        self.requests += len(requests)
        self.health.succeeded()
        if self.observe is not None:
            self.observe(len(requests), time.perf_counter() - start)
        _done_all([(fut, on_commit) for _ops, fut, _loop, on_commit in requests])
        return True

    def close(self) -> None:
        self._hand_over(inline=False)  # (called off the loop: the thread commits them)
        self._queue.put(None)
        self._thread.join(timeout=10)
        if self._inline is not None:
            self._inline.close()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._drop_connection()
                return
            batch = list(first)
            items = 1
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
                items += 1
            self._commit(batch)
            with self._pending_lock:
                self._in_thread -= items
            if stop:
                self._drop_connection()
                return

    def _connection(self) -> Connection:
        # One connection for the writer's lifetime: no pool check-out per batch.
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
            if self._sqlite:  # this thread waits for the write lock itself (_SqliteWait)
                driver: Any = self._conn.connection.driver_connection
                driver.execute("PRAGMA busy_timeout = 0")
        return self._conn

    def _commit(self, batch: list[_Request]) -> None:
        self.batches += 1
        self.requests += len(batch)
        start = time.perf_counter()
        lost: list[_Request] = []
        try:
            conn = self._connection()
            if self._pg is not None:
                batch, lost = self._pg.commit(conn, batch, self.fence)
            else:
                if self.fence is not None:
                    raise RuntimeError("the lease fence needs PostgreSQL")
                if self._sqlite:
                    _SqliteWait().run(lambda: self._commit_other(conn, batch))
                else:
                    self._commit_other(conn, batch)
        except Exception as exc:
            self._drop_connection()
            batch = batch + lost
            if len(batch) > 1:
                for request in batch:
                    self._commit([request])
                return
            reason = self.health.failed(exc)  # counted; logged once per outage
            _, fut, loop, _cb = batch[0]
            loop.call_soon_threadsafe(_fail, fut, StoreUnavailable
                                      if reason == "unavailable" else RuntimeError)
            return
        self.health.succeeded()
        for _ops, fut, loop, _cb in lost:
            loop.call_soon_threadsafe(_fail, fut, LeaseLost)
        if self.observe is not None:
            self.observe(len(batch), time.perf_counter() - start)
        # One wake-up per event loop for the whole batch, not one per request.
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], OnCommit]]]
        by_loop = {}
        for _ops, fut, loop, on_commit in batch:
            by_loop.setdefault(loop, []).append((fut, on_commit))
        for loop, done in by_loop.items():
            loop.call_soon_threadsafe(_done_all, done)

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


class _SqliteWait:
    """Run a transaction again while SQLite says another connection holds the write
    lock ("database is locked"), looking every ``FIRST`` seconds, then less often up to
    every ``MOST``, for at most ``LIMIT`` seconds (then the error stands).  The writer's
    connection has ``busy_timeout`` 0, so the waiting is here, not in SQLite's busy
    handler (whose sleeps grow to 25 ms within 100 ms and to 100 ms later)."""

    FIRST = 0.0005
    MOST = 0.005
    LIMIT = 30.0  # as the engine's busy timeout (engine.py)

    def run(self, transaction: Callable[[], None]) -> None:
        deadline = time.monotonic() + self.LIMIT
        pause = self.FIRST
        while True:
            try:
                transaction()
                return
            except OperationalError as exc:
                if not _locked(exc) or time.monotonic() > deadline:
                    raise
            time.sleep(pause)
            pause = min(self.MOST, pause * 1.25)


def _locked(exc: OperationalError) -> bool:
    """Whether ``exc`` is SQLite's "another connection writes" (SQLITE_BUSY)."""
    orig = exc.orig
    return isinstance(orig, sqlite3.OperationalError) and (
        "locked" in str(orig) or "busy" in str(orig))


def _run_ops(conn: Connection, batch: list[_Request]) -> None:
    for ops, _fut, _loop, _cb in batch:
        for op in ops:
            if not isinstance(op, dict):
                op(conn)


class _PgRows:
    """PostgreSQL: a batch's event rows in one statement, with the lease fence in the
    same statement when there is one:

    - ``f``: ``SELECT … FOR SHARE`` of the batch's ``owners`` rows — a takeover's
      ``UPDATE`` of such a row waits for this statement's transaction, and a row that a
      takeover updated and committed first is read in its new version;
    - ``ok``: of those, the matches whose row carries the token this worker holds;
    - only their rows are inserted, and ``ok`` is returned: the requests of the other
      matches write nothing and fail with ``LeaseLost``.

    One row (most batches) goes as plain parameters; several as one JSON parameter
    (``json_populate_recordset``) — psycopg adapts both in C, where one array per
    column cost about 3× the client CPU and 2× the round trip.  Either text is the same
    for every batch, so psycopg prepares it once.  A batch of rows only is that one
    statement in autocommit (its own transaction): one round trip.  With other ops it
    runs first in their transaction."""

    def __init__(self, engine: Engine) -> None:
        from psycopg import pq  # (the "scale" extra: only PostgreSQL needs it)

        self.idle = pq.TransactionStatus.IDLE
        quote = engine.dialect.identifier_preparer.quote
        columns = list(actions.c)
        self.keys = [c.key for c in columns]
        names = ", ".join(quote(c.name) for c in columns)
        table = quote(actions.name)
        marks = ", ".join(["%s"] * len(columns))
        from_json = (f"SELECT {', '.join('r.' + quote(c.name) for c in columns)} "
                     f"FROM json_populate_recordset(NULL::{table}, %s::json) AS r")
        self.one = f"INSERT INTO {table} ({names}) VALUES ({marks})"
        self.many = f"INSERT INTO {table} ({names}) {from_json}"
        lease = quote(owners.name)
        self.fenced_one = (  # (match, token, the row's values)
            f"WITH f AS MATERIALIZED (SELECT match_id, token FROM {lease} "
            f"WHERE match_id = %s FOR SHARE), "
            f"ok AS (SELECT match_id FROM f WHERE token = %s), "
            f"ins AS (INSERT INTO {table} ({names}) SELECT {marks} "
            f"WHERE EXISTS (SELECT FROM ok)) "
            f"SELECT match_id FROM ok")
        self.fenced_many = (  # (JSON list of matches, JSON {match: token}, JSON rows)
            f"WITH f AS MATERIALIZED (SELECT match_id, token FROM {lease} WHERE match_id "
            f"IN (SELECT json_array_elements_text(%s::json)) FOR SHARE), "
            f"ok AS (SELECT f.match_id FROM f JOIN json_each_text(%s::json) AS w "
            f"ON f.match_id = w.key AND f.token = w.value), "
            f"ins AS (INSERT INTO {table} ({names}) SELECT * FROM ({from_json}) AS r "
            f"WHERE r.match_id IN (SELECT match_id FROM ok)) "
            f"SELECT match_id FROM ok")

    @classmethod
    def for_engine(cls, engine: Engine) -> _PgRows | None:
        if engine.dialect.name != "postgresql" or engine.dialect.driver != "psycopg":
            return None
        return cls(engine)

    def commit(self, conn: Connection, batch: list[_Request], fence: Fence | None
               ) -> tuple[list[_Request], list[_Request]]:
        """Write ``batch``: (the requests written, those the fence refused)."""
        rows: list[dict[str, Any]] = []
        request_match: list[str | None] = []
        other_ops = False
        for ops, _f, _l, _c in batch:
            match: str | None = None
            for op in ops:
                if not isinstance(op, dict):
                    other_ops = True
                    continue
                if match is None:
                    match = op["match_id"]
                elif op["match_id"] != match:  # the fence takes or refuses a request whole
                    raise ValueError("a write request's event rows are of one match")
                rows.append(op)
            request_match.append(match)
        sql, params = self._statement(rows, fence)
        driver: Any = conn.connection.driver_connection
        if other_ops:
            with conn.begin():
                written = self._execute(driver, sql, params)
                keep, lost = self._split(batch, request_match, written, fence)
                _run_ops(conn, keep)
            return keep, lost
        if driver.info.transaction_status != self.idle:
            driver.rollback()  # (nothing of ours: e.g. a pool ping's implicit BEGIN)
        driver.autocommit = True
        try:
            written = self._execute(driver, sql, params)
        finally:
            driver.autocommit = False
        return self._split(batch, request_match, written, fence)

    def _statement(self, rows: list[dict[str, Any]], fence: Fence | None
                   ) -> tuple[str, tuple[Any, ...]]:
        """The statement that writes ``rows`` ("": nothing to run) and its parameters."""
        if not rows:
            return "", ()
        keys = self.keys
        if fence is None:
            if len(rows) == 1:
                return self.one, tuple(rows[0][k] for k in keys)
            return self.many, (json.dumps(rows, default=_iso),)
        tokens = fence({row["match_id"] for row in rows})
        if not tokens:  # none of them is this worker's: nothing to ask
            return "", ()
        if len(rows) == 1:
            row = rows[0]
            return self.fenced_one, (row["match_id"], tokens[row["match_id"]],
                                     *(row[k] for k in keys))
        return self.fenced_many, (json.dumps(list(tokens)), json.dumps(tokens),
                                  json.dumps(rows, default=_iso))

    def _execute(self, driver: Any, sql: str, params: tuple[Any, ...]) -> set[str]:
        """With the fence: the matches whose rows it let by (and the statement wrote)."""
        if not sql:
            return set()
        cur = driver.execute(sql, params)
        if sql is self.fenced_one or sql is self.fenced_many:
            return {str(r[0]) for r in cur.fetchall()}
        return set()

    @staticmethod
    def _split(batch: list[_Request], request_match: list[str | None], written: set[str],
               fence: Fence | None) -> tuple[list[_Request], list[_Request]]:
        if fence is None:
            return batch, []
        keep: list[_Request] = []
        lost: list[_Request] = []
        for request, match in zip(batch, request_match, strict=True):
            (keep if match is None or match in written else lost).append(request)
        return keep, lost


def _iso(value: Any) -> str:
    """JSON for the event rows' times (json_populate_recordset reads ISO 8601)."""
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} in an event row")


class _RowInserter:
    """The actions-table insert as one driver-level ``executemany`` with positional
    parameters: the same SQL and the same bound values as ``conn.execute(insert(actions),
    rows)`` (the column types' own bind processors convert booleans and times), without
    the statement compilation and per-row parameter processing of SQLAlchemy Core,
    which was most of the writer thread's time — and it holds the GIL the event loop
    needs."""

    def __init__(self, sql: str, keys: list[str],
                 processors: list[tuple[int, Callable[[Any], Any]]]) -> None:
        self.sql = sql
        self.get = operator.itemgetter(*keys)
        self.processors = processors

    @classmethod
    def for_engine(cls, engine: Engine) -> _RowInserter | None:
        dialect = engine.dialect
        marks = {"qmark": "?", "format": "%s", "pyformat": "%s"}
        if dialect.paramstyle not in marks:
            return None
        quote = dialect.identifier_preparer.quote
        columns = list(actions.c)
        sql = (f"INSERT INTO {quote(actions.name)} "
               f"({', '.join(quote(c.name) for c in columns)}) "
               f"VALUES ({', '.join([marks[dialect.paramstyle]] * len(columns))})")
        processors: list[tuple[int, Callable[[Any], Any]]] = []
        for i, column in enumerate(columns):
            process = column.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors.append((i, process))
        return cls(sql, [c.key for c in columns], processors)

    def params(self, rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        get, processors = self.get, self.processors
        params: list[tuple[Any, ...]] = []
        for row in rows:
            values = list(get(row))
            for i, process in processors:
                values[i] = process(values[i])
            params.append(tuple(values))
        return params

    def __call__(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        conn.exec_driver_sql(self.sql, self.params(rows))


class _Inline:
    """A SQLite file: a batch of event rows committed on the event loop's own thread,
    on a connection of its own, with the driver alone (the same SQL and values as
    ``_RowInserter``).

    Why not the thread: with SQLite in WAL mode and ``synchronous=NORMAL`` a commit is
    a few writes into the page cache (tens of µs), while handing a batch to the thread
    and back costs two wake-ups — the thread's and the loop's (its self-pipe) — and the
    GIL passed each way, for every batch: at a paced 200 actions/s every action is a
    batch of its own, and that was a third of the server's CPU an action
    (docs/benchmarks/server.md, "Issue 26, session 10").  The commit still comes
    before anything is applied or acknowledged.

    It never waits for SQLite's write lock: the connection's busy timeout is 0, so
    when another connection writes (a match being created, a sweep), SQLite answers
    "busy" at once, nothing is written, and the batch goes to the thread, which waits
    its turn as before."""

    def __init__(self, engine: Engine, insert: _RowInserter) -> None:
        self.engine = engine
        self.insert = insert
        self._fairy: Any = None  # the pool's connection, kept out of the pool
        self._conn: Any = None  # its sqlite3 connection

    @classmethod
    def for_engine(cls, engine: Engine, insert: _RowInserter | None) -> _Inline | None:
        url = engine.url
        if (insert is None or url.get_backend_name() != "sqlite"
                or engine.dialect.driver != "pysqlite"
                or url.database in (None, "", ":memory:")):
            return None
        return cls(engine, insert)

    def _connection(self) -> Any:
        if self._conn is None:
            self._fairy = self.engine.raw_connection()
            conn = self._fairy.driver_connection
            conn.execute("PRAGMA busy_timeout = 0")
            self._conn = conn
        return self._conn

    def commit(self, rows: list[dict[str, Any]]) -> bool:
        """Insert ``rows`` in one transaction; False: nothing written (busy, or failed)."""
        try:
            conn = self._connection()
        except Exception:
            log.debug("no connection for an inline commit", exc_info=True)
            return False
        try:
            if rows:
                conn.executemany(self.insert.sql, self.insert.params(rows))
            conn.commit()
        except Exception:
            try:
                conn.rollback()
            except Exception:  # broken: a new connection next time
                log.debug("inline rollback failed", exc_info=True)
                self.close()
            return False
        return True

    def close(self) -> None:
        fairy, self._fairy, self._conn = self._fairy, None, None
        if fairy is not None:
            try:
                fairy.close()
            except Exception:  # already broken
                log.debug("closing the inline connection failed", exc_info=True)


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
        text = {RuntimeError: "the database refused the write",
                StoreUnavailable: "the database cannot be reached"}.get(
                    kind, "another worker owns this match now")
        fut.set_exception(kind(text))

