"""How the group writer's writes are going (issue 31): counted by reason, logged once
per outage, and a worker whose writes keep failing says so (``/readyz``, /metrics).

Reasons:

- ``unavailable``: the database cannot be reached (connection refused or lost, a
  timeout) — an outage: players get ``unavailable`` refusals with a retry hint, and the
  database check of ``/readyz`` fails by itself;
- ``conflict``: the database refused the rows (an integrity error: an event number
  already taken) — this worker's copy of a game is wrong; it should never happen, and a
  worker where it keeps happening turns not-ready so the balancer sends players
  elsewhere;
- ``other``: anything else (also not-ready when it keeps happening).

Logging: one warning when writes start failing (the reason and the error's class, no
traceback and no values: a row may hold a player's text) and one when they succeed again
after ``QUIET`` seconds without a failure — not a traceback per write.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque

log = logging.getLogger("spillebord.server.infra.storage.writer")

REASONS = ("unavailable", "conflict", "other")
WINDOW = 60.0  # seconds of failures that count towards "keeps failing"
LIMIT = 5  # conflicts or other failures within WINDOW: not ready
QUIET = 10.0  # seconds without a failure after which a success ends the outage


class StoreUnavailable(RuntimeError):
    """The database could not be reached: nothing was written; try again."""


def reason_of(exc: BaseException) -> str:
    from sqlalchemy import exc as sa

    if isinstance(exc, StoreUnavailable | OSError | TimeoutError):
        return "unavailable"
    if isinstance(exc, sa.IntegrityError):
        return "conflict"
    if isinstance(exc, sa.OperationalError | sa.InterfaceError) or (
            isinstance(exc, sa.DBAPIError) and exc.connection_invalidated):
        return "unavailable"
    try:
        import psycopg
    except ImportError:  # pragma: no cover - SQLite-only install
        return "other"
    if isinstance(exc, psycopg.IntegrityError):
        return "conflict"
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return "unavailable"
    return "other"


class WriteHealth:
    """Called on the writer's thread; read on the event loop (hence the lock)."""

    def __init__(self) -> None:
        self.failures = dict.fromkeys(REASONS, 0)
        self._recent: deque[float] = deque()  # times of conflict / other failures
        self._lock = threading.Lock()
        self._since: float | None = None  # failing since (monotonic), None: all well
        self._last = 0.0  # the last failure
        self._during = 0  # failures in the current outage

    def failed(self, exc: BaseException) -> str:
        reason = reason_of(exc)
        now = time.monotonic()
        with self._lock:
            self.failures[reason] += 1
            if reason != "unavailable":
                self._recent.append(now)
            first = self._since is None
            if first:
                self._since = now
            self._last = now
            self._during += 1
        if first:
            log.warning("database writes failing (%s: %s); players are told to try "
                        "again; logged once until writes succeed again", reason,
                        type(exc).__name__)
        return reason

    def succeeded(self) -> None:
        if self._since is None:
            return
        now = time.monotonic()
        with self._lock:
            if self._since is None or now - self._last < QUIET:
                return
            seconds, failed = now - self._since, self._during
            self._since, self._during = None, 0
        log.warning("database writes succeed again after %.1f s (%d failed)", seconds,
                    failed)

    def keeps_failing(self) -> bool:
        """``LIMIT`` or more conflicts or other failures within ``WINDOW`` seconds
        (an outage is not counted here: ``/readyz``'s database check says it)."""
        cutoff = time.monotonic() - WINDOW
        with self._lock:
            while self._recent and self._recent[0] < cutoff:
                self._recent.popleft()
            return len(self._recent) >= LIMIT


class Outage:
    """Reads that fail because the database cannot be reached: one warning per outage
    (a new one after ``QUIET`` seconds without such a failure), not a traceback per
    request; the request is refused with ``unavailable`` (counted by
    ``spillebord_refusals``)."""

    def __init__(self) -> None:
        self._last: float | None = None
        self.count = 0

    def note(self, exc: BaseException, where: str) -> bool:
        """Whether ``exc`` is the database being unreachable (then it is noted)."""
        if reason_of(exc) != "unavailable":
            return False
        now = time.monotonic()
        first = self._last is None or now - self._last > QUIET
        self._last = now
        self.count += 1
        if first:
            log.warning("the database cannot be reached (%s, in %s); requests are "
                        "refused with 'unavailable' until it answers", type(exc).__name__,
                        where)
        return True


READS = Outage()  # one per process: every request's reads


class QuietPoolResets(logging.Filter):
    """SQLAlchemy's pool logs a traceback ("Exception during reset or similar") for
    every pooled connection it could not roll back when the database went away; during
    an outage those go to ``READS`` (one line per outage) instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return exc is None or not READS.note(exc, "returning a pooled connection")


def quiet_pool_resets(pool_class: type) -> None:
    """On the logger of the engine's pool class (a filter acts only on the logger a
    record is made on, not on its parents)."""
    pool = logging.getLogger(f"{pool_class.__module__}.{pool_class.__name__}")
    if not any(isinstance(f, QuietPoolResets) for f in pool.filters):
        pool.addFilter(QuietPoolResets())
