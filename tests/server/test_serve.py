"""The real ``spillebord serve`` command (uvicorn on the app factory, settings from the
environment), a SIGKILL in the middle of a game, and bots running in threads instead of
the bot process."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.server.live import Client, LiveServer, create, free_port, settings_for

from spillebord import games
from spillebord.server.infra.settings import Settings


def test_settings_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPILLEBORD_DB", raising=False)
    assert Settings.from_env().db_url == "sqlite:///spillebord.db"
    monkeypatch.setenv("SPILLEBORD_DB", "sqlite:////tmp/x.db")
    monkeypatch.setenv("SPILLEBORD_BOT_DELAY", "0.25")
    monkeypatch.setenv("SPILLEBORD_WS_ECHO", "1")
    s = Settings.from_env()
    assert (s.db_url, s.bot_delay, s.ws_echo) == ("sqlite:////tmp/x.db", 0.25, True)


# A served process without its start-up's work for later (the warmed bot and solver
# processes, the coming days' daily deals): seconds of CPU a start that the tests of
# durability and frames never use (issue 30, session 11).  test_serve_command starts
# with the defaults, as an operator's ``spillebord serve`` does.
LEAN = {"SPILLEBORD_WARM": "0", "SPILLEBORD_DAILY_AHEAD": "0"}


def start_serve(port: int, db: Path, env: dict[str, str] | None = None
                ) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("spillebord")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "spillebord.cli.main"]
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
                            env={**os.environ, "SPILLEBORD_BOT_DELAY": "0", **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Generous for a loaded machine; a server that does not come up is killed, never left.
    deadline = time.monotonic() + 90
    while True:
        with contextlib.suppress(httpx.TransportError):
            # up and past its warm-up (before it the API answers 503 warming)
            if httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200:
                return proc
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"serve did not come up: {err[-2000:]}") from None
        time.sleep(0.2)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate, and kill if it has not ended in 20 s: no test leaves a server behind."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_serve_command(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "served.db"
    proc = start_serve(port, db)
    try:
        r = httpx.get(f"http://127.0.0.1:{port}/api/games")
        assert [g["key"] for g in r.json()] == games.keys()
        made = httpx.post(f"http://127.0.0.1:{port}/api/matches",
                          json={"game": games.keys()[0]})
        assert made.status_code == 201
        assert db.exists()  # the SQLite file from --db, migrated at start
    finally:
        stop(proc)


async def test_sigkill_loses_nothing_acknowledged(tmp_path: Path) -> None:
    """Kill the server process with SIGKILL right after acknowledgements; a new process
    on the same file has every acknowledged action and the game goes on."""
    key = games.keys()[0]
    db = tmp_path / "killed.db"
    port = free_port()
    proc = start_serve(port, db, LEAN)
    base = f"http://127.0.0.1:{port}"
    try:
        made = await create(base, game=key,
                            seats=["me", *[{"bot": "random"}] * (games.load(key).seat_counts[0]
                                                               - 1)], deal=99)
        c = await Client.open(f"ws://127.0.0.1:{port}", made["match_id"], made["token"])
        await c.expect("welcome")
        for _ in range(5):
            v0 = c.version
            st = await c.until(lambda s, v0=v0: bool(s["legal"]) and c.version >= v0)
            await c.send("act", action=next(a for a in st["legal"] if a != "resign"))
            await c.until(lambda s, v0=v0: c.version > v0)
        acked = c.version
        proc.kill()
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proc = start_serve(port, db, LEAN)
    try:
        info = httpx.get(f"{base}/api/matches/{made['match_id']}").json()
        assert info["status"] in ("running", "finished") and info["version"] >= acked
        again = await Client.open(f"ws://127.0.0.1:{port}", made["match_id"], made["token"])
        await again.expect("welcome")
        await again.send("sync", v=0)
        st = await again.until(lambda s: bool(s["events"]) and s["events"][0]["seq"] == 1)
        mine = [e["action"] for e in st["events"] if e["seat"] == 0]
        sent = [m["d"]["events"] for m in c.seen if m["t"] == "state"]
        acked_mine = [e["action"] for batch in sent for e in batch if e["seat"] == 0]
        assert mine[: len(acked_mine)] == acked_mine
        await again.close()
    finally:
        stop(proc)


TABLE = [k for k in list(games.keys()) if not games.load(k).is_solitaire]


@pytest.mark.skipif(not TABLE, reason="no table game registered")
async def test_bots_in_threads(tmp_path: Path) -> None:
    """SPILLEBORD_BOT_POOL=thread: the bots run in the server process's threads."""
    live = LiveServer(settings_for(str(tmp_path / "p.db"), bot_pool="thread")).start()
    try:
        key = TABLE[0]
        n = games.load(key).seat_counts[0]
        made = await create(live.http, game=key, seats=[{"bot": "random"}] * n)
        watcher = await Client.open(live.ws, made["match_id"])
        st = await watcher.until(lambda s: s["outcome"] is not None, timeout=180)
        assert st["status"] == "finished"
        await watcher.close()
    finally:
        live.stop()


async def test_serve_answers_big_frames_with_too_large(tmp_path: Path) -> None:
    """Issue 16: ``serve`` cut frames over 64 KiB off with close code 1009 and no
    message; every frame up to 1 MiB is now answered ``too_large`` on an open socket."""
    port = free_port()
    proc = start_serve(port, tmp_path / "frames.db", LEAN)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            made = (await http.post("/api/matches", json={"game": "posthus"})).json()
        c = await Client.open(f"ws://127.0.0.1:{port}", made["match_id"], made["token"])
        await c.expect("welcome")
        await c.expect("state")
        for size in (5_000, 70_000, 500_000, 1_000_000):
            await c.conn.send('{"t":"ping","v":0,"d":{"x":"' + "a" * size + '"}}')
            reply = await c.recv()
            assert reply["t"] == "error" and reply["d"]["code"] == "too_large", size
        await c.send("ping", n=1)
        assert (await c.recv())["t"] == "pong"
        await c.close()
    finally:
        stop(proc)
