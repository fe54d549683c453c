"""Seat changes across two worker processes (PostgreSQL + Redis), issue 26: whichever
worker writes a seat — bots filling a table's open seats (the sweeper of either
worker), a lobby seat taken, an invite claimed — the sockets of the game on both
workers get a ``seats`` message at once, without any request of theirs."""

from __future__ import annotations

import httpx
import pytest
from tests.scale.cluster import cluster, opened
from tests.server.live import Client
from tests.server.test_seat_messages import bots_in, guest, told_seats
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services
GAME = "gammel_jomfru"


async def test_every_seat_change_reaches_both_workers_sockets(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        async with httpx.AsyncClient(timeout=30) as http:
            # Bots fill a public table's open seats (one worker's sweeper does it).
            host = await guest(http, w[0].http, "Fylder")
            r = await http.post(f"{w[0].http}/api/matches", headers=host, json={
                "game": GAME, "seats": ["me", "human", "human"], "public": True,
                "fill_after": 5, "fill_level": 1})
            assert r.status_code == 201, r.text
            made = r.json()
            seat_on_1 = await opened(w[1].ws, made["match_id"], made["token"])
            watcher_on_0 = await opened(w[0].ws, made["match_id"])
            for c in (seat_on_1, watcher_on_0):
                await told_seats(c, bots_in, timeout=12)
            await close(seat_on_1, watcher_on_0)

            # A lobby seat taken on worker 0; an invite claimed on worker 0.
            r = await http.post(f"{w[0].http}/api/matches", headers=host, json={
                "game": GAME, "seats": ["me", "human", "human"], "public": True})
            table = r.json()
            r = await http.post(f"{w[0].http}/api/matches", headers=host,
                                json={"game": GAME, "seats": ["me", "human"]})
            private = r.json()
            at_table = await opened(w[1].ws, table["match_id"], table["token"])
            invited = await opened(w[1].ws, private["match_id"], private["token"])
            taker = await guest(http, w[0].http, "Tager")
            taken = await http.post(f"{w[0].http}/api/lobby/{table['match_id']}/take",
                                    json={}, headers=taker)
            assert taken.status_code == 200, taken.text
            seat = taken.json()["seat"]
            await told_seats(at_table, lambda s: s[seat]["claimed"], timeout=3)
            code = {i["seat"]: i["code"] for i in private["invites"]}[1]
            claimed = await http.post(f"{w[0].http}/api/invites/{code}/claim", json={})
            assert claimed.status_code == 200, claimed.text
            await told_seats(invited, lambda s: s[1]["claimed"], timeout=3)
            await close(at_table, invited)


async def close(*clients: Client) -> None:
    for c in clients:
        await c.close()
