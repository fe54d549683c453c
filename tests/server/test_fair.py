"""Provably fair deals (issue 16): a creator cannot choose the deal of a table with
invited players, nothing the creator receives reveals the invited seats' cards, the
commitment published at creation verifies against the deal and salt revealed at the
end (and the deal recomputed from the reveal is the game that was played), and a
tampered reveal fails."""

from __future__ import annotations

import random

import httpx
from tests.server.live import Client, LiveServer, create, play_randomly

from spillebord import games
from spillebord.core.record import GameRecord
from spillebord.server.room import fairness


async def test_a_creator_cannot_choose_an_invited_table_s_deal(server: LiveServer) -> None:
    """Before the fix ``"deal": 4242`` was accepted and ``new(deal=4242).view(1)``
    predicted the invited seat's hand."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        for game, seats in (("kugler", ["me", "human", "human", "human"]),
                            ("gammel_jomfru", ["me", "human", {"bot": "random"}]),
                            ("gammel_jomfru", ["human", "human"])):
            r = await http.post("/api/matches", json={"game": game, "deal": 4242,
                                                      "seats": seats})
            assert r.status_code == 400, r.text
            assert r.json()["detail"]["code"] == "chosen_deal"
        # still allowed: a solitaire, and a table whose other seats are bots
        for body in ({"game": "posthus", "deal": 4242},
                     {"game": "kugler", "deal": 4242,
                      "seats": ["me", *[{"bot": "random"}] * 3]}):
            r = await http.post("/api/matches", json=body)
            assert r.status_code == 201, r.text


async def test_the_creator_learns_nothing_about_invited_cards(server: LiveServer) -> None:
    made = await create(server.http, game="kugler", seats=["me", "human", "human", "human"])
    mid = made["match_id"]
    sealed = made["commitment"]
    assert len(sealed) == 64 and int(sealed, 16) >= 0
    creator = await Client.open(server.ws, mid, made["token"])
    welcome = await creator.recv()
    await creator.recv()  # the first state
    code = made["invites"][0]["code"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{mid}")).json()
        # The invite page shows the seal before the seat is taken (looking claims nothing).
        invite = (await http.get(f"/api/invites/{code}")).json()
        assert invite == {"match_id": mid, "game": "kugler", "seat": 1, "used": False,
                          "status": "running", "commitment": sealed}
        claimed = (await http.post(f"/api/invites/{code}/claim")).json()
        assert (await http.get(f"/api/invites/{code}")).json()["used"] is True
        assert (await http.get("/api/invites/no-such-code")).status_code == 404
    assert claimed["commitment"] == sealed
    for match in (info, welcome["d"]["match"]):
        assert match["deal"] is None
        assert match["fair"] == {"algorithm": fairness.ALGORITHM, "commitment": sealed,
                                 "deal": None, "salt": None, "text": None}
    invitee = await Client.open(server.ws, mid, claimed["token"])
    await invitee.until(lambda s: s is not None)
    hand = invitee.state["view"] if invitee.state else None
    # The commitment does not give the deal away: 63 random bits and a 128-bit salt.
    # The creator's guess of the old attack (a chosen number) does not match either.
    guess = games.load("kugler").new(deal=4242, seats=4).view(1)
    assert hand != guess
    await creator.close()
    await invitee.close()


async def test_the_reveal_verifies_and_recomputes_the_deal(server: LiveServer) -> None:
    made = await create(server.http, game="gammel_jomfru",
                        seats=["me", "human", {"bot": "random"}])
    mid = made["match_id"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        claimed = (await http.post(f"/api/invites/{made['invites'][0]['code']}/claim")).json()
    clients = [await Client.open(server.ws, mid, made["token"]),
               await Client.open(server.ws, mid, claimed["token"])]
    welcomes = [await c.recv() for c in clients]
    firsts = [await c.recv() for c in clients]
    assert all(w["d"]["match"]["fair"]["commitment"] == made["commitment"] for w in welcomes)
    finals = await _play_all(clients)
    assert finals[0]["outcome"] is not None
    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{mid}")).json()
        rec = (await http.get(f"/api/matches/{mid}/record")).json()
    fair = info["fair"]
    assert fair["commitment"] == made["commitment"]
    deal, salt = fair["deal"], fair["salt"]
    assert fairness.verify(made["commitment"], deal, salt)
    assert fair["text"] == f"{deal}:{salt}"
    # Anyone recomputes the deal from the reveal: the starting views each seat received
    # are the revealed deal's, and the record replays from it to the same outcome.
    start = games.load("gammel_jomfru").new(deal=deal, seats=3, **info["flags"])
    for seat, first in enumerate(firsts):
        assert first["v"] == 0 and first["d"]["view"] == start.view(seat)
    assert rec["record"]["deal"] == deal
    end = GameRecord.from_json(rec["record"]).replay(games.load("gammel_jomfru"))
    assert end.outcome is not None and end.outcome.to_json() == info["outcome"]
    # A tampered reveal fails.
    assert not fairness.verify(made["commitment"], deal + 1, salt)
    assert not fairness.verify(made["commitment"], deal, salt[:-1] + ("0" if salt[-1] != "0"
                                                                      else "1"))
    for c in clients:
        await c.close()


async def _play_all(clients: list[Client]) -> list[dict[str, object]]:
    import asyncio

    rngs = [random.Random(i) for i in range(len(clients))]
    return list(await asyncio.gather(*(play_randomly(c, r) for c, r in zip(clients, rngs,
                                                                           strict=True))))
