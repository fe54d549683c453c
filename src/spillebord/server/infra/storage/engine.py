"""Engine creation: any SQLAlchemy URL; SQLite files get WAL and a busy timeout so the
writer thread and readers do not trip over each other.

SQLite's automatic WAL checkpoint runs inside whichever commit crosses the threshold and
fsyncs the database file there, which stalls that commit (and every game waiting on the
same group commit) for as long as the disk takes.  So file databases switch it off and
``Checkpointer`` runs passive checkpoints from its own thread and connection instead.
"""

from __future__ import annotations

import fcntl
import logging
import threading
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from spillebord.server.infra.storage.health import quiet_pool_resets

log = logging.getLogger(__name__)


def make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        engine = create_engine(url, pool_pre_ping=True)
        quiet_pool_resets(type(engine.pool))  # an outage: one line, not one per connection
        return engine
    memory = url in ("sqlite://", "sqlite:///:memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a process crash (power loss may lose the
        # last transactions); FULL would fsync every commit.
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        if not memory:
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    return engine


class Checkpointer:
    """Passive WAL checkpoints every ``interval`` seconds, off the commit path (SQLite
    files only; other databases need nothing)."""

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self.engine = engine
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        url = engine.url
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._thread = threading.Thread(target=self._run, name="spillebord-checkpoint",
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy database: try again next time
                log.debug("checkpoint skipped", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            with self.engine.connect() as conn:  # leave a small WAL behind
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


class SqliteOwner:
    """One server process per SQLite file: an exclusive ``flock`` on ``<file>.lock``,
    held while the app runs.  Two workers on one file would each reload and drive the
    same games; several workers need PostgreSQL and Redis (issue 9)."""

    def __init__(self, engine: Engine) -> None:
        self._file: Any = None
        url = engine.url
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
            return
        path = f"{url.database}.lock"
        handle = open(path, "a+")  # noqa: SIM115 - held for the app's lifetime
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise RuntimeError(
                f"another Spillebord server is using {url.database}; one worker per "
                f"SQLite file (several workers need PostgreSQL and Redis)") from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None
