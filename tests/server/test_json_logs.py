"""Logs as JSON lines (SPILLEBORD_LOG_JSON=1): a real uvicorn process with debug
logging serves the secret-carrying session of test_logs.py; every line of its log is one
JSON object, every line about a game names the match and the seat, and not one token,
invite code or password is in it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
from tests.server.test_logs import session
from tests.services import ROOT, _stop, free_port, wait_port, wait_warm

from spillebord.server.infra.logs import redact


async def with_password(base: str) -> str:
    """Ask for an account with a password (whatever the answer, it must not be logged)."""
    password = "correct horse battery staple 42"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/account", json={"name": "Logtester", "password": password})
        assert r.status_code == 201, r.text
    return password


def test_json_lines_with_match_and_seat_and_no_secrets(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "SPILLEBORD_DB": f"sqlite:///{tmp_path / 'j.db'}",
           "SPILLEBORD_BOT_DELAY": "0", "SPILLEBORD_WARM": "0", "SPILLEBORD_LOG_JSON": "1",
           "SPILLEBORD_SOLVER_POOL": "thread", "SPILLEBORD_BOT_POOL": "thread"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "spillebord.server.app:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "debug",
             "--access-log"], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        wait_port(port, 40, proc)
        wait_warm(port, 120, proc)  # past the warm-up: before it, the API answers 503
        base = f"http://127.0.0.1:{port}"
        secrets = asyncio.run(session(base, f"ws://127.0.0.1:{port}"))
        secrets.append(asyncio.run(with_password(base)))
    finally:
        _stop(proc, 20)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert lines and all({"ts", "level", "logger", "msg"} <= set(x) for x in lines)
    # uvicorn's own access lines are JSON too, redacted
    assert any(x["logger"] == "uvicorn.access" and "/join/[redacted]" in x["msg"]
               for x in lines)
    about_games = [x for x in lines if x["logger"] == "spillebord.server.http.ws"]
    assert len(about_games) >= 6  # three sockets opened and closed, bad tokens
    assert all(isinstance(x.get("match_id"), str) and "seat" in x for x in about_games)
    opened = [x for x in about_games if x["msg"] == "socket opened (seat)"]
    assert opened and all(x["seat"] == 0 for x in opened)
    assert any(x["msg"].startswith("a token that opens no seat") for x in about_games)
    text = log.read_text()
    leaked = [s for s in secrets if s in text]
    assert leaked == [], [line for line in text.splitlines() if any(s in line for s in leaked)][:5]


def test_redaction_of_passwords() -> None:
    assert redact('{"name": "a", "password": "hunter2"}') == \
        '{"name": "a", "password": "[redacted]"}'
