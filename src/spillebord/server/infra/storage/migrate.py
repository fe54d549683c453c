"""Run the Alembic migrations programmatically (at server start) on any SQLAlchemy URL.

The scripts ship inside the package (``spillebord/server/migrations``); no alembic.ini
is needed.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (idempotent).  A database a newer
    release already migrated is left as it is (this code runs on it: expand/contract)."""
    if schema_state(engine) == "newer":
        log.warning("the database schema is newer than this release's migrations "
                    "(%s); serving on it without migrating",
                    ", ".join(sorted(database_heads(engine))))
        return
    cfg = alembic_config(engine.url.render_as_string(hide_password=False))
    for attempt in range(1, UPGRADE_TRIES + 1):
        try:
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
            return
        except OperationalError as exc:
            if attempt == UPGRADE_TRIES or not _lock_conflict(exc):
                raise
            # PostgreSQL ended the migration's transaction (all of it: DDL is
            # transactional there) to break a deadlock with the running workers' writes
            # — an ALTER TABLE and a CREATE INDEX meeting a move's insert; try again.
            log.warning("the migration met the running workers' locks (%s); trying "
                        "again in %d s (%d of %d)", type(exc.orig).__name__, attempt,
                        attempt + 1, UPGRADE_TRIES)
            time.sleep(attempt)


UPGRADE_TRIES = 3  # a migration that met a deadlock (upgrade) is tried this often


def _lock_conflict(exc: OperationalError) -> bool:
    """PostgreSQL's "deadlock detected" (40P01) or "lock not available" (55P03)."""
    return getattr(exc.orig, "sqlstate", None) in ("40P01", "55P03")


@functools.cache
def script_heads() -> frozenset[str]:
    """The newest revision(s) the shipped scripts define."""
    return frozenset(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


@functools.cache
def known_revisions() -> frozenset[str]:
    """Every revision the shipped scripts define."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return frozenset(r.revision for r in script.walk_revisions())


def database_heads(engine: Engine) -> frozenset[str]:
    """The revision(s) the database is at, read straight from ``alembic_version`` (no
    migration context: that logged two lines on every ``/readyz``); empty for a fresh
    database.  Raises when the database cannot be reached."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return frozenset()
        return frozenset(str(v) for v in conn.execute(
            text("SELECT version_num FROM alembic_version")).scalars())


def schema_state(engine: Engine) -> str:
    """``current`` (at the scripts' newest revision), ``newer`` (a revision these
    scripts do not know: a newer release migrated it — this code keeps serving, as the
    migrations are expand/contract: docs/deploy.md "Upgrade and roll back") or
    ``behind`` (needs ``spillebord db upgrade``)."""
    heads = database_heads(engine)
    if heads == script_heads():
        return "current"
    if heads and not heads <= known_revisions():
        return "newer"
    return "behind"


def is_current(engine: Engine) -> bool:
    """Whether the database answers and this code can serve its schema (current or
    newer; raises when the database cannot be reached)."""
    return schema_state(engine) != "behind"


class SchemaBehind(RuntimeError):
    """The database's schema is older than this release and this worker may not migrate."""


def at_start(engine: Engine, shared: bool, setting: bool | None,
             migrate_once: Callable[[Engine], None]) -> None:
    """A worker's start: run the migrations (``setting``; by default only with one
    worker — in shared mode ``spillebord db upgrade`` runs them as a step of its own, so
    a new worker never changes the schema under old ones), else check that this code
    can serve the schema (current, or newer: expand/contract) and refuse to start on
    an older one, saying what to run."""
    if setting if setting is not None else not shared:
        (migrate_once if shared else upgrade)(engine)
        return
    state = schema_state(engine)
    if state == "behind":
        raise SchemaBehind("the database schema is older than this release: run "
                           "`spillebord db upgrade` first (docs/deploy.md)")
    if state == "newer":
        log.warning("the database schema is newer than this release (%s); serving on it",
                    ", ".join(sorted(database_heads(engine))))
