"""Issue 31, finding 5: the restore drill of docs/deploy.md, on SQLite and on PostgreSQL.

``spillebord db upgrade`` makes the schema, a real server plays a game, ``spillebord db
backup`` writes the backup while the server runs, more moves are made, then the server
is stopped and ``spillebord db restore --yes`` brings the database back: the game is
served again exactly as it was at the backup (its events, its version), and it plays
on.  A restore without ``--yes``, of a missing file or of a file that is no backup,
changes nothing and says why in one line (exit status 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord.server.infra.storage.models import actions

SPILLEBORD = [sys.executable, "-m", "spillebord.cli.main"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SPILLEBORD, *args], capture_output=True, text=True,
                          timeout=120, check=False)


def stored(url: str, match_id: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(
                select(actions.c.seq, actions.c.kind, actions.c.text)
                .where(actions.c.match_id == match_id).order_by(actions.c.seq))]
    finally:
        engine.dispose()


async def moves(server: LiveServer, match_id: str, token: str, n: int) -> int:
    c = await Client.open(server.ws, match_id, token)
    await c.expect("welcome")
    await c.expect("state")
    for _ in range(n):
        assert c.state is not None
        v = c.version
        await c.send("act", v=v, action=c.state["legal"][0])
        await c.until(lambda s, v=v: c.version > v)
    await c.close()
    return c.version


def serving(url: str, tmp: Path) -> LiveServer:
    return LiveServer(settings_for(str(tmp / "unused.db"), db_url=url)).start()


async def drill(url: str, tmp: Path) -> None:
    up = cli("db", "upgrade", "--db", url)
    assert up.returncode == 0, up.stderr
    assert "(current)" in up.stdout
    server = serving(url, tmp)
    try:
        made = await create(server.http, game="posthus", seats=["me"], deal=11)
        mid, token = made["match_id"], made["token"]
        at_backup = await moves(server, mid, token, 4)
        out = cli("db", "backup", str(tmp / "spillebord.backup"), "--db", url)
        assert out.returncode == 0, out.stderr
        snapshot = stored(url, mid)
        assert len(snapshot) == at_backup == 4
        assert await moves(server, mid, token, 3) == 7  # after the backup: lost by design
    finally:
        server.stop()

    refused = cli("db", "restore", str(tmp / "spillebord.backup"), "--db", url)
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert len(stored(url, mid)) == 7  # nothing changed
    missing = cli("db", "restore", str(tmp / "nothing"), "--db", url, "--yes")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1, missing.stderr
    (tmp / "junk").write_bytes(b"not a backup at all\n" * 10)
    junk = cli("db", "restore", str(tmp / "junk"), "--db", url, "--yes")
    assert junk.returncode == 2 and "Traceback" not in junk.stderr, junk.stderr
    assert len(stored(url, mid)) == 7

    back = cli("db", "restore", str(tmp / "spillebord.backup"), "--db", url, "--yes")
    assert back.returncode == 0, back.stderr
    assert stored(url, mid) == snapshot
    server = serving(url, tmp)
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            info = (await http.get(f"{server.http}/api/matches/{mid}")).json()
        assert info["version"] == 4 and info["status"] == "running"
        assert await moves(server, mid, token, 1) == 5  # and it plays on
    finally:
        server.stop()


async def test_restore_drill_sqlite(tmp_path: Path) -> None:
    await drill(f"sqlite:///{tmp_path / 'games.db'}", tmp_path)


@pytest.mark.services
async def test_restore_drill_postgresql(pg_url: str, tmp_path: Path) -> None:
    await drill(pg_url, tmp_path)
