"""Graceful drain of a real worker process (SQLite): on SIGTERM it answers /readyz with
503, refuses new game sockets (503 before the upgrade) and new games (503 draining),
closes its game sockets with 1012 (the page reconnects at once) and exits; every
acknowledged action is in the database when a new worker starts on it."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import httpx
import pytest
import websockets
from tests.services import Worker, free_port, worker_env


async def _play(ws: websockets.ClientConnection, n: int) -> int:
    """Play ``n`` acknowledged actions; the version reached."""
    state: dict = {}
    version = 0
    while True:  # welcome, then the state
        msg = json.loads(await ws.recv())
        if msg["t"] == "state":
            state, version = msg["d"], msg["v"]
            break
    for _ in range(n):
        calm = [a for a in state["legal"] if a != "resign"]
        await ws.send(json.dumps({"t": "act", "v": version, "d": {"action": calm[0]}}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["t"] == "state":
                break
            assert msg["t"] == "seats", msg
        assert msg["v"] == version + 1
        state, version = msg["d"], msg["v"]
    return version


def test_sigterm_drains_then_exits(tmp_path: Path) -> None:
    env = worker_env(f"sqlite:///{tmp_path / 'd.db'}", None, SPILLEBORD_DRAIN_SECONDS="2",
                     SPILLEBORD_WARM="0")
    worker = Worker(free_port(), env).start()
    try:
        asyncio.run(_scenario(worker))
        assert worker.proc is not None
        worker.proc.wait(20)  # it exits by itself once drained
        out = worker.output()
        assert "draining: 1 game sockets" in out and "drained: 0 game sockets left" in out
    finally:
        worker.stop()
    # every acknowledged action is there for the next worker
    again = Worker(free_port(), env).start()
    try:
        assert asyncio.run(_version(again, _made["match_id"])) == _played["n"]
    finally:
        again.stop()


_made: dict = {}
_played: dict = {}


async def _scenario(worker: Worker) -> None:
    async with httpx.AsyncClient(base_url=worker.http, timeout=30) as http:
        made = (await http.post("/api/matches", json={"game": "posthus", "deal": 9})).json()
        _made.update(made)
        url = f"{worker.ws}/ws/{made['match_id']}?token={made['token']}"
        async with websockets.connect(url) as ws:
            version = await _play(ws, 3)
            _played["n"] = version
            assert (await http.get("/readyz")).status_code == 200
            assert worker.proc is not None
            worker.proc.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 5
            while (r := await http.get("/readyz")).status_code == 200:
                assert time.monotonic() < deadline, "never reported draining"
                await asyncio.sleep(0.05)
            assert r.status_code == 503 and r.json()["checks"]["not_draining"] is False
            assert (await http.get("/healthz")).status_code == 200
            scraped = (await http.get("/metrics")).text
            assert "spillebord_draining 1.0" in scraped
            # no new games, no new sockets; the open one still plays meanwhile
            refused = await http.post("/api/matches", json={"game": "posthus"})
            assert refused.status_code == 503
            assert refused.json()["detail"]["code"] == "draining"
            with pytest.raises(websockets.InvalidStatus) as no:
                await websockets.connect(url)
            assert no.value.response.status_code == 503
            calm = [a for a in (await _state(ws, version))["legal"] if a != "resign"]
            await ws.send(json.dumps({"t": "act", "v": version, "d": {"action": calm[0]}}))
            while (msg := json.loads(await ws.recv()))["t"] != "state":
                pass
            _played["n"] = msg["v"]
            # then the socket is closed with 1012 (service restart)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == 1012


async def _state(ws: websockets.ClientConnection, version: int) -> dict:
    await ws.send(json.dumps({"t": "sync", "v": version, "d": {}}))
    while True:
        msg = json.loads(await ws.recv())
        if msg["t"] == "state":
            return dict(msg["d"])


async def _version(worker: Worker, match_id: str) -> int:
    async with websockets.connect(f"{worker.ws}/ws/{match_id}") as ws:
        while True:
            msg = json.loads(await ws.recv())
            if msg["t"] == "state":
                return int(msg["v"])
