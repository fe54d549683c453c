"""Serialisation and back-pressure: racing actions on one version are decided one at a
time (exactly one wins, the other is stale), and a socket that stops reading gets the
newest full state with every event it missed, not a backlog."""

from __future__ import annotations

import asyncio

from tests.server.live import Client, LiveServer, create

from spillebord import games

SOLO = next(k for k in list(games.keys()) if games.load(k).is_solitaire)
TABLE = next((k for k in list(games.keys()) if not games.load(k).is_solitaire), None)


async def test_racing_actions_on_one_version(server: LiveServer) -> None:
    made = await create(server.http, game=SOLO, deal=21)
    a = await Client.open(server.ws, made["match_id"], made["token"])
    b = await Client.open(server.ws, made["match_id"], made["token"])  # a second tab
    for c in (a, b):
        await c.expect("welcome")
        await c.expect("state")
    rounds = 0
    for _ in range(8):
        legal = [x for x in a.state["legal"] if x != "resign"]
        if len(legal) < 1 or a.state["outcome"] is not None:
            break
        v = a.version
        # Both tabs act on the same version at the same moment.
        await asyncio.gather(a.send("act", v=v, action=legal[0]),
                             b.send("act", v=v, action=legal[-1]))
        # Read each tab up to a pong: the server handles one socket's messages in
        # order, so the loser's refusal comes before its pong.
        outcomes = []
        for c in (a, b):
            await c.send("ping", n=v)
            while True:
                msg = await c.recv()
                if msg["t"] == "pong":
                    break
                if msg["t"] == "error":
                    outcomes.append(msg["d"]["code"])
        assert outcomes == ["stale"], outcomes  # exactly one of the two was refused
        assert a.version == b.version == v + 1 and a.state == b.state
        rounds += 1
    assert rounds >= 3
    await a.close()
    await b.close()


async def test_a_socket_that_stops_reading(server: LiveServer) -> None:
    if TABLE is None:
        return
    n = games.load(TABLE).seat_counts[0]
    made = await create(server.http, game=TABLE, seats=[{"bot": "random"}] * n)
    slow = await Client.open(server.ws, made["match_id"])
    await slow.expect("welcome")
    first = await slow.expect("state")
    opened_at = first["v"]  # (the bots may have moved before the socket opened)
    while first["v"] == 0:  # the bots have begun (a bots-only room's compute worker
        first = await slow.recv(timeout=60.0)  # starts on first use: seconds under load)
        assert first["t"] == "state"
    await asyncio.sleep(1.5)  # the bots play on while this socket reads nothing
    total = 0
    last = first
    while True:
        try:
            msg = await slow.recv(timeout=1.0)
        except TimeoutError:
            break
        assert msg["t"] == "state"
        total += len(msg["d"]["events"])
        last = msg
    assert last["v"] > first["v"] + 20
    # Coalesced: far fewer messages than events, yet every event arrived exactly once.
    states = [m for m in slow.seen if m["t"] == "state"]
    seqs = [e["seq"] for m in states for e in m["d"]["events"]]
    # every event after the snapshot the socket opened on, once
    assert seqs == list(range(opened_at + 1, last["v"] + 1))
    assert total == last["v"] - first["v"]
    await slow.close()
