"""Drain hands a game's bots over (two workers, PostgreSQL + Redis): an all-bot table is
played by whichever worker owns the game (its lease); that worker gets SIGTERM, releases the
lease while draining, and the other worker's driver takes the bots over and plays on —
read back from both workers' /metrics (game leases held and taken)."""

from __future__ import annotations

import asyncio
import signal
import time

import httpx
import pytest
from tests.scale.cluster import cluster, metric, post
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services


async def test_drain_hands_the_bots_over(postgres: Postgres, redis_server: Redis,
                                         pg_url: str) -> None:
    # Bots at a watchable pace, so the game is still running when the worker drains.
    # The draining worker stays up 6 s (SPILLEBORD_DRAIN_SECONDS): the bots must move
    # to the other worker while it still runs, not only when its connections close.
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_BOT_DELAY="0.3",
                 SPILLEBORD_BOT_POOL="thread", SPILLEBORD_DRAIN_SECONDS="6") as w:
        assert await metric(w[0], "spillebord_redis_connected") == 1
        made = await post(w[0].http, "/api/matches", {
            "game": "gammel_jomfru", "seats": [{"bot": "random"}] * 4})
        match = made["match_id"]
        async with httpx.AsyncClient(timeout=10) as http:
            await http.get(f"{w[1].http}/api/matches/{match}")  # both workers hold it
        deadline = time.monotonic() + 20
        while True:
            held = [await metric(x, "spillebord_game_leases_held") for x in w.items]
            if sum(held) == 1:
                break
            assert time.monotonic() < deadline, f"no worker took the bots: {held}"
            await asyncio.sleep(0.1)
        driver, other = (w[0], w[1]) if held[0] == 1 else (w[1], w[0])
        taken_before = await metric(other, "spillebord_game_leases_taken_total")
        assert driver.proc is not None
        driver.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        while await metric(other, "spillebord_game_leases_taken_total") <= taken_before:
            assert time.monotonic() < deadline, "the other worker never took the bots over"
            await asyncio.sleep(0.1)
        assert driver.proc.poll() is None, "taken over only once the draining worker exited"
        assert await metric(driver, "spillebord_draining") == 1
        assert await metric(driver, "spillebord_game_leases_held") == 0
        await asyncio.to_thread(driver.proc.wait, 30)
        async with httpx.AsyncClient(timeout=10) as http:
            url = f"{other.http}/api/matches/{match}"
            start = (await http.get(url)).json()["version"]
            deadline = time.monotonic() + 30
            while True:  # and it plays them on (to the end or five more moves)
                info = (await http.get(url)).json()
                if info["status"] == "finished" or info["version"] >= start + 5:
                    break
                assert time.monotonic() < deadline, "the game stopped after the drain"
                await asyncio.sleep(0.2)
