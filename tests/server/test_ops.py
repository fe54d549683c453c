"""/healthz and /readyz on the real app (SQLite): ready when the database answers at the
newest migration; not ready when the schema is behind or the worker drains."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord.server.infra.storage import migrate


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
    assert ready.json() == {"ready": True, "status": "ready", "degraded": [], "checks": {
        "database": True, "migrations": True, "writes": True,
        "not_draining": True, "warm": True}}  # no Redis: one worker


def test_not_ready_while_the_schema_is_behind(live: tuple[LiveServer, Path]) -> None:
    server, db = live
    (head,) = migrate.script_heads()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0004'")
    r = httpx.get(f"{server.http}/readyz")
    assert r.status_code == 503
    assert r.json()["checks"] == {"database": True, "migrations": False, "writes": True,
                                  "not_draining": True, "warm": True}
    assert httpx.get(f"{server.http}/healthz").status_code == 200  # alive all the same
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (head,))
    assert httpx.get(f"{server.http}/readyz").status_code == 200


def test_not_ready_while_draining(live: tuple[LiveServer, Path]) -> None:
    server, _db = live
    server.services.ops.draining = True
    r = httpx.get(f"{server.http}/readyz")
    assert r.status_code == 503 and r.json()["checks"]["not_draining"] is False
    assert httpx.get(f"{server.http}/healthz").status_code == 200


def test_ready_on_a_newer_schema_and_quiet(live: tuple[LiveServer, Path],
                                           caplog: pytest.LogCaptureFixture) -> None:
    """A schema a newer release migrated (a revision these scripts do not know) is
    served (expand/contract: docs/deploy.md "Upgrade and roll back"), and /readyz logs
    nothing (it used to add two migration-tool lines per call)."""
    server, db = live
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        assert httpx.get(f"{server.http}/readyz").status_code == 200
    assert not [r for r in caplog.records if r.name.startswith("alembic")]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    r = httpx.get(f"{server.http}/readyz")
    assert r.status_code == 200 and r.json()["checks"]["migrations"] is True
    assert migrate.schema_state(server.services.engine) == "newer"
    migrate.upgrade(server.services.engine)  # leaves it alone: no "Can't locate revision"
    assert migrate.schema_state(server.services.engine) == "newer"


async def test_a_worker_whose_writes_keep_failing_is_not_ready(
        live: tuple[LiveServer, Path]) -> None:
    """A copy of a game that is behind the database (an event row it does not know):
    every move fails on the taken event number.  After 5 the worker says not ready
    (``writes``) and its metrics say why."""
    server, db = live
    made = await create(server.http, game="posthus", seats=["me"], deal=3)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    with sqlite3.connect(db) as conn:  # someone else wrote event 1
        conn.execute("INSERT INTO actions (match_id, seq, kind, text, seat, by_bot, time) "
                     "VALUES (?, 1, 'act', 'x', 0, 0, '2026-01-01 00:00:00')",
                     (made["match_id"],))
    for _ in range(5):
        assert c.state is not None
        await c.send("act", v=0, action=c.state["legal"][0])
        msg = await c.recv()
        assert msg["t"] == "error" and msg["d"]["code"] == "internal", msg
    r = httpx.get(f"{server.http}/readyz")
    assert r.status_code == 503 and r.json()["checks"]["writes"] is False
    text = httpx.get(f"{server.http}/metrics").text
    assert 'spillebord_write_failures_total{reason="conflict"} 5.0' in text
    assert "spillebord_writes_failing 1.0" in text
    await c.close()
