"""The same question at the same position (issue 29, the hint flood): a solitaire's hint
asked again before the next event is answered with the answer already given — on any
socket of the seat, without another solver call and without counting another hint —
and a new position gets a new answer.  Nobody but the seat gets it (a spectator is
refused as before), and the hint count is in the database when the answer comes.
Against the real app, its solver worker process and SQLite."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord.server.infra.storage.models import matches

DEAL = 21
RATE = 10.0


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hint_again") / "hint.db"
    # a small message budget (10 a second, bursts of 20): what a repeated answer costs
    # the socket shows in seconds.  The solver gets the time to decide these deals even
    # on a loaded CI machine (an undecided answer is asked again — its own test below):
    # at 1 s, CI's run at load ≈ 9 left deal 21's second position "unknown".
    server = LiveServer(settings_for(str(db), hint_seconds=30.0, verdict_seconds=30.0,
                                     rate_per_second=RATE)).start()
    yield server
    server.stop()


def solver_calls(live: LiveServer) -> float:
    """Solver calls this server made (both lanes), from /metrics."""
    text = httpx.get(f"{live.http}/metrics").text
    return sum(s.value for family in text_string_to_metric_families(text)
               for s in family.samples
               if s.name == "spillebord_compute_seconds_count"
               and s.labels.get("pool", "").startswith("solver"))


def stored_hints(live: LiveServer, match_id: str) -> int:
    with live.services.engine.connect() as conn:
        return int(conn.execute(select(matches.c.hints)
                                .where(matches.c.id == match_id)).scalar_one() or 0)


async def seat_socket(live: LiveServer, made: dict[str, Any]) -> Client:
    c = await Client.open(live.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    return c


async def test_the_same_hint_at_the_same_position_is_answered_again(live: LiveServer
                                                                   ) -> None:
    made = await create(live.http, game="posthus", deal=DEAL)
    c = await seat_socket(live, made)
    calls = solver_calls(live)
    await c.send("hint")
    first = await c.expect("hint", 60)
    assert first["v"] == 0 and first["d"]["hints"] == 1
    assert solver_calls(live) == calls + 1
    assert stored_hints(live, made["match_id"]) == 1  # durable before the answer came

    # the same question, on the same socket and on a second socket of the seat
    other = await seat_socket(live, made)
    for sock in (c, other, c):
        await sock.send("hint")
        again = await sock.expect("hint", 10)
        assert again == first
    assert solver_calls(live) == calls + 1  # no solver call for them
    assert stored_hints(live, made["match_id"]) == 1  # one hint given, not four

    # a spectator is refused, as before: the answer is the seat's
    watcher = await Client.open(live.ws, made["match_id"])
    await watcher.expect("welcome")
    await watcher.expect("state")
    await watcher.send("hint")
    assert (await watcher.recv())["d"]["code"] == "spectator"
    assert all(m["t"] != "hint" for m in watcher.seen)
    await watcher.close()

    # a move: a new position, a new question, a new answer (and one more hint)
    assert c.state is not None
    legal = [a for a in c.state["legal"] if a != "resign"]
    await c.send("act", action=legal[0])
    await c.until(lambda s: c.version == 1)
    await c.send("hint")
    after = await c.expect("hint", 60)
    assert after["v"] == 1 and after["d"]["hints"] == 2
    assert solver_calls(live) == calls + 2
    await other.send("hint")
    assert (await other.expect("hint", 10)) == after
    assert stored_hints(live, made["match_id"]) == 2

    # an undo is an event too: the position before it is asked again as new
    await c.send("undo")
    await c.until(lambda s: c.version == 2)
    await c.send("hint")
    assert (await c.expect("hint", 60))["d"]["hints"] == 3
    assert solver_calls(live) == calls + 3
    await c.close()
    await other.close()


async def test_a_decided_verdict_is_answered_again(live: LiveServer) -> None:
    """A verdict the solver decided for this position (winnable or unwinnable) is given
    again without a solver call; "unknown" is asked again."""
    made = await create(live.http, game="posthus", deal=DEAL + 1)
    c = await seat_socket(live, made)
    await c.send("verdict")
    first = await c.expect("verdict", 60)
    calls = solver_calls(live)
    await c.send("verdict")
    again = await c.expect("verdict", 60)
    if first["d"]["verdict"] == "unknown":
        assert solver_calls(live) == calls + 1
    else:
        assert again == first
        assert solver_calls(live) == calls
    await c.close()


async def test_an_answer_given_again_costs_the_socket_like_a_refusal(live: LiveServer
                                                                    ) -> None:
    """Answered again without the solver, a question is cheap for the server — so a
    flood would get its answers as fast as its budget lets it, 10× faster than its
    refusals did: each one costs the socket 11 messages more of its budget, as a
    refusal does (http/inflow.py).  Six of them on a socket of 10 messages a second
    (bursts of 20) take over 3 s; free, they took a few milliseconds."""
    made = await create(live.http, game="posthus", deal=DEAL + 2)
    c = await seat_socket(live, made)
    await c.send("hint")
    first = await c.expect("hint", 60)
    t0 = time.monotonic()
    for _ in range(6):
        await c.send("hint")
    for _ in range(6):
        assert (await c.expect("hint", 30)) == first
    # 1 + 6 × 12 messages of budget from a burst of 20: ≈ 53 over, read at 10 a second
    assert time.monotonic() - t0 > 3.0
    await c.close()


async def test_an_undecided_hint_is_solved_again_when_asked_again(tmp_path: Path) -> None:
    """A hint the solver could not decide in its budget (a loaded server: the verdict
    ``unknown``) is not kept: asking again at the same position asks the solver again —
    and is not counted as a second hint (the server's load is not the player's help).
    Failed before: the undecided answer came back without a solver call; then the
    second answer counted a second hint."""
    server = LiveServer(settings_for(str(tmp_path / "undecided.db"),
                                     hint_seconds=1e-6)).start()
    try:
        made = await create(server.http, game="posthus", deal=DEAL)
        c = await seat_socket(server, made)
        await c.send("act", action=c.state["legal"][0])  # past the shipped table's opening
        await c.expect("state")
        await c.send("hint")
        first = await c.expect("hint", 60)
        calls = solver_calls(server)
        await c.send("hint")
        again = await c.expect("hint", 60)
        assert first["d"]["verdict"] == again["d"]["verdict"] == "unknown"
        assert solver_calls(server) == calls + 1
        assert first["d"]["hints"] == again["d"]["hints"] == 1
        assert stored_hints(server, made["match_id"]) == 1
        await c.close()
    finally:
        server.stop()
