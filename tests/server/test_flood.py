"""A flooding socket costs the server little and is cut off (issue 29: the soak's
abusers made every normal player's move p99 22 times slower — every flood frame was
read, parsed and answered).  Over real sockets, with the product's message budget
(server/http/inflow.py): past its budget a socket is not read (its frames wait in the
client's buffers), gets ``rate_limited``, and past the strain limit ``rate_limited``
with ``ref: "socket"`` and a 1008 close; meanwhile another socket plays as usual."""

from __future__ import annotations

import asyncio
import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from tests.server.live import Client, LiveServer, create, settings_for

RATE = 50.0  # the product's default (Settings.rate_per_second)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("flood") / "flood.db"
    server = LiveServer(settings_for(str(db), rate_per_second=RATE)).start()
    yield server
    server.stop()


async def flood(conn: Any, frame: str, seconds: float, replies: Counter[str],
                every: float = 0.0) -> tuple[int, int | None, float]:
    """Send ``frame`` again and again (``every`` seconds apart; 0: as fast as the
    transport takes it) while reading every answer; returns (frames sent, the close
    code, seconds until the close)."""
    start = time.monotonic()
    sent = 0
    closed: list[int | None] = [None]
    took = [math.inf]

    async def read() -> None:
        try:
            while True:
                msg = json.loads(await conn.recv())
                replies[msg["t"] if msg["t"] != "error" else msg["d"]["code"]] += 1
                if msg["t"] == "error" and msg["d"].get("ref") == "socket":
                    replies["ref_socket"] += 1
        except websockets.ConnectionClosed as exc:  # the close frame came
            closed[0] = exc.rcvd.code if exc.rcvd else None
            took[0] = time.monotonic() - start

    reader = asyncio.create_task(read())
    try:
        while time.monotonic() - start < seconds and not reader.done():
            try:
                await asyncio.wait_for(conn.send(frame), 1)  # blocks: not read
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                break
            sent += 1
            await asyncio.sleep(every)
        await asyncio.wait_for(reader, max(1.0, seconds - (time.monotonic() - start)))
    except TimeoutError:
        reader.cancel()
    return sent, closed[0], took[0]


async def moves(c: Client, n: int) -> list[float]:
    """``n`` act → own state times of a solitaire seat (undo and redo when stuck)."""
    took = []
    for _ in range(n):
        assert c.state is not None
        legal = [a for a in c.state["legal"] if a != "resign"]
        t0 = time.monotonic()
        if legal:
            await c.send("act", action=legal[0])
        else:
            await c.send("undo")
        msg = await c.recv(10)
        assert msg["t"] == "state", msg
        took.append(time.monotonic() - t0)
        await asyncio.sleep(0.05)
    return took


@pytest.mark.slow
async def test_a_ping_flood_is_paused_then_closed_and_another_socket_plays_on(
        live: LiveServer) -> None:
    made = await create(live.http, game="posthus", deal=5)
    player = await Client.open(live.ws, made["match_id"], made["token"])
    await player.expect("welcome")
    await player.expect("state")
    before = await moves(player, 10)
    other = await create(live.http, game="posthus", deal=6)
    conn = await websockets.connect(f"{live.ws}/ws/{other['match_id']}", max_size=2**22)
    replies: Counter[str] = Counter()
    flooding = asyncio.create_task(flood(conn, '{"t":"ping","v":0,"d":{}}', 30, replies))
    await asyncio.sleep(1)
    during = await moves(player, 20)
    sent, code, took = await flooding
    # Cut off: rate_limited with ref "socket", then closed as a policy violation
    # (before: every frame over the rate answered rate_limited, and read: never closed).
    assert code == 1008, (code, replies, sent)
    assert replies["ref_socket"] == 1 and replies["rate_limited"] == 1, replies
    assert took < 20, took
    # Not read while over the budget: far fewer frames answered than sent, and no
    # more than the budget allows (two seconds' burst, then RATE a second).
    answered = replies["pong"] + replies["rate_limited"] - replies["ref_socket"]
    assert answered <= 2 * RATE + RATE * took * 1.3 + 20, (answered, took, replies)
    assert set(replies) <= {"welcome", "state", "pong", "rate_limited", "ref_socket"}
    # Another socket's moves were not held up (generous bounds: a loaded machine).
    assert statistics.median(during) < max(0.25, 5 * statistics.median(before)), (
        before, during)
    assert max(during) < 2.0, during
    await player.close()


@pytest.mark.slow
async def test_a_socket_refused_again_and_again_is_closed_a_steady_one_is_not(
        live: LiveServer) -> None:
    """A refusal costs more of the budget than a frame: 20 refused frames a second
    (well under the 50 a second a socket may send) are a flood; 20 pings are not."""
    made = await create(live.http, game="posthus", deal=7)
    refused = await websockets.connect(f"{live.ws}/ws/{made['match_id']}?token={made['token']}")
    steady = await websockets.connect(f"{live.ws}/ws/{made['match_id']}")
    stale = '{"t":"act","v":999999,"d":{"action":"x"}}'  # refused: stale
    bad: Counter[str] = Counter()
    good: Counter[str] = Counter()
    (_, code_bad, took_bad), (_, code_good, _) = await asyncio.gather(
        flood(refused, stale, 25, bad, every=0.05),
        flood(steady, '{"t":"ping","v":0,"d":{}}', 12, good, every=0.05))
    assert code_bad == 1008 and bad["ref_socket"] == 1, (code_bad, bad)
    assert bad["stale"] >= 10 and took_bad < 20, (bad, took_bad)
    assert code_good is None and good["pong"] >= 100 and good["rate_limited"] == 0, good
    await steady.close()
