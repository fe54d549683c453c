"""Table chat across two worker processes (PostgreSQL + Redis), issue 15: a line said
on one worker reaches the sockets of the match on the other worker, once each, in
order."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.scale.cluster import cluster, opened, post
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services


async def test_chat_crosses_workers(postgres: Postgres, redis_server: Redis,
                                    pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches",
                          {"game": "gammel_jomfru", "seats": ["me", "human"]})
        claimed = await post(w[1].http, f"/api/invites/{made['invites'][0]['code']}/claim")
        a = await opened(w[0].ws, made["match_id"], made["token"])
        b = await opened(w[1].ws, made["match_id"], claimed["token"])
        watcher = await opened(w[1].ws, made["match_id"])
        for i in range(3):
            await a.send("chat", text=f"hej {i}")
            await b.send("chat", text=f"svar {i}")

        async def lines(c: Any) -> list[str]:
            got: list[str] = []
            while len(got) < 6:
                msg = await c.recv(10)
                if msg["t"] == "chat":
                    got.append(msg["d"]["text"])
            return got

        heard = await asyncio.gather(lines(a), lines(b), lines(watcher))
        for got in heard:
            assert sorted(got) == sorted([f"hej {i}" for i in range(3)]
                                         + [f"svar {i}" for i in range(3)])
            assert [x for x in got if x.startswith("hej")] == ["hej 0", "hej 1", "hej 2"]
        await asyncio.sleep(0.5)  # nothing is told twice
        for c in (a, b, watcher):
            while True:
                try:
                    msg = await c.recv(0.3)
                except TimeoutError:
                    break
                assert msg["t"] != "chat", msg
            await c.close()


async def test_a_line_reaches_the_other_worker_at_once(postgres: Postgres,
                                                       redis_server: Redis,
                                                       pg_url: str) -> None:
    """The other worker reads a match's chat when the writer's notice comes over Redis,
    not on its slow safety poll (chat.SAFETY_POLL, 2 s): every line is there well
    within a second."""
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches",
                          {"game": "gammel_jomfru", "seats": ["me", "human"]})
        a = await opened(w[0].ws, made["match_id"], made["token"])
        watcher = await opened(w[1].ws, made["match_id"])
        loop = asyncio.get_running_loop()
        waits = []
        for i in range(5):
            await asyncio.sleep(0.4)
            start = loop.time()
            await a.send("chat", text=f"nu {i}")
            while True:
                msg = await watcher.recv(5)
                if msg["t"] == "chat":
                    break
            waits.append(loop.time() - start)
            assert msg["d"]["text"] == f"nu {i}"
        assert max(waits) < 1.0, waits
        for c in (a, watcher):
            await c.close()
