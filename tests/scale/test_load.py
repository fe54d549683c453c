"""Load proof: 500 WebSocket connections held at once on one worker (PostgreSQL +
Redis mode) on loopback — 50 solitaires, each with its player and 9 spectators; every
player makes 5 actions and every one of the 500 sockets receives every event; every
socket answers a ping; 0 errors.  Bounded in count and time.  Prints the worker's
resident memory per socket (docs/benchmarks/scale.md)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from tests.scale.cluster import cluster, events_of, opened, post
from tests.server.live import Client
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services
MATCHES, WATCHERS, ACTIONS = 50, 9, 5


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def test_500_sockets_on_one_worker(postgres: Postgres, redis_server: Redis,
                                         pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url, n=1) as w:
        worker = w[0]
        assert worker.proc is not None
        made = [await post(worker.http, "/api/matches", {"game": "posthus", "deal": i})
                for i in range(MATCHES)]
        # Warm the worker (first sockets, first renders) before measuring.
        warm = await opened(worker.ws, made[0]["match_id"])
        await warm.close()
        await asyncio.sleep(0.5)
        base = rss_kib(worker.proc.pid)
        t0 = time.monotonic()
        players: list[Client] = []
        watchers: list[list[Client]] = []
        sem = asyncio.Semaphore(50)

        async def connect(mid: str, token: str | None = None) -> Client:
            async with sem:
                return await opened(worker.ws, mid, token)

        players = list(await asyncio.gather(*(connect(m["match_id"], m["token"])
                                              for m in made)))
        flat = await asyncio.gather(*(connect(m["match_id"]) for m in made
                                      for _ in range(WATCHERS)))
        watchers = [list(flat[i * WATCHERS:(i + 1) * WATCHERS]) for i in range(MATCHES)]
        every = players + list(flat)
        assert len(every) == MATCHES * (1 + WATCHERS) == 500
        opened_in = time.monotonic() - t0
        await asyncio.sleep(0.5)
        held = rss_kib(worker.proc.pid)

        async def play(c: Client) -> None:
            for _ in range(ACTIONS):
                assert c.state is not None
                legal = [a for a in c.state["legal"] if a != "resign"]
                v0 = c.version
                await c.send("act", action=legal[0])
                msg = await c.recv(30)
                assert msg["t"] == "state" and msg["v"] == v0 + 1, msg

        await asyncio.wait_for(asyncio.gather(*(play(p) for p in players)), 120)
        for group in watchers:
            await asyncio.wait_for(asyncio.gather(*(
                c.until(lambda s, c=c: c.version == ACTIONS, timeout=30) for c in group)), 60)
        for c in every:
            await c.send("ping", n=1)
        pongs = await asyncio.wait_for(asyncio.gather(*(c.expect("pong", 30) for c in every)),
                                       60)
        assert len(pongs) == 500
        errors = [m for c in every for m in c.seen if m["t"] == "error"]
        assert errors == []
        for c in every:
            assert [e["seq"] for e in events_of(c)] == list(range(1, ACTIONS + 1))
        total = time.monotonic() - t0
        per_socket = (held - base) / 500
        print(f"\n500 sockets: opened in {opened_in:.1f} s, all done in {total:.1f} s; "
              f"worker RSS {base / 1024:.1f} → {held / 1024:.1f} MiB, "
              f"{per_socket:.1f} KiB per socket")
        assert per_socket < 1024, "more than 1 MiB per idle socket"
        await asyncio.gather(*(c.close() for c in every))
