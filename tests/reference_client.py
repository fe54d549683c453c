"""A reference client written from docs/protocol.md alone — no import from the
spillebord package, no knowledge of the server's code.  It creates a match over HTTP,
joins with the token in ``hello`` (not in the URL), plays its seat with random legal
actions at the documented pace, uses click-to-move on solitaires, keeps events by
``seq``, checks every promise of the document it meets on the way (welcome first, ``v``
equals the last event's ``seq``, ``legal`` empty when it is not the seat's turn, an
outcome reason that ``GET /api/games`` lists and the documented ``extra``), and at the
end verifies the fair-deal commitment from the reveal.  Any message the document does
not lead it to expect is an ``AssertionError``."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

PACE = 0.020  # "keep at least 20 ms between messages" (protocol.md, Pacing)
OUTCOME_KEYS = {"winners", "ranking", "reason", "bonus", "losers"}


@dataclass
class Played:
    game: str
    match_id: str
    outcome: dict[str, Any]
    events: dict[int, dict[str, Any]]
    actions_sent: int
    clicks: int
    fair: dict[str, Any]


@dataclass
class ReferenceClient:
    http_base: str
    ws_base: str
    rng: random.Random = field(default_factory=random.Random)
    ws: Any = None
    last_sent: float = 0.0
    state: dict[str, Any] | None = None
    version: int = 0
    events: dict[int, dict[str, Any]] = field(default_factory=dict)

    # -- wire -------------------------------------------------------------------------
    async def send(self, t: str, d: dict[str, Any], v: int | None = None) -> None:
        wait = self.last_sent + PACE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        frame: dict[str, Any] = {"t": t, "d": d}
        if v is not None:
            frame["v"] = v
        await self.ws.send(json.dumps(frame))
        self.last_sent = time.monotonic()

    async def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
        assert set(msg) >= {"t", "v", "d"}, msg
        while msg["t"] == "seats":  # others' claims and presence: this client plays alone
            assert isinstance(msg["d"]["seats"], list), msg
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            assert set(msg) >= {"t", "v", "d"}, msg
        if msg["t"] == "state":
            d = msg["d"]
            for e in d["events"]:  # "keep events by seq (a repeat is the same event)"
                assert self.events.get(e["seq"], e) == e, e
                self.events[e["seq"]] = e
            if msg["v"] >= self.version:
                self.state, self.version = d, msg["v"]
            if d["events"]:
                assert msg["v"] == d["events"][-1]["seq"]  # "v equals the seq of the last"
            if d["seat"] is None or d["to_move"] != d["seat"]:
                assert d["legal"] == []
        if msg["t"] == "error":
            assert msg["d"]["code"] != "internal", msg
        return msg

    async def answer(self) -> dict[str, Any]:
        """The next message that is not a state caused by someone else's event."""
        while True:
            msg = await self.recv()
            if msg["t"] == "error" and msg["d"]["code"] == "rate_limited":
                await asyncio.sleep(1.0)  # "wait about a second before sending again"
                raise Resend
            return msg

    # -- a whole game -----------------------------------------------------------------
    async def play(self, game: dict[str, Any], max_own: int = 250) -> Played:
        key = game["key"]
        async with httpx.AsyncClient(base_url=self.http_base, timeout=30) as http:
            if game["solitaire"]:
                body: dict[str, Any] = {"game": key}
            else:
                n = game["default_seats"]
                body = {"game": key, "seats": ["me", *[{"bot": game["bots"][0]}] * (n - 1)]}
            r = await http.post("/api/matches", json=body)
            assert r.status_code == 201, r.text
            made = r.json()
        match_id, token, commitment = made["match_id"], made["token"], made["commitment"]
        async with websockets.connect(f"{self.ws_base}/ws/{match_id}") as ws:
            self.ws = ws
            first = await self.recv()
            assert first["t"] == "welcome" and first["d"]["role"] == "spectator", first
            assert first["d"]["match"]["fair"]["commitment"] == commitment
            await self.send("hello", {"token": token})
            welcome = await self.recv()
            while welcome["t"] == "state":  # the spectator's first state
                welcome = await self.recv()
            assert welcome["t"] == "welcome" and welcome["d"]["role"] == "player", welcome
            seat = welcome["d"]["seat"]
            while self.state is None or self.state["seat"] != seat:
                await self.recv()
            own = clicks = 0
            while self.state["outcome"] is None:
                st = self.state
                if st["to_move"] != seat or not st["legal"]:
                    await self.recv()  # a bot's move will come
                    continue
                try:
                    if game["solitaire"] and own % 7 == 3 and await self.click(st):
                        clicks += 1
                    else:
                        await self.act(st["legal"], own >= max_own)
                except Resend:
                    continue
                own += 1
            # The whole history again, from the document's sync.
            await self.send("sync", {}, v=0)
            again = await self.answer()
            assert again["t"] == "state" and [e["seq"] for e in again["d"]["events"]] == list(
                range(1, again["v"] + 1))
            outcome = self.state["outcome"]
        async with httpx.AsyncClient(base_url=self.http_base, timeout=30) as http:
            info = (await http.get(f"/api/matches/{match_id}")).json()
        check_outcome(game, outcome, info)
        fair = info["fair"]
        assert fair["commitment"] == commitment
        sealed = hashlib.sha256(f"{fair['deal']}:{fair['salt']}".encode()).hexdigest()
        assert sealed == commitment, "the revealed deal does not match its commitment"
        return Played(key, match_id, outcome, dict(self.events), own, clicks, fair)

    async def act(self, legal: list[str], may_resign: bool) -> None:
        calm = [a for a in legal if a != "resign"]
        action = "resign" if may_resign and "resign" in legal else self.rng.choice(
            calm or legal)
        if self.rng.random() < 0.2:  # "extra spaces are normalised"
            action = "  " + action.replace(" ", "   ") + " "
        before = self.version
        await self.send("act", {"action": action}, v=before)
        while self.version == before:
            msg = await self.answer()
            assert msg["t"] == "state", msg

    async def click(self, st: dict[str, Any]) -> bool:
        """Click-to-move with a documented target; whether it moved."""
        legal = [a for a in st["legal"] if a not in ("resign", "redeal")]
        if not legal:
            return False
        target = legal[0].split(" ")[0] if " " in legal[0] else self.rng.choice(
            ["stock", "row", "waste", "h1", "h2"])
        before = self.version
        await self.send("click", {"target": target}, v=before)
        msg = await self.answer()
        if msg["t"] == "error":
            assert msg["d"]["code"] == "no_move", msg
            return False
        if msg["t"] == "choices":
            assert msg["d"]["target"] == target and msg["d"]["actions"]
            await self.act([self.rng.choice(msg["d"]["actions"])], False)
            return True
        assert msg["t"] == "state" and self.version == before + 1, msg
        return True


class Resend(Exception):
    """The last message was rate limited; send it again."""


def check_outcome(game: dict[str, Any], outcome: dict[str, Any],
                  info: dict[str, Any]) -> None:
    """The outcome as protocol.md documents it: its keys, a reason that ``GET
    /api/games`` lists for the game, and the documented ``extra`` of kugler and Gammel
    Jomfru."""
    key = game["key"]
    assert set(outcome) >= OUTCOME_KEYS, outcome
    assert outcome["reason"] in game["reasons"], outcome
    assert info["status"] == "finished" and info["outcome"] == outcome
    assert info["finished"].endswith("+00:00")
    extra = outcome.get("extra")
    if key == "kugler":
        teams = extra["marbles_home"]  # {"<seat>+<partner>": n}
        assert len(teams) == len(info["seats"]) // 2
        assert all(a.isdigit() and b.isdigit() for a, _, b in (k.partition("+") for k in teams))
    if key == "gammel_jomfru" and outcome["reason"] == "turn_limit":
        assert len(extra["cards"]) == len(info["seats"])
