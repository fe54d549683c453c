"""A rolling upgrade N → N+1 across a real migration, with games in play (issue 31).

Two workers of release N behind nginx on PostgreSQL + Redis, schema made by N's
``spillebord db upgrade``; solitaire players and Kugler og Jokere tables (one human,
three bots) connected through nginx and acting throughout.  Release N+1 is this code in
a release directory of its own plus one expand-style migration (tests/scale/release.py:
a column on ``matches``, a new table, an index on ``actions``).  The steps are exactly
docs/deploy.md "Upgrade and roll back": N+1's ``spillebord db upgrade`` while N serves
(N keeps serving on the new schema and stays ready), then each worker restarted as N+1,
waiting for ``/readyz``.  After each step every worker shows every game as the database
has it; at the end nothing acknowledged is lost or doubled, no refusal was ``internal``
and every socket a restart closed was closed with 1012."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect
from tests.scale.drill import Stage, rolling_upgrade
from tests.scale.release import db_upgrade, next_release, release_env
from tests.services import Nginx, Postgres, Redis, Worker, free_port, worker_env

pytestmark = [pytest.mark.services, pytest.mark.slow]


@pytest.mark.timeout(600)
async def test_rolling_upgrade_across_a_migration(
        postgres: Postgres, redis_server: Redis, pg_url: str, nginx_binary: str,
        tmp_path: Path) -> None:
    del nginx_binary  # (skips without nginx)
    db_upgrade(pg_url)  # release N's schema, as a step of its own
    n1 = release_env(next_release(tmp_path))
    env = worker_env(pg_url, redis_server.url, SPILLEBORD_MIGRATE="",
                     SPILLEBORD_LEASE_SECONDS="2")
    workers = [Worker(free_port(), env) for _ in range(2)]
    engine = create_engine(pg_url)
    try:
        for w in workers:
            w.start()
        proxy = Nginx.start([w.port for w in workers])
        stage = Stage(proxy, workers, engine)
        try:
            await stage.seat_players(solitaires=6, tables=2, seed=900)
            await rolling_upgrade(stage, pg_url, n1)
            await stage.more(40)
            await stage.finish()
        finally:
            proxy.stop()
        stage.check_acked()
        columns = {c["name"] for c in inspect(engine).get_columns("matches")}
        assert "n1_label" in columns  # the migration ran
        drops = [code for p in stage.players for code in p.drops]
        refusals = [code for p in stage.players for code in p.refusals]
        print(f"acknowledged {stage.acked()}, drops {len(drops)}, refusals {refusals}, "
              f"games ended {sum(p.done for p in stage.players)}/{len(stage.players)}")
        assert drops and set(drops) == {1012}, drops
        assert "newer than this release" not in workers[0].output()  # N+1 knows it
    finally:
        for w in workers:
            w.stop()
        engine.dispose()
