"""Two worker processes on PostgreSQL + Redis: a table game created on one worker,
its seats played from sockets on different workers (and watched from both), reaches
every socket event by event in order; invites claimed on one worker open the seat on
the other; any worker serves any room."""

from __future__ import annotations

import random
import time

import pytest
from tests.scale.cluster import cluster, events_of, get, opened, play_turns, post, wait_all
from tests.services import Postgres, Redis

from spillebord import games

pytestmark = pytest.mark.services


async def test_two_clients_on_two_workers_see_every_event_in_order(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches",
                          {"game": "gammel_jomfru", "seats": ["me", "human", "human"]})
        mid = made["match_id"]
        tokens = [made["token"]]
        for i, invite in enumerate(made["invites"]):  # claimed on the other worker
            claimed = await post(w[(i + 1) % 2].http, f"/api/invites/{invite['code']}/claim")
            tokens.append(claimed["token"])
        players = [await opened(w[i % 2].ws, mid, tokens[i]) for i in range(3)]
        watchers = [await opened(w[0].ws, mid), await opened(w[1].ws, mid)]
        deadline = time.monotonic() + 90
        finals = await wait_all(*(play_turns(c, random.Random(i), deadline)
                                  for i, c in enumerate(players)), timeout=100)
        end = max(c.version for c in players)
        for c in watchers:
            await c.until(lambda s: s["outcome"] is not None, timeout=20)
        assert all(f["outcome"] == finals[0]["outcome"] for f in finals)
        record = (await get(w[1].http, f"/api/matches/{mid}/record")).json()
        texts = [e["action"] for e in record["events"]]
        assert len(texts) == end and end > 3
        for c in players + watchers:
            evs = events_of(c)
            assert [e["seq"] for e in evs] == list(range(1, end + 1)), "gap or reorder"
            assert [e["action"] for e in evs] == texts
            assert c.version == end
        # Each seat got its own view, spectators the spectator view, on both workers.
        game = games.load("gammel_jomfru")
        state = game.new(deal=record["record"]["deal"], seats=3)
        for t in texts:
            state = state.apply(t)
        for seat, c in enumerate(players):
            assert c.state is not None and c.state["view"] == state.view(seat)
        for c in watchers:
            assert c.state is not None and c.state["view"] == state.view(None)
            assert c.state["seat"] is None and c.state["legal"] == []
        for c in players + watchers:
            await c.close()


async def test_without_redis_the_owner_plays_on_and_others_refuse(postgres: Postgres,
                                                                   pg_url: str) -> None:
    """Redis down: the game's owner (worker 0, whose socket acted first) keeps serving
    its sockets; an action that reaches worker 1 cannot be forwarded to the owner, so it
    is refused as ``unavailable`` and nothing is written; after Redis returns, worker 1
    catches up, forwards, and nothing was written twice."""
    own = Redis.start()
    try:
        with cluster(postgres, own, pg_url) as w:
            made = await post(w[0].http, "/api/matches", {"game": "posthus", "deal": 5})
            mid, token = made["match_id"], made["token"]
            a = await opened(w[0].ws, mid, token)   # one seat, two devices,
            b = await opened(w[1].ws, mid, token)   # on two workers
            assert a.state is not None and b.state is not None
            first = next(x for x in a.state["legal"] if x != "resign")
            await a.send("act", action=first)       # worker 0 takes the game
            assert (await a.recv())["v"] == 1
            await b.until(lambda _s: b.version >= 1, timeout=10)  # the bus told worker 1
            assert b.version == 1
            own.proc.kill()
            own.proc.wait(5)
            legal = [x for x in (b.state or {})["legal"] if x != "resign"]
            await b.send("act", action=legal[0])
            refused = await b.expect("error")
            assert refused["d"]["code"] == "unavailable"
            await a.send("act", action=legal[0])
            assert (await a.expect("state"))["v"] == 2
            record = (await get(w[0].http, f"/api/matches/{mid}/record",
                                Authorization=f"Bearer {token}")).json()
            assert [e["seq"] for e in record["events"]] == [1, 2]
            own.restart()
            await b.until(lambda _s: b.version >= 2, timeout=20)  # caught up, reconnected
            assert b.version == 2
            nxt = [x for x in (b.state or {})["legal"] if x != "resign"]
            await b.send("act", action=nxt[0])
            assert (await b.expect("state"))["v"] == 3
            assert (await a.expect("state"))["v"] == 3
            record = (await get(w[1].http, f"/api/matches/{mid}/record",
                                Authorization=f"Bearer {token}")).json()
            assert [e["seq"] for e in record["events"]] == [1, 2, 3]
            c = await opened(w[0].ws, mid, token)
            assert c.version == 3
            for x in (a, b, c):
                await x.close()
    finally:
        own.stop()
