"""``spillebord db upgrade`` against running workers (docs/deploy.md, "Upgrading"): a
migration that meets the workers' table locks is ended by PostgreSQL (a deadlock, or a
``lock_timeout`` an operator set) and, all of it rolled back, is tried again —
UPGRADE_TRIES times in all — instead of failing the release.  Real PostgreSQL: another
connection holds the table a migration needs, as a worker's long write would."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from tests.services import Postgres

from spillebord.server.infra.storage import migrate

pytestmark = pytest.mark.services
HELD = 1.3  # seconds the other connection holds ``matches``


def hold_matches(url: str, taken: threading.Event, seconds: float) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE"))
            taken.set()
            time.sleep(seconds)
    finally:
        engine.dispose()


def at_0017(url: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            cfg = migrate.alembic_config(url)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0017")
    finally:
        engine.dispose()


def upgrade_while_held(url: str, seconds: float) -> None:
    """Upgrade 0017 → head (0018 references ``matches``) while another connection
    holds ``matches`` for ``seconds``; the migration gives up a wait after 300 ms."""
    taken = threading.Event()
    holder = threading.Thread(target=hold_matches, args=(url, taken, seconds))
    holder.start()
    assert taken.wait(30)
    engine = create_engine(url, connect_args={"options": "-c lock_timeout=300"})
    try:
        migrate.upgrade(engine)
    finally:
        engine.dispose()
        holder.join()


def test_a_migration_that_meets_a_held_lock_is_tried_again(
        postgres: Postgres, pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    at_0017(pg_url)
    with caplog.at_level(logging.WARNING, logger=migrate.__name__):
        upgrade_while_held(pg_url, HELD)
    assert "met the running workers' locks" in caplog.text
    engine = create_engine(pg_url)
    try:
        assert migrate.database_heads(engine) == migrate.script_heads()
    finally:
        engine.dispose()


def test_a_lock_held_past_every_try_fails_the_upgrade_and_changes_nothing(
        postgres: Postgres, pg_url: str) -> None:
    at_0017(pg_url)
    with pytest.raises(OperationalError):
        upgrade_while_held(pg_url, 8.0)  # longer than the tries' waits (1 + 2 s + 3 × 0.3)
    engine = create_engine(pg_url)
    try:
        assert migrate.database_heads(engine) == frozenset({"0017"})
        with engine.connect() as conn:
            assert conn.execute(text("SELECT to_regclass('rematches')")).scalar() is None
    finally:
        engine.dispose()
