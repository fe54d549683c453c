"""/healthz and /readyz on the real app (SQLite): ready when the database answers at the
newest migration; not ready when the schema is behind or the worker drains."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.live import LiveServer, settings_for

from spillebord.server.storage import migrate


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[LiveServer, Path]]:
    db = tmp_path / "ops.db"
    server = LiveServer(settings_for(str(db))).start()
    yield server, db
    server.stop()


def test_healthz_and_readyz(live: tuple[LiveServer, Path]) -> None:
    server, _db = live
    alive = httpx.get(f"{server.http}/healthz")
    assert alive.status_code == 200 and alive.json() == {"alive": True}
    assert alive.headers["cache-control"] == "no-store"
    ready = httpx.get(f"{server.http}/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json() == {"ready": True, "checks": {
        "database": True, "migrations": True, "not_draining": True}}  # no Redis: one worker


def test_not_ready_while_the_schema_is_behind(live: tuple[LiveServer, Path]) -> None:
    server, db = live
    (head,) = migrate.script_heads()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0004'")
    r = httpx.get(f"{server.http}/readyz")
    assert r.status_code == 503
    assert r.json()["checks"] == {"database": True, "migrations": False,
                                  "not_draining": True}
    assert httpx.get(f"{server.http}/healthz").status_code == 200  # alive all the same
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (head,))
    assert httpx.get(f"{server.http}/readyz").status_code == 200


def test_not_ready_while_draining(live: tuple[LiveServer, Path]) -> None:
    server, _db = live
    server.hub.ops.draining = True
    r = httpx.get(f"{server.http}/readyz")
    assert r.status_code == 503 and r.json()["checks"]["not_draining"] is False
    assert httpx.get(f"{server.http}/healthz").status_code == 200
