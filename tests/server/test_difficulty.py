"""The shipped table of rated deals through the real app: the verdict of a numbered
deal's first position is the table's (with a verdict budget far too small to solve the
deal live), a winnable deal can be asked for by difficulty (and bad requests are
refused, changing nothing), and /api/games says which flags the table is rated for."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord.solvers import tables


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("db") / "spillebord.db"
    live = LiveServer(settings_for(str(db), verdict_seconds=0.05)).start()
    yield live
    live.stop()


async def test_first_position_verdict_comes_from_the_table(server: LiveServer) -> None:
    # Deal 20: the 2 s solver leaves it unknown; a long proof run decided it.
    shipped = tables.verdict("posthus", 20, {})
    assert shipped in ("winnable", "unwinnable")
    made = await create(server.http, game="posthus", deal=20)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    await c.send("verdict")
    assert (await c.expect("verdict", timeout=60))["d"]["verdict"] == shipped
    await c.close()


async def test_winnable_deal_by_difficulty(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        info = {g["key"]: g for g in (await http.get("/api/games")).json()}
        assert info["posthus"]["difficulty"] == {"open_gaps": False}
        assert all(g["difficulty"] is None for k, g in info.items() if not g["solitaire"])
        for level in tables.LEVELS:
            pool = set(tables.winnable_deals("posthus", level))
            for _ in range(3):
                r = await http.post("/api/matches", json={
                    "game": "posthus", "deal": "winnable", "difficulty": level})
                assert r.status_code == 201, r.text
                match = (await http.get(f"/api/matches/{r.json()['match_id']}")).json()
                assert match["deal"] in pool
        refused = [
            ({"game": "posthus", "deal": "random", "difficulty": "easy"}, 400, "bad_request"),
            ({"game": "posthus", "deal": 7, "difficulty": "hard"}, 400, "bad_request"),
            ({"game": "posthus", "deal": "winnable", "difficulty": "easy",
              "flags": {"open_gaps": True}}, 400, "no_difficulty"),
            ({"game": "posthus", "deal": "winnable", "difficulty": "brutal"}, 422, None),
        ]
        for body, status, code in refused:
            r = await http.post("/api/matches", json=body)
            assert r.status_code == status, (body, r.text)
            if code is not None:
                assert r.json()["detail"]["code"] == code
