"""Compute is shared fairly (issue 29, findings 2 and 3), over real sockets with the
real bot and solver worker processes: bots-only rooms with slow search bots do not hold
up another room's bots (they run in the low lane, one turn per creator), and one seat
asking for hints on 12 sockets gets at most two questions into the queue — the others
are refused with ``busy`` at once."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord.server.infra.compute import Compute
from spillebord.server.infra.fair_queue import LOW_NICE, SEAT_QUEUE, low_worker

GAME = "kugler"
SLOW = {"bot": "ismcts", "options": {"seconds": 1.0, "iterations": 100000}}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("fair") / "fair.db"
    # its own worker processes: the lanes' waits are the subject (no other module's
    # leftover call in front)
    server = LiveServer(settings_for(str(db), hint_seconds=1.0), own_compute=True).start()
    yield server
    server.stop()


@pytest.mark.slow
async def test_bots_only_rooms_do_not_hold_up_another_rooms_bots(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.http, timeout=30) as http:
        abuser = (await http.post("/api/players")).json()["player_id"]
        for _ in range(3):  # one creator's bots-only rooms, 1 s of search per move
            r = await http.post("/api/matches", headers={"X-Player": abuser},
                                json={"game": GAME, "seats": [SLOW] * 4})
            assert r.status_code == 201, r.text
    await asyncio.sleep(1.5)  # their bots are thinking
    made = await create(live.http, game=GAME,
                        seats=["me", *[{"bot": "greedy"}] * 3])
    me = await Client.open(live.ws, made["match_id"], made["token"])
    await me.expect("welcome")
    rng = random.Random(29)
    waits: list[float] = []
    await me.until(lambda s: True)
    since = time.monotonic()
    while len(waits) < 12 and me.state is not None and not me.state.get("outcome"):
        state = me.state
        if state.get("to_move") == 0 and state.get("legal"):
            await me.send("act", action=rng.choice(state["legal"]))
        msg = await me.recv(30)
        if msg["t"] != "state":
            continue
        if state.get("to_move") not in (0, None):  # a bot was to move: it has moved
            waits.append(time.monotonic() - since)
        since = time.monotonic()
    await me.close()
    assert len(waits) >= 6, waits
    # Before: each bot move queued behind the three rooms' 1-s searches (median ≥ 1 s).
    assert statistics.median(waits) < 0.75, waits


async def test_a_seat_has_at_most_two_questions_in_the_queue(live: LiveServer) -> None:
    made = await create(live.http, game="posthus")
    socks = [await Client.open(live.ws, made["match_id"], made["token"]) for _ in range(12)]
    for sock in socks:
        await sock.expect("welcome")
        await sock.until(lambda s: True)
    await asyncio.gather(*(sock.send("hint") for sock in socks))
    answers = []
    for sock in socks:
        while True:
            msg = await sock.recv(30)
            if msg["t"] in ("hint", "error"):
                answers.append(msg)
                break
    hints = [m for m in answers if m["t"] == "hint"]
    busy = [m for m in answers if m["t"] == "error"]
    # At most SEAT_QUEUE questions wait at once; a quick hint that finishes before the
    # last of the twelve arrives frees its place, so a loaded machine may answer one or
    # two more — but most are refused (before: 12 of 12 queued).
    assert SEAT_QUEUE <= len(hints) <= 2 * SEAT_QUEUE, answers
    assert len(busy) >= len(socks) - 2 * SEAT_QUEUE, answers
    assert all(m["d"]["code"] == "busy" and m["d"]["ref"] == "hint" for m in busy), busy
    # the seat's places come back: a new question is answered
    await socks[0].send("hint")
    assert (await socks[0].expect("hint", 30))["t"] == "hint"
    for sock in socks:
        await sock.close()


def compute_calls(live: LiveServer) -> dict[str, float]:
    """Solver calls answered and in flight, by lane, from /metrics."""
    text = httpx.get(f"{live.http}/metrics").text
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            pool = s.labels.get("pool")
            if s.name == "spillebord_compute_seconds_count" and pool:
                out[f"done:{pool}"] = s.value
            elif s.name == "spillebord_compute_queue" and pool:
                out[f"now:{pool}"] = s.value
    return out


async def guest_solitaire(http: httpx.AsyncClient, deal: int) -> dict[str, Any]:
    """A Posthuskabalen of a new guest (its own player: its own flow in the queue)."""
    player = (await http.post("/api/players")).json()["player_id"]
    r = await http.post("/api/matches", headers={"X-Player": player},
                        json={"game": "posthus", "deal": deal})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


@pytest.mark.slow
async def test_a_seat_flooding_hints_asks_in_the_low_lane(live: LiveServer) -> None:
    """Asking past the seat's queue (``busy``) moves the player's questions to the low
    lane at once (fair_queue.py FLOOD_SECONDS): the flood has at most its first two
    questions in the normal lane, and another player's hints are answered from the
    normal lane meanwhile.  Before: only 10 s of the flood's solver time moved it, so
    its questions ran in the normal lane, one after the other, until then.  The flood's
    seat takes a move back and forth meanwhile (undo, redo): at one position its
    questions would be answered again from the first answer, without the solver
    (test_hint_again.py)."""
    async with httpx.AsyncClient(base_url=live.http, timeout=30) as http:
        flood_made = await guest_solitaire(http, 11)
        victim_made = await guest_solitaire(http, 12)
        # the server's own solver work first: the daily deals of today and the coming
        # days are chosen in the background from its start (in the normal lane)
        for game in ("posthus", "studenter"):
            for _ in range(1200):
                days = (await http.get(f"/api/daily/{game}/commitments")).json()["days"]
                if all(d["commitment"] for d in days):
                    break
                await asyncio.sleep(0.1)
    victim = await Client.open(live.ws, victim_made["match_id"], victim_made["token"])
    await victim.expect("welcome")
    await victim.until(lambda s: True)
    await victim.send("hint")  # the normal lane's worker is up
    await victim.expect("hint", 120)
    socks = [await Client.open(live.ws, flood_made["match_id"], flood_made["token"])
             for _ in range(7)]
    for sock in socks:
        await sock.expect("welcome")
        await sock.until(lambda s: True)
    mover, socks = socks[0], socks[1:]
    assert mover.state is not None
    await mover.send("act", action=next(a for a in mover.state["legal"] if a != "resign"))
    await mover.until(lambda s: mover.version == 1)
    stop = asyncio.Event()
    refused = 0

    async def move() -> None:
        """New positions all the time: undo, redo, undo, …"""
        while not stop.is_set():
            v = mover.version
            await mover.send("undo" if v % 2 else "redo")
            await mover.until(lambda s, v=v: mover.version > v)
            await asyncio.sleep(0.2)

    async def ask(sock: Client) -> None:
        nonlocal refused
        while not stop.is_set():
            await sock.send("hint")
            msg = await sock.recv(120)
            while msg["t"] not in ("hint", "error"):
                msg = await sock.recv(120)
            if msg["t"] == "error":
                assert msg["d"]["code"] == "busy", msg
                refused += 1
                await asyncio.sleep(0.05)

    def normal(calls: dict[str, float]) -> float:
        return calls.get("done:solver", 0) + calls.get("now:solver", 0)

    def low(calls: dict[str, float]) -> float:
        return calls.get("done:solver-low", 0) + calls.get("now:solver-low", 0)

    calls = compute_calls(live)
    # (an earlier test's flooding seat may have left calls in the low lane)
    normal_before, low_before = normal(calls), low(calls)
    flooding = [asyncio.create_task(ask(sock)) for sock in socks]
    flooding.append(asyncio.create_task(move()))
    try:
        started = time.monotonic()
        while low(calls) <= low_before:
            assert time.monotonic() - started < 90, (calls, refused)
            await asyncio.sleep(0.1)
            calls = compute_calls(live)
        assert refused >= 1
        # the flood's first two questions (before its first busy) in the normal lane,
        # then none (one more allowed: the server's own background solver work)
        assert normal(calls) - normal_before <= 3, (calls, normal_before)
        normal_before = calls.get("done:solver", 0)
        took = []
        for _ in range(3):
            assert victim.state is not None
            legal = [a for a in victim.state["legal"] if a != "resign"]
            await victim.send("act", action=legal[0])
            await victim.until(lambda s: True)
            t0 = time.monotonic()
            await victim.send("hint")
            await victim.expect("hint", 30)
            took.append(time.monotonic() - t0)
        # the victim's questions: in the normal lane, each within its budget (1 s)
        # plus slack for a loaded machine — not behind the flood's
        assert compute_calls(live).get("done:solver", 0) - normal_before >= 3
        assert max(took) < 5.0, took
    finally:
        stop.set()
        for task in flooding:
            task.cancel()
        await asyncio.wait(flooding, timeout=10)
        for sock in [*socks, mover, victim]:
            await sock.close()


@pytest.mark.parametrize(("how", "group_nice"), [("group", LOW_NICE), ("session", 0)])
def test_a_low_lane_worker_can_spend_a_scheduling_group_of_its_own(
        monkeypatch: pytest.MonkeyPatch, how: str, group_nice: int) -> None:
    """A low-lane worker is nicer than the server; with ``SPILLEBORD_LOW_LANE=group``,
    where Linux groups the CPU by session (autogroup), it is also in a session of its
    own whose group is as nice: a busy low lane then spends its own group's share, not
    the server's (issue 29's soak); with ``session`` its own group is at the ordinary
    group priority.  Fails before: the worker was in the server's session and group."""
    monkeypatch.setenv("SPILLEBORD_LOW_LANE", how)
    group = Path("/proc/self/autogroup")
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn, initializer=low_worker,
                             initargs=(os.getpid(),)) as pool:
        sid = pool.submit(os.getsid, 0).result(120)
        nice = pool.submit(os.getpriority, os.PRIO_PROCESS, 0).result(120)
        its_group = pool.submit(group.read_text).result(120) if group.exists() else ""
    assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + LOW_NICE)
    assert sid != os.getsid(0)
    # /proc/self/autogroup is empty for a process whose CPU cgroup is not the root one
    # (a CI runner's or a service manager's slice): the cgroup shares the CPU there, and
    # autogroups play no part (CI saw it empty).
    ours = group.read_text() if group.exists() else ""
    if ours.strip():
        assert its_group.split(), "the server is in an autogroup, the worker in none"
        assert its_group.split()[0] != group.read_text().split()[0], its_group
        assert its_group.split()[-1] == str(group_nice), its_group


async def test_the_two_low_lanes_share_one_worker_process() -> None:
    """Bots-only rooms' bots and lowered players' questions run in one low-priority
    process, so low work holds at most one core and a 2-core machine always keeps one
    for the event loop and the normal lanes (issue 29's soak: with a process per low
    lane both cores ran low work at once).  Fails before: two low processes."""
    compute = Compute()
    try:
        async def pid(pool: str, low: bool) -> int:
            return await compute.queued(pool, f"{pool}-{low}", os.getpid, low=low)
        bots_low, solver_low = await asyncio.gather(pid("bots", True), pid("solver", True))
        bots, solver = await asyncio.gather(pid("bots", False), pid("solver", False))
    finally:
        compute.close()
    assert bots_low == solver_low
    assert len({bots_low, bots, solver, os.getpid()}) == 4
