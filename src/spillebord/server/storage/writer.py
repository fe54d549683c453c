"""Group commit: one writer thread commits the events of many games together.

``await writer.write(ops)`` returns once ``ops`` (functions of a Connection) are
committed, so a session acknowledges an action only after it is durable.  Requests that
arrive while a commit runs share the next transaction, which keeps the commit rate, not
the action rate, the limit of a SQLite file.  A batch that fails is retried request by
request so one bad request cannot fail the others.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection, Engine

from spillebord.server.storage.models import actions

log = logging.getLogger(__name__)

# An op is either a row for the actions table (a dict, inserted with one executemany
# per batch) or a function of the connection for anything else.
Op = dict[str, Any] | Callable[[Connection], None]
_Request = tuple[Sequence[Op], asyncio.Future[None], asyncio.AbstractEventLoop]
MAX_BATCH = 512


class GroupWriter:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._conn: Connection | None = None
        self._thread = threading.Thread(target=self._run, name="spillebord-writer",
                                        daemon=True)
        self._thread.start()
        self.batches = 0
        self.requests = 0

    async def write(self, ops: Sequence[Op]) -> None:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put((ops, fut, loop))
        await fut

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._drop_connection()
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
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
        try:
            conn = self._connection()
            with conn.begin():
                rows = [op for ops, _f, _l in batch for op in ops if isinstance(op, dict)]
                if rows:
                    conn.execute(insert(actions), rows)
                for ops, _fut, _loop in batch:
                    for op in ops:
                        if not isinstance(op, dict):
                            op(conn)
        except Exception:
            self._drop_connection()
            if len(batch) > 1:
                for request in batch:
                    self._commit([request])
                return
            log.exception("database write failed")
            _, fut, loop = batch[0]
            loop.call_soon_threadsafe(_fail, fut)
            return
        # One wake-up per event loop for the whole batch, not one per request.
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        for _ops, fut, loop in batch:
            by_loop.setdefault(loop, []).append(fut)
        for loop, futures in by_loop.items():
            loop.call_soon_threadsafe(_done_all, futures)

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # already broken
                log.debug("closing the writer connection failed", exc_info=True)
            self._conn = None


def _done_all(futures: list[asyncio.Future[None]]) -> None:
    for fut in futures:
        _done(fut)


def _done(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


def _fail(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_exception(RuntimeError("the database refused the write"))

