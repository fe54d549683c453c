"""Record real ``state`` messages for the renderers' node tests (tests/js/renderers.test.js).

Starts ``spillebord serve`` on a free loopback port (temporary SQLite, fast bots), plays
each game over its real WebSocket as a seat — and watches it as a spectator — and keeps
chosen positions as JSON fixtures in tests/js/fixtures/: the match info, the seat, the
``state`` message's ``d`` and ``v``.  Moves are a seeded random choice among ``legal``
(never ``resign`` until the game is to end), so a run is repeatable for fixed deals.

    python tests/js/record_states.py            # refresh every fixture
    UPDATE_GOLDEN=1 node --test tests/js/renderers.test.js   # then the golden DOM texts
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "js" / "fixtures"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


class Socket:
    """One WebSocket of a match: keeps the latest state and the version."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.v = 0

    async def next_state(self, timeout: float = 20) -> dict[str, Any]:
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if msg["t"] == "state":
                self.state, self.v = msg["d"], msg["v"]
                return msg["d"]  # type: ignore[no-any-return]
            if msg["t"] == "error" and msg["d"]["code"] not in ("stale",):
                raise RuntimeError(f"refused: {msg['d']}")

    async def send(self, t: str, d: dict[str, Any]) -> None:
        await asyncio.sleep(0.03)  # under the server's 50 messages a second
        await self.ws.send(json.dumps({"t": t, "v": self.v, "d": d}))


def save(name: str, game: str, match: dict[str, Any], seat: int | None, sock: Socket) -> None:
    assert sock.state is not None
    OUT.mkdir(parents=True, exist_ok=True)
    fixture = {"name": name, "game": game, "seat": seat, "match": match,
               "v": sock.v, "state": sock.state}
    (OUT / f"{name}.json").write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    print(f"  {name}: v{sock.v} {sock.state['status']}")


async def play(base: str, game: str, seats: list[Any], deal: Any, name: str,
               keep: list[int], rng: random.Random, spectate: bool = False,
               limit: int = 600) -> None:
    """Play one match as seat 0 (random legal moves); save the positions after the
    `keep` numbers of my moves, the finished game, and (spectate) a spectator's views."""
    created = http(base, "POST", "/api/matches", {"game": game, "seats": seats, "deal": deal})
    mid = created["match_id"]
    ws_url = base.replace("http", "ws") + f"/ws/{mid}"
    async with websockets.connect(ws_url) as raw, websockets.connect(ws_url) as raw_watch:
        me, watch = Socket(raw), Socket(raw_watch)
        await me.send("hello", {"token": created["token"]})
        st = await me.next_state()
        while st["seat"] != 0:
            st = await me.next_state()
        await watch.next_state()
        match = http(base, "GET", f"/api/matches/{mid}")
        save(f"{name}-start", game, match, 0, me)
        if spectate:
            save(f"{name}-spectator-start", game, match, None, watch)
        moves = 0
        while st["status"] != "finished":
            if st["legal"]:
                options = [a for a in st["legal"] if a != "resign"]
                if moves >= limit and "resign" not in st["legal"]:
                    return  # a long table game: its start and middle are enough
                action = rng.choice(options) if options and moves < limit else "resign"
                await me.send("act", {"action": action})
                moves += 1
            st = await me.next_state()
            if st["legal"] and moves in keep:
                save(f"{name}-move{moves}", game, http(base, "GET", f"/api/matches/{mid}"), 0, me)
                if spectate:
                    while watch.v < me.v:
                        await watch.next_state()
                    save(f"{name}-spectator-move{moves}", game,
                         http(base, "GET", f"/api/matches/{mid}"), None, watch)
                keep = [k for k in keep if k != moves]
        final = http(base, "GET", f"/api/matches/{mid}")
        save(f"{name}-finished", game, final, 0, me)
        if spectate:
            while watch.state is None or watch.state["status"] != "finished":
                await watch.next_state()
            save(f"{name}-spectator-finished", game, final, None, watch)


async def record(base: str) -> None:
    rng = random.Random(21)
    await play(base, "studenter", ["me"], 7, "studenter", [12], rng)
    await play(base, "posthus", ["me"], 7, "posthus", [10], rng)
    bot = {"bot": "random"}
    await play(base, "gammel_jomfru", ["me", bot, bot], "random", "gammel_jomfru-3", [3], rng,
               spectate=True)
    await play(base, "kugler", ["me", bot, bot, bot], "random", "kugler-4", [6], rng,
               spectate=True, limit=400)
    await play(base, "kugler", ["me", bot, bot, bot, bot, bot], "random", "kugler-6", [2], rng,
               limit=40)


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    exe = shutil.which("spillebord", path=str(Path(sys.executable).parent)) or "spillebord"
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SPILLEBORD_BOT_DELAY": "0.01", "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen([exe, "serve", "--port", str(port), "--db",
                                 f"sqlite:///{tmp}/record.db"], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    http(base, "GET", "/api/games")
                    break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            for old in OUT.glob("*.json"):
                old.unlink()
            asyncio.run(record(base))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
