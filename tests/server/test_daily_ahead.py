"""The daily deals are chosen in the background at start (issue 28; docs/server.md,
"Daily deal"), on the real app and SQLite: without anyone asking, a fresh server stores
today's and the next ``AHEAD`` days' deal of every daily game (the solver runs in the
compute pool, off the event loop), so the first ``GET /api/daily/{game}`` answers at
once and every commitment of the week ahead is published.  Before, today's deal was
chosen by the first request (it waited seconds for the solver) and later days only when
someone asked for the commitments."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import date, timedelta

import httpx
import pytest
from sqlalchemy import select
from tests.server.live import LiveServer, settings_for

from spillebord.server.daily.service import AHEAD
from spillebord.server.infra import dayclock
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import daily_deals


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that chooses ahead, as in production (the other tests' servers do not)."""
    db = tmp_path_factory.mktemp("ahead") / "ahead.db"
    live = LiveServer(settings_for(str(db), daily_ahead=True)).start()
    yield live
    live.stop()


def chosen(server: LiveServer) -> set[tuple[str, str]]:
    engine = make_engine(server.settings.db_url)
    with engine.connect() as conn:
        rows = conn.execute(select(daily_deals.c.game, daily_deals.c.day)).all()
    engine.dispose()
    return {(r.game, r.day) for r in rows}


async def test_the_weeks_deals_are_chosen_at_start_so_the_first_request_is_fast(
        server: LiveServer) -> None:
    first = date.fromisoformat(dayclock.today())
    days = [(first + timedelta(days=i)).isoformat() for i in range(AHEAD + 1)]
    keys = server.services.daily.daily_games()
    assert "posthus" in keys
    wanted = {(g, d) for g in keys for d in days}
    deadline = time.monotonic() + 240  # 2 cores shared with other work: generous
    while not wanted <= chosen(server):
        assert time.monotonic() < deadline, sorted(wanted - chosen(server))
        await asyncio.sleep(0.5)
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        for game in keys:
            # Every day of the week was chosen before anyone asked (above), so the first
            # request reads a stored deal: its speed is bench/ work, not a timed test.
            r = await http.get(f"/api/daily/{game}")
            assert r.status_code == 200 and r.json()["commitment"], r.text
            week = (await http.get(f"/api/daily/{game}/commitments")).json()["days"]
            assert [d["day"] for d in week] == days
            assert all(d["commitment"] for d in week), week
