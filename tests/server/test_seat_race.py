"""One player, one seat per table under any race (issue 28): the same player sending
two seat takes at one instant gets one seat and one refusal, never two seats."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from tests.server.live import LiveServer, settings_for

from spillebord.server.infra.storage.models import seats

TRIES = 50


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("race") / "race.db"
    server = LiveServer(settings_for(str(db))).start()
    yield server
    server.stop()


async def double_takes(base: str, db_url: str, tries: int) -> list[tuple[int, int]]:
    """For each try: a public table with two free seats, one player taking twice at
    once (a take from the lobby and an invite claim or a second take); the seats the
    player got and the answers' statuses."""
    engine = create_engine(db_url)
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for i in range(tries):
            host = (await http.post("/api/players")).json()["player_id"]
            me = (await http.post("/api/players")).json()["player_id"]
            made = (await http.post("/api/matches", headers={"X-Player": host}, json={
                "game": "gammel_jomfru", "seats": ["me", "human", "human"],
                "public": True})).json()
            h = {"X-Player": me}
            second = (http.post(f"/api/invites/{made['invites'][1]['code']}/claim",
                                headers=h) if i % 2
                      else http.post(f"/api/lobby/{made['match_id']}/take", headers=h))
            answers = await asyncio.gather(
                http.post(f"/api/lobby/{made['match_id']}/take", headers=h), second)
            assert all(r.status_code < 500 for r in answers), [r.text for r in answers]
            with engine.connect() as conn:
                mine = conn.execute(select(func.count()).where(
                    seats.c.match_id == made["match_id"], seats.c.player_id == me)).scalar()
            out.append((int(mine or 0), sum(r.status_code == 200 for r in answers)))
    engine.dispose()
    return out


async def test_fifty_double_takes_give_one_seat_each(live: LiveServer) -> None:
    results = await double_takes(live.http, live.settings.db_url, TRIES)
    assert all(seated == 1 and ok == 1 for seated, ok in results), results
