"""Ratings on PostgreSQL (issue 15): a finished match is rated exactly once when many
raters race for it, and a game whose end was committed just before its worker died is
rated by the workers that are left — once."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

import httpx
import pytest
from sqlalchemy import func, insert, select
from tests.scale.cluster import cluster
from tests.services import Postgres, Redis

from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import (
    accounts,
    matches,
    players,
    rated_matches,
    rating_history,
    ratings,
    seats,
)
from spillebord.server.infra.storage.repo import now
from spillebord.server.ratings import service as rating_sweep
from spillebord.server.ratings.service import Ratings
from spillebord.server.ratings.storage import RatingsRepo

pytestmark = pytest.mark.services


def finished_match(url: str, match_id: str, names: list[str],
                   when: datetime | None = None) -> list[str]:
    """A finished two-seat Gammel Jomfru match between accounts, as a worker leaves it
    when it dies right after committing the last move (``when``: its end, else now)."""
    engine = make_engine(url)
    migrate.upgrade(engine)
    when = when or now()
    pids = [f"p-{match_id}-{i}" for i in range(len(names))]
    with engine.begin() as conn:
        for pid, name in zip(pids, names, strict=True):
            conn.execute(insert(players).values(id=pid, created=when, name=name,
                                                name_key=name.casefold()))
            conn.execute(insert(accounts).values(player_id=pid, password_hash="x",
                                                 created=when, password_changed=when))
        conn.execute(insert(matches).values(
            id=match_id, game="gammel_jomfru", flags={}, seats=2, deal=7, status="finished",
            outcome={"winners": [1], "ranking": [[1], [0]], "reason": "out", "bonus": 0,
                     "losers": [0]},
            takeover_seconds=None, creator=pids[0], created=when, finished=when))
        conn.execute(insert(seats), [{"match_id": match_id, "seat": i, "kind": "human",
                                      "bot": None, "level": None, "token_hash": "t" * 64,
                                      "player_id": pid} for i, pid in enumerate(pids)])
    engine.dispose()
    return pids


def test_many_raters_rate_once(pg_url: str) -> None:
    finished_match(pg_url, "race1", ["Ræs En", "Ræs To"])
    engine = make_engine(pg_url)
    repo = RatingsRepo(engine)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _i: repo.rate_match("race1", now(), Ratings.compute),
                                range(16)))
    assert results.count(True) == 1
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(rating_history)).scalar() == 2
        games = conn.execute(select(ratings.c.games)).scalars().all()
        assert sorted(games) == [1, 1]
        assert conn.execute(select(rated_matches.c.rated)).scalar_one() is True
        mus = dict(conn.execute(select(ratings.c.player_id, ratings.c.mu)).all())
    assert mus["p-race1-1"] > 25 > mus["p-race1-0"]  # seat 1 won
    engine.dispose()


async def test_the_sweep_looks_at_recent_matches_and_at_all_now_and_then(
        pg_url: str) -> None:
    """The rater's first look sees every finished match; later looks only those finished
    since the previous look (an index range: their cost does not grow with every match
    ever played); every FULL_EVERY seconds it looks at all of them again, so a match
    whose end was written long after its ``finished`` time is still rated — once."""
    long_ago = now() - timedelta(hours=2)
    finished_match(pg_url, "old1", ["Gammel En", "Gammel To"], long_ago)
    engine = make_engine(pg_url)
    rater = Ratings(RatingsRepo(engine))
    assert await rater.sweep_once() == 1  # the first look: every finished match
    assert rater.since is not None and rater.since > long_ago
    finished_match(pg_url, "old2", ["Sen En", "Sen To"], long_ago)  # written late
    finished_match(pg_url, "new1", ["Ny En", "Ny To"])
    assert await rater.sweep_once() == 1  # only the recent one
    assert RatingsRepo(engine).pending() == ["old2"]
    rater._full_at -= rating_sweep.FULL_EVERY  # the backstop is due
    assert await rater.sweep_once() == 1
    assert RatingsRepo(engine).pending() == []
    assert await rater.sweep_once() == 0
    with engine.connect() as conn:
        marked = conn.execute(select(rated_matches.c.match_id)).scalars().all()
    assert sorted(marked) == ["new1", "old1", "old2"]
    engine.dispose()


async def test_end_committed_then_worker_died(postgres: Postgres, redis_server: Redis,
                                              pg_url: str) -> None:
    pids = finished_match(pg_url, "died1", ["Død En", "Død To"])
    with cluster(postgres, redis_server, pg_url) as w:  # two workers race to rate it
        async with httpx.AsyncClient(timeout=30) as http:
            deadline = time.monotonic() + 20
            while True:
                got = (await http.get(f"{w[1].http}/api/players/{pids[1]}/ratings")).json()
                if got["history"]:
                    break
                assert time.monotonic() < deadline
                await asyncio.sleep(0.3)
            await asyncio.sleep(2.5)  # every worker has swept again meanwhile
            for pid in pids:
                got = (await http.get(f"{w[0].http}/api/players/{pid}/ratings")).json()
                assert len(got["history"]) == 1 and got["ratings"][0]["games"] == 1
            assert got["history"][0]["match_id"] == "died1"
