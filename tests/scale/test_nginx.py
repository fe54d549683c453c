"""nginx from Debian on loopback in front of two workers (the configuration in
docs/deploy.md, rendered by spillebord.server.scale.nginx): pages, API and WebSockets go
through it; a table game is played through it while one worker is SIGKILLed, the
sockets it carried reconnect through nginx to the other worker, and every client still
sees every event exactly once and in order."""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import pytest
from tests.scale.cluster import cluster, events_of, get, post, reconnect
from tests.server.live import Client
from tests.services import Nginx, Postgres, Redis
from websockets.exceptions import ConnectionClosed

from spillebord.server.scale.nginx import render_nginx_conf

pytestmark = pytest.mark.services
DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


async def resilient(base: str, mid: str, token: str | None, rng: random.Random,
                    deadline: float, drops: list[int]) -> Client:
    """Play the seat (or watch, without a token) to the end, reconnecting on a drop."""
    c = await Client.open(base, mid, token)
    await c.expect("welcome")
    while True:
        try:
            st = await c.until(lambda s: s["outcome"] is not None
                               or (token is not None and bool(s["legal"])),
                               timeout=max(1.0, deadline - time.monotonic()))
            if st["outcome"] is not None:
                return c
            v0 = c.version
            await c.send("act", action=rng.choice([a for a in st["legal"] if a != "resign"]
                                                  or st["legal"]))
            await c.until(lambda s, v0=v0, c=c: c.version > v0, timeout=30)
        except (ConnectionClosed, OSError):
            drops.append(1)
            assert len(drops) <= 8
            c = await reconnect(base, c, mid, token)


async def test_a_game_through_nginx_survives_a_killed_worker(
        postgres: Postgres, redis_server: Redis, pg_url: str, nginx_binary: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        proxy = Nginx.start([w[0].port, w[1].port])
        try:
            page = await get(proxy.http, "/")
            assert page.status_code == 200 and "<html" in page.text
            made = await post(proxy.http, "/api/matches",
                              {"game": "gammel_jomfru", "seats": ["me", "human", "human"]})
            mid = made["match_id"]
            tokens = [made["token"]] + [
                (await post(proxy.http, f"/api/invites/{i['code']}/claim"))["token"]
                for i in made["invites"]]
            drops: list[int] = []
            deadline = time.monotonic() + 90
            tasks = [asyncio.create_task(resilient(proxy.ws, mid, t, random.Random(i),
                                                   deadline, drops))
                     for i, t in enumerate([*tokens, None, None])]
            # Kill one worker once the game is under way.
            t0 = time.monotonic()
            while time.monotonic() - t0 < 30:
                info = (await get(proxy.http, f"/api/matches/{mid}")).json()
                if info["version"] >= 4:
                    break
                await asyncio.sleep(0.05)
            w[0].kill()
            clients = await asyncio.wait_for(asyncio.gather(*tasks), 100)
            assert 1 <= len(drops) < len(clients), "sockets were not spread over workers"
            record = (await get(proxy.http, f"/api/matches/{mid}/record")).json()
            texts = [e["action"] for e in record["events"]]
            for c in clients:
                told = events_of(c, after_reconnect=True)
                assert [e["action"] for e in told] == texts
                assert [e["seq"] for e in told] == list(range(1, len(texts) + 1))
        finally:
            proxy.stop()


def test_deploy_doc_shows_the_tested_config() -> None:
    """docs/deploy.md carries the configuration this test runs (not a stale copy)."""
    text = DEPLOY.read_text()
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block is not None, "docs/deploy.md has no nginx block"
    expected = render_nginx_conf(["127.0.0.1:8001", "127.0.0.1:8002"], "127.0.0.1:8000")
    assert block.group(1) == expected
