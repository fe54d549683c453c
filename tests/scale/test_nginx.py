"""nginx from Debian on loopback in front of two workers (the configuration in
docs/deploy.md, rendered by spillebord.server.scale.nginx): pages, API and WebSockets go
through it; a table game is played through it (nginx sends all its sockets to the
worker that owns it) while that worker is SIGKILLed, the sockets reconnect through nginx
to the other worker, which takes the game over when the lease expires, and every
client still holds every event of the match, each under its number (``seq``), with
nothing lost or changed: the record is what the database holds, and each client
(history asked for with ``sync`` from 0 on its first socket, the gap with ``sync`` from
the last version it saw after a reconnect) was told exactly the record's events."""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from tests.scale.cluster import cluster, events_of, get, post, reconnect, resync
from tests.server.live import Client
from tests.services import Nginx, Postgres, Redis, Workers
from websockets.exceptions import ConnectionClosed

from spillebord.server.infra.storage.models import actions, owners
from spillebord.server.scale.nginx import render_nginx_conf

pytestmark = pytest.mark.services
DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


async def resilient(base: str, mid: str, token: str | None, rng: random.Random,
                    deadline: float, drops: list[int]) -> Client:
    """Play the seat (or watch, without a token) to the end, reconnecting on a drop.
    A socket is told only the events after its welcome; ``sync`` from 0 asks for the
    ones before (docs/protocol.md), so every client holds the whole history."""
    c = await Client.open(base, mid, token)
    await c.expect("welcome")
    await resync(c, 0)
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


def owner_index(w: Workers, pg_url: str, mid: str) -> int:
    """Which worker owns the match (its lease row names the worker's bus id, which
    starts with the process id)."""
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        worker = conn.execute(select(owners.c.worker).where(owners.c.match_id == mid)
                              ).scalar_one()
    engine.dispose()
    pids = [str(x.proc.pid) if x.proc else "" for x in w.items]
    return pids.index(str(worker).split("-")[0])


async def test_a_game_through_nginx_survives_a_killed_worker(
        postgres: Postgres, redis_server: Redis, pg_url: str, nginx_binary: str) -> None:
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_LEASE_SECONDS="2") as w:
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
            # nginx hashes the match id: every socket of the game is on its owner.
            w[owner_index(w, pg_url, mid)].kill()
            clients = await asyncio.wait_for(asyncio.gather(*tasks), 100)
            assert len(drops) == len(clients), "a socket was not on the game's owner"
            record = (await get(proxy.http, f"/api/matches/{mid}/record")).json()
            # The record is what the database holds (seq, kind, seat, action) ...
            engine = create_engine(pg_url)
            with engine.connect() as conn:
                stored = [tuple(r) for r in conn.execute(
                    select(actions.c.seq, actions.c.kind, actions.c.seat, actions.c.text)
                    .where(actions.c.match_id == mid).order_by(actions.c.seq))]
            engine.dispose()
            assert [(e["seq"], e["kind"], e["seat"], e["action"])
                    for e in record["events"]] == stored
            # ... and every client was told every event of it, under the same number.
            kept = [{k: v for k, v in e.items() if k != "time"} for e in record["events"]]
            assert [e["seq"] for e in kept] == list(range(1, len(kept) + 1))
            for i, c in enumerate(clients):
                assert events_of(c, after_reconnect=True) == kept, f"client {i}"
        finally:
            proxy.stop()


def test_deploy_doc_shows_the_tested_config() -> None:
    """docs/deploy.md carries the configuration this test runs (not a stale copy)."""
    text = DEPLOY.read_text()
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block is not None, "docs/deploy.md has no nginx block"
    expected = render_nginx_conf(["127.0.0.1:8001", "127.0.0.1:8002"], "127.0.0.1:8000")
    assert block.group(1) == expected
