"""A rolling restart under load (two workers behind nginx, PostgreSQL + Redis): solitaire
players act as fast as answers come, through nginx; worker 0 gets SIGTERM, drains and
exits and is started again, then worker 1.  Every socket a draining worker closes is
closed with 1012 and its client is back (welcome and state through nginx) within 5 s;
0 acknowledged actions lost, none applied twice; the games go on after both restarts."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from dataclasses import dataclass, field

import httpx
import pytest
from sqlalchemy import Engine, create_engine, select
from tests.scale.cluster import cluster, opened, post
from tests.server.live import Client
from tests.services import Nginx, Postgres, Redis, Worker
from websockets.exceptions import ConnectionClosed, InvalidStatus

from spillebord.server.infra.storage.models import actions

pytestmark = pytest.mark.services
GAMES = ["posthus", "studenter"]


@dataclass
class Player:
    match_id: str
    token: str
    acked: dict[int, str] = field(default_factory=dict)  # seq -> action text
    codes: list[int] = field(default_factory=list)       # close codes seen
    back_in: list[float] = field(default_factory=list)   # seconds to be back
    retries: int = 0                                     # reconnects nginx refused
    done: bool = False


async def drive(p: Player, proxy: str, rng: random.Random, stop: asyncio.Event) -> None:
    c: Client = await opened(proxy, p.match_id, p.token)
    try:
        while not stop.is_set():
            st = c.state
            assert st is not None
            if st["outcome"] is not None or not st["legal"]:
                p.done = True
                return
            calm = [a for a in st["legal"] if a != "resign"] or st["legal"]
            v0, action = c.version, rng.choice(calm)
            try:
                await c.send("act", action=action)
                msg = await c.recv(15)
                assert msg["t"] == "state" and msg["v"] == v0 + 1, msg
                assert msg["d"]["events"][-1]["action"] == action
                p.acked[v0 + 1] = action
            except ConnectionClosed as exc:
                lost_at = time.monotonic()
                p.codes.append(exc.rcvd.code if exc.rcvd is not None else 1006)
                c = await reopen(proxy, p)
                p.back_in.append(time.monotonic() - lost_at)
                assert c.version >= max(p.acked, default=0), "an acknowledged action lost"
            await asyncio.sleep(0.005)  # a brisk player, not a flood
    finally:
        await c.close()


async def reopen(proxy: str, p: Player) -> Client:
    """Reconnect as the page does: at once after 1012, then (nginx answered 502 while
    it counted both workers failed for a moment) after 0.4, 0.8, 1.6 … s."""
    delay = 0.0
    while True:
        await asyncio.sleep(delay)
        try:
            return await opened(proxy, p.match_id, p.token)
        except InvalidStatus as exc:
            assert exc.response.status_code in (502, 503), exc
            p.retries += 1
            delay = 0.4 if delay == 0 else delay * 2


async def restart(w: Worker) -> None:
    assert w.proc is not None
    w.proc.send_signal(signal.SIGTERM)
    await asyncio.to_thread(w.proc.wait, 30)
    await asyncio.to_thread(w.start)
    async with httpx.AsyncClient(timeout=10) as http:
        deadline = time.monotonic() + 30
        while (await http.get(f"{w.http}/readyz")).status_code != 200:
            assert time.monotonic() < deadline, "the restarted worker never got ready"
            await asyncio.sleep(0.1)


async def start_players(proxy: Nginx, count: int, first_deal: int, seed: int
                        ) -> tuple[list[Player], asyncio.Event, list[asyncio.Task[None]]]:
    """``count`` solitaire games (posthus and studenter in turn, deals from
    ``first_deal``) made through nginx, each driven by its own player until ``stop``."""
    players = []
    for i in range(count):
        made = await post(proxy.http, "/api/matches",
                          {"game": GAMES[i % 2], "seats": ["me"], "deal": first_deal + i})
        players.append(Player(made["match_id"], made["token"]))
    stop = asyncio.Event()
    rng = random.Random(seed)
    tasks = [asyncio.create_task(drive(p, proxy.ws, random.Random(rng.random()), stop))
             for p in players]
    return players, stop, tasks


def assert_each_acked_once(engine: Engine, players: list[Player]) -> None:
    """The stored events of each game are 1, 2, 3 … with every acknowledged action
    under its number: nothing acknowledged lost, nothing applied twice."""
    with engine.connect() as conn:
        for p in players:
            stored = conn.execute(select(actions.c.seq, actions.c.text)
                                  .where(actions.c.match_id == p.match_id)
                                  .order_by(actions.c.seq)).all()
            seqs = [s for s, _t in stored]
            assert seqs == list(range(1, len(seqs) + 1)), "a gap or a double"
            by_seq = dict(stored)
            lost = {s: t for s, t in p.acked.items() if by_seq.get(s) != t}
            assert not lost, f"{p.match_id} lost acknowledged actions {lost}"


async def test_rolling_restart_under_load(postgres: Postgres, redis_server: Redis,
                                          pg_url: str, nginx_binary: str) -> None:
    del nginx_binary  # (skips without nginx)
    with cluster(postgres, redis_server, pg_url) as w:
        proxy = Nginx.start([w[0].port, w[1].port])
        try:
            players, stop, tasks = await start_players(proxy, 8, first_deal=300, seed=20)

            async def acked() -> int:
                return sum(len(p.acked) for p in players)

            async def more(n: int, timeout: float = 30) -> None:
                target = await acked() + n
                deadline = time.monotonic() + timeout
                while await acked() < target and not all(p.done for p in players):
                    assert time.monotonic() < deadline, "the games stopped moving"
                    for t in tasks:
                        if t.done():
                            t.result()  # a failed player fails the test now
                    await asyncio.sleep(0.02)

            await more(60)
            await restart(w[0])
            await more(60)
            await restart(w[1])
            await more(60)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*tasks), 30)
        finally:
            proxy.stop()

        drops = [code for p in players for code in p.codes]
        assert drops, "no socket was on a restarted worker"
        assert set(drops) == {1012}, drops  # closed by the drain, never cut
        back = [t for p in players for t in p.back_in]
        print(f"drops {len(drops)}, back in max {max(back):.2f} s, "
              f"refused reconnects {sum(p.retries for p in players)}")
        assert max(back) < 5.0
        engine = create_engine(pg_url)
        assert_each_acked_once(engine, players)
        engine.dispose()
