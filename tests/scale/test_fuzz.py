"""Fuzz proof: ≥ 10,000 generated bad messages against two live workers (PostgreSQL +
Redis) — malformed JSON, wrong types, huge frames, binary frames, stale versions, other
matches' tokens, moves out of turn, spectators acting, actions for a finished game,
nonsense actions and clicks, unknown types (the server's own method names included),
nesting up to 900 levels deep, frames up to 1 MB, versions out of range.  Every message
is answered (one reply each, never ``internal``), every refusal is an ``error`` with a
code and a reason, no game changes, and both workers keep serving (a real action is
accepted at the end)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from tests.scale.cluster import cluster, get, opened, post
from tests.server.live import Client
from tests.services import Postgres, Redis

from spillebord.server.infra.storage.models import actions

pytestmark = pytest.mark.services
N_MESSAGES = 10_000
JUNK = "§¤¶ﬁ\u202e\x00"

Gen = Callable[[random.Random, Client], tuple[str | bytes, set[str]]]


def junk(rng: random.Random, n: int = 12) -> str:
    return "".join(rng.choice(JUNK + "qz#@!") for _ in range(rng.randint(1, n)))


def msg(t: Any, v: Any = 0, d: Any = None, **extra: Any) -> str:
    return json.dumps({"t": t, "v": v, "d": {} if d is None else d, **extra})


def malformed_json(rng: random.Random, _c: Client) -> tuple[str | bytes, set[str]]:
    pick = rng.choice([
        lambda: '{"t":"act","v":0,"d":{"action":"x"}',
        lambda: "[" * rng.randint(1, 4000),
        lambda: "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(0, 60))),
        lambda: rng.choice(["null", "1", '"act"', "[]", "true", "1e999", "{}", "{'t':1}"]),
        lambda: '{"t": "act", "v": NaN}',
    ])
    return pick(), {"malformed"}


def wrong_types(rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
    v = c.version
    return rng.choice([
        (msg(5), {"malformed"}), (msg(None), {"malformed"}), (msg(["act"]), {"malformed"}),
        (msg("act", str(v), {"action": "x"}), {"malformed"}),
        (msg("act", True, {"action": "x"}), {"malformed"}),
        (msg("act", -1, {"action": "x"}), {"malformed"}),
        (msg("act", v + 0.5, {"action": "x"}), {"malformed"}),
        (msg("act", v, [1, 2]), {"malformed"}),
        (msg("act", v, "action"), {"malformed"}),
        (msg("act", v, {"action": rng.randint(0, 9)}), {"malformed", "spectator"}),
        (msg("act", v, {"action": ""}), {"malformed", "spectator"}),
        (msg("act", v, {"action": "x" * 201}), {"malformed", "spectator"}),
        (msg("hello", v, {"token": 12345}), {"malformed"}),
        (msg("hello", v, {}), {"malformed"}),
        (msg("click", v, {"target": None}), {"malformed", "not_solitaire", "spectator"}),
    ])


def huge(rng: random.Random, _c: Client) -> tuple[str | bytes, set[str]]:
    n = rng.choice([4097, 5000, 70_000, rng.randint(4097, 200_000),
                    rng.randint(200_000, 1_000_000)])
    body = '{"t":"act","v":0,"d":{"action":"'
    return body + "x" * (n - len(body) - 3) + '"}}', {"too_large"}


def binary(rng: random.Random, _c: Client) -> tuple[str | bytes, set[str]]:
    return rng.randbytes(rng.randint(1, 300)), {"malformed"}


# Names of the server's own methods and attributes: none of them is a message type.
INTERNAL = ["event", "frame", "error", "welcome", "handle", "take_seat", "sender", "push",
            "solve", "solve_task", "solitaire_seat", "version", "text", "msg", "drain"]


def unknown_type(rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
    t = rng.choice(["fly", "__init__", "on_act", "ACT", "act ", "", junk(rng), "x" * 500,
                    *INTERNAL])
    return msg(t, c.version, rng.choice([None, {}, {"x": 1}])), {"unknown_type"}


def deep(rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
    """Nesting past the bound (16 levels) in ``d``, for every type: the parser and the
    encoder never reach a recursion limit."""
    n = rng.randint(17, 900)
    opener, closer = rng.choice([('{"a":', "}"), ("[", "]"), ('[{"a":', "}]")])
    body = opener * n + "1" + closer * n
    t = rng.choice(["ping", "act", "sync", "hello", "click", "fly"])
    text = f'{{"t":"{t}","v":{c.version},"d":{{"x":{body}}}}}'
    return text, {"malformed", "too_large"}


def bad_version(rng: random.Random, _c: Client) -> tuple[str | bytes, set[str]]:
    v = rng.choice(["-1", "1e3", str(2**63), str(2**64 - 1), str(10**30), "0.0", "[]"])
    t = rng.choice(["act", "undo", "redo", "click"])
    return f'{{"t":"{t}","v":{v},"d":{{"action":"x","target":"x"}}}}', {"malformed"}


def stale(rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
    st = c.state or {}
    action = rng.choice(st.get("legal") or ["resign"])
    v = rng.choice([c.version + 1, c.version + 2, c.version + 10**9, c.version - 1])
    t = rng.choice(["act", "undo", "redo"])
    return msg(t, v if v >= 0 else 1, {"action": action}), {
        "stale", "spectator", "not_solitaire", "game_over"}


def nonsense(rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
    t = rng.choice(["act", "click", "undo", "redo"])
    d = {"action": junk(rng)} if t == "act" else {"target": junk(rng)}
    return msg(t, c.version, d), {"illegal", "no_move", "spectator", "not_your_turn",
                                  "game_over", "not_solitaire", "nothing_to_undo",
                                  "nothing_to_redo"}


GENERATORS: list[Gen] = [malformed_json, wrong_types, huge, binary, unknown_type, stale,
                         nonsense, deep, bad_version]


async def fuzz(c: Client, rng: random.Random, n: int, extra: list[Gen],
               codes: Counter[str], deadline: float) -> None:
    gens = GENERATORS + extra
    for _ in range(n):
        assert time.monotonic() < deadline, "fuzzing took too long"
        frame, allowed = rng.choice(gens)(rng, c)
        await c.conn.send(frame)
        reply = await c.recv(10)
        assert reply["t"] == "error", (frame if isinstance(frame, bytes) else frame[:200],
                                       reply)
        d = reply["d"]
        assert d["code"] in allowed, (frame if isinstance(frame, bytes) else frame[:200], d)
        assert isinstance(d["reason"], str) and d["reason"]
        codes[d["code"]] += 1


async def test_ten_thousand_bad_messages_change_nothing(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        sol = await post(w[0].http, "/api/matches", {"game": "posthus", "deal": 7})
        table = await post(w[1].http, "/api/matches",
                           {"game": "gammel_jomfru", "seats": ["me", "human", "human"]})
        seat1 = await post(w[0].http, f"/api/invites/{table['invites'][0]['code']}/claim")
        over = await post(w[1].http, "/api/matches", {"game": "studenter", "deal": 3})
        c = await opened(w[0].ws, over["match_id"], over["token"])
        await c.send("act", action="resign")
        assert (await c.recv())["d"]["outcome"] is not None
        await c.close()

        engine = create_engine(pg_url)

        def counts() -> dict[str, int]:
            with engine.connect() as conn:
                return {m: conn.execute(select(func.count()).select_from(actions)
                                        .where(actions.c.match_id == m)).scalar_one()
                        for m in (sol["match_id"], table["match_id"], over["match_id"])}

        before = counts()

        def other_token(_rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
            return msg("hello", c.version, {"token": rng_tokens[_rng.randrange(3)]}), {
                "bad_token"}

        def out_of_turn(rng: random.Random, c: Client) -> tuple[str | bytes, set[str]]:
            return msg("act", c.version, {"action": rng.choice(["turn", "resign", "d1"])}), {
                "not_your_turn", "spectator", "game_over", "not_solitaire", "illegal"}

        rng_tokens = [table["token"], over["token"], seat1["token"]]
        sockets = [  # (worker, match, token, extra generators)
            (0, sol["match_id"], sol["token"], [other_token]),
            (1, sol["match_id"], sol["token"], [other_token]),
            (0, sol["match_id"], None, [out_of_turn]),
            (1, table["match_id"], seat1["token"], [out_of_turn]),
            (0, table["match_id"], seat1["token"], [out_of_turn]),
            (1, table["match_id"], None, [out_of_turn]),
            (0, over["match_id"], over["token"], [out_of_turn]),
            (1, over["match_id"], over["token"], [out_of_turn]),
        ]
        clients = [await opened(w[i].ws, m, t) for i, m, t, _ in sockets]
        codes: Counter[str] = Counter()
        per = -(-N_MESSAGES // len(clients))
        deadline = time.monotonic() + 150
        await asyncio.wait_for(asyncio.gather(*(
            fuzz(c, random.Random(i), per, s[3], codes, deadline)
            for i, (c, s) in enumerate(zip(clients, sockets, strict=True)))), 160)
        assert sum(codes.values()) >= N_MESSAGES
        for code in ("malformed", "too_large", "unknown_type", "stale", "bad_token",
                     "not_your_turn", "spectator", "game_over", "illegal"):
            assert codes[code] > 0, (code, codes)
        assert counts() == before, "a refused message changed a game"
        for worker in w.items:
            info = (await get(worker.http, f"/api/matches/{sol['match_id']}")).json()
            assert info["version"] == 0 and info["status"] == "running"
            over_info = (await get(worker.http, f"/api/matches/{over['match_id']}")).json()
            assert over_info["version"] == 1 and over_info["status"] == "finished"
        # Still serving: a real action is accepted and seen on the other worker.
        player, other = clients[0], clients[1]
        legal = [a for a in (player.state or {})["legal"] if a != "resign"]
        await player.send("act", action=legal[0])
        assert (await player.recv())["v"] == 1
        await other.until(lambda s: other.version == 1, timeout=10)
        for c in clients:
            await c.close()
        engine.dispose()
