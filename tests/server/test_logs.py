"""Seat tokens and invite codes never reach the logs (issue 16): a uvicorn process with
its access log on (and debug logging: the WebSocket library logs every frame) serves a
whole session — create, the invite page, claim, sockets with
``?token=`` (good and bad) and ``hello``, the record with a bearer token — and its log
is searched for every secret it handed out."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import websockets
from tests.services import ROOT, _stop, free_port, wait_port, wait_warm


async def session(base: str, ws_base: str) -> list[str]:
    """Play through the secret-carrying requests; the secrets used."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/api/matches", json={
            "game": "gammel_jomfru", "seats": ["me", "human", "human"]})).json()
        solo = (await http.post("/api/matches", json={"game": "posthus"})).json()
        codes = [i["code"] for i in made["invites"]]
        await http.get(f"/join/{codes[0]}")
        claimed = (await http.post(f"/api/invites/{codes[0]}/claim")).json()
        await http.post(f"/api/invites/{codes[0]}/claim")  # used: 410, still logged
        await http.get(f"/api/matches/{solo['match_id']}/record",
                       headers={"Authorization": f"Bearer {solo['token']}"})
    tokens = [made["token"], claimed["token"], solo["token"]]
    for mid, token in ((made["match_id"], made["token"]), (solo["match_id"], solo["token"]),
                       (made["match_id"], claimed["token"][::-1])):
        async with websockets.connect(f"{ws_base}/ws/{mid}?token={token}") as ws:
            await ws.recv()
            await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"token": tokens[1]}}))
            await ws.send(json.dumps({"t": "hello", "d": {"token": codes[1]}}))
            for _ in range(3):
                await ws.recv()
    return [*tokens, claimed["token"][::-1], *codes]


def test_no_token_or_invite_code_in_the_logs(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "SPILLEBORD_DB": f"sqlite:///{tmp_path / 'l.db'}",
           "SPILLEBORD_BOT_DELAY": "0", "SPILLEBORD_WARM": "0",
           # (test_json_logs.py starts with the daily deals chosen ahead, as production)
           "SPILLEBORD_DAILY_AHEAD": "0",
           "SPILLEBORD_SOLVER_POOL": "thread", "SPILLEBORD_BOT_POOL": "thread"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "spillebord.server.app:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "debug",
             "--access-log"], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        wait_port(port, 40, proc)
        wait_warm(port, 120, proc)  # past the warm-up: before it, the API answers 503
        secrets = asyncio.run(session(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"))
    finally:
        _stop(proc, 20)
    text = log.read_text(errors="replace")
    # The log did record the requests (so the search means something) …
    assert "/api/invites/[redacted]/claim" in text and "/join/[redacted]" in text
    assert "token=[redacted]" in text and "WebSocket /ws/" in text
    # … and not one secret.
    leaked = [s for s in secrets if s in text]
    lines = [line for line in text.splitlines() if any(s in line for s in leaked)]
    assert leaked == [], lines[:5]
