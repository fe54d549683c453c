"""/metrics on the real app: play real actions and refusals over a socket, let bots play
a table, then read the counters back through the Prometheus text format; who may read
it (direct requests only; the bearer token when one is set)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.server.live import Client, LiveServer, create, settings_for


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(settings_for(str(tmp_path / "m.db"))).start()
    yield server
    server.stop()


def scrape(server: LiveServer, **headers: str) -> dict[tuple[str, tuple[tuple[str, str], ...]],
                                                       float]:
    r = httpx.get(f"{server.http}/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_actions_refusals_latency_and_gauges(live: LiveServer) -> None:
    before = scrape(live)
    assert value(before, "spillebord_sockets") == 0
    made = await create(live.http, game="posthus", deal=5)
    c = await Client.open(live.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    played = 0
    for _ in range(4):
        calm = [a for a in c.state["legal"] if a != "resign"]
        v0 = c.version
        await c.send("act", action=calm[0])
        msg = await c.recv()
        assert msg["t"] == "state" and msg["v"] == v0 + 1
        played += 1
    await c.send("undo")
    assert (await c.recv())["t"] == "state"
    await c.send("act", action="this is not a move")
    assert (await c.recv())["d"]["code"] == "illegal"
    await c.send("act", v=0, action="whatever")
    assert (await c.recv())["d"]["code"] == "stale"
    await c.send("act", action="x" * 500)
    assert (await c.recv())["d"]["code"] == "malformed"

    now = scrape(live)
    assert value(now, "spillebord_actions_total", game="posthus", kind="act",
                 by="human") == played
    assert value(now, "spillebord_actions_total", game="posthus", kind="undo",
                 by="human") == 1
    for code in ("illegal", "stale", "malformed"):
        assert value(now, "spillebord_refusals_total", code=code, via="ws") == 1, code
    # every acknowledged action (4 acts and the undo) has a latency; refusals do not
    assert value(now, "spillebord_action_seconds_count", game="posthus") == played + 1
    total = value(now, "spillebord_action_seconds_sum", game="posthus")
    assert 0 < total < 5
    assert value(now, "spillebord_action_seconds_bucket", game="posthus",
                 le="+Inf") == played + 1
    # the group writer committed the match's creation and the five events
    assert value(now, "spillebord_writer_batch_size_sum") >= played + 1
    assert value(now, "spillebord_writer_commit_seconds_count") >= 1
    assert value(now, "spillebord_sockets") == 1
    assert value(now, "spillebord_live_games", game="posthus") == 1
    assert value(now, "spillebord_draining") == 0
    assert value(now, "process_cpu_seconds_total") > 0
    await c.close()
    deadline = time.monotonic() + 5
    while value(scrape(live), "spillebord_sockets") != 0:
        assert time.monotonic() < deadline, "the socket was not counted out"
        await asyncio.sleep(0.05)


async def test_http_refusals_and_bot_decisions(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.http) as http:
        r = await http.post("/api/matches", json={"game": "no-such-game"})
        assert r.status_code >= 400
        code = r.json()["detail"]["code"]
    made = await create(live.http, game="gammel_jomfru",
                        seats=[{"bot": "random"}] * 3)
    assert made["match_id"]
    # A bots-only table thinks in the low lane (nice +10): on a loaded machine its worker
    # process starts and loads its kernels slowly, by design.
    deadline = time.monotonic() + 120
    while True:
        now = scrape(live)
        bot_acts = value(now, "spillebord_actions_total", game="gammel_jomfru",
                         kind="act", by="bot")
        if bot_acts >= 3 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert bot_acts >= 3
    assert value(now, "spillebord_refusals_total", code=code, via="http") == 1
    # a bots-only table's bots think in the bot pool's low lane (infra/fair_queue.py)
    assert value(now, "spillebord_compute_seconds_count", pool="bots-low") >= bot_acts
    assert value(now, "spillebord_compute_queue", pool="bots-low") in (0, 1)


def test_only_direct_requests_read_metrics(live: LiveServer) -> None:
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
        r = httpx.get(f"{live.http}/metrics", headers={header: "203.0.113.9"})
        assert r.status_code == 404 and "spillebord" not in r.text


def test_metrics_token(tmp_path: Path) -> None:
    server = LiveServer(settings_for(str(tmp_path / "t.db"),
                                     metrics_token="s3cret-scrape")).start()
    try:
        url = f"{server.http}/metrics"
        assert httpx.get(url).status_code == 404
        assert httpx.get(url, headers={"Authorization": "Bearer wrong"}).status_code == 404
        ok = httpx.get(url, headers={"Authorization": "Bearer s3cret-scrape"})
        assert ok.status_code == 200 and "spillebord_sockets" in ok.text
    finally:
        server.stop()
