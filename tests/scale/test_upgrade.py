"""Issue 31, finding 2: upgrades as a step of their own, and old code on a newer schema.

- In shared mode a worker does not migrate (``SPILLEBORD_MIGRATE`` unset): on a schema
  older than its release it does not start, and says to run ``spillebord db upgrade``;
  after that command it starts and serves.
- A worker of the older release on a schema a newer release migrated (a revision its
  scripts do not know, and a column it does not know — expand/contract) keeps serving:
  it starts (it used to crash on ``Can't locate revision``, a crash loop under
  ``Restart=always``), ``/readyz`` is 200 and its games play on — also with
  ``SPILLEBORD_MIGRATE=1``."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest
from tests.scale.cluster import opened, post
from tests.services import Postgres, Redis, Worker, free_port, worker_env

pytestmark = pytest.mark.services


def upgrade(url: str) -> str:
    done = subprocess.run([sys.executable, "-m", "spillebord.cli.main", "db", "upgrade",
                           "--db", url], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_upgrade_is_a_step_and_old_code_serves_a_newer_schema(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    env = worker_env(pg_url, redis_server.url, SPILLEBORD_MIGRATE="")
    w = Worker(free_port(), env)
    with pytest.raises(RuntimeError, match="exited"):  # ends when it exits: no tight deadline
        w.start()
    assert "spillebord db upgrade" in w.output()
    assert "(current)" in upgrade(pg_url)
    w = Worker(free_port(), env).start()
    try:
        made = await post(w.http, "/api/matches",
                          {"game": "posthus", "seats": ["me"], "deal": 12})
        c = await opened(w.ws, made["match_id"], made["token"])
        assert c.state is not None
        await c.send("act", v=0, action=c.state["legal"][0])
        await c.until(lambda s: c.version >= 1)
        await c.close()
    finally:
        w.stop()

    # a newer release expanded the schema: a column this code does not know, and its
    # revision in alembic_version
    postgres.psql(pg_url.rsplit("/", 1)[1],
                  "ALTER TABLE matches ADD COLUMN from_a_newer_release text; "
                  "UPDATE alembic_version SET version_num = '0099_newer'")
    for migrate in ("", "1"):
        w = Worker(free_port(), {**env, "SPILLEBORD_MIGRATE": migrate}).start()
        try:
            async with httpx.AsyncClient(timeout=10) as http:
                r = await http.get(f"{w.http}/readyz")
            assert r.status_code == 200, r.text
            c = await opened(w.ws, made["match_id"], made["token"])
            assert c.state is not None
            v = c.version
            await c.send("act", v=v, action=c.state["legal"][0])
            await c.until(lambda s, c=c, v=v: c.version > v)
            await c.close()
            assert "newer than this release" in w.output()
        finally:
            w.stop()
