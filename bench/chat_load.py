"""Chat under load: do 1,000 chat lines a second across 200 table rooms slow the games?
Prints a table.

    python bench/chat_load.py                 # 100 paced solitaire sockets, 200 rooms
    python bench/chat_load.py --quick         # 40 sockets, 60 rooms, shorter phases

Starts one uvicorn worker in a subprocess (temporary SQLite, chat rate limit lifted
through SPILLEBORD_CHAT_BURST/EVERY), then:

1. *games alone*: ``--players`` sockets each play Posthus with random legal actions,
   paced at ``--rate`` actions per second per socket (one in flight), for ``--seconds``;
   the act → state latency's median and p99 are recorded;
2. *games with chat*: the same games, while ``--rooms`` Gammel Jomfru rooms (two seated
   sockets each) say ``--lines`` chat lines per second in all (each line goes to both
   seats of its room); the games' latency again, and each line's say → heard latency.

Target (issue 15): 1,000 lines/s across 200 rooms without the games' paced p99 growing
by more than 20 %.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from rich.console import Console
from rich.table import Table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def wait_up(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(300):
            try:
                if (await http.get("/api/games")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start")


async def player(base: str, ws_base: str, rate: float, until: float,
                 out: list[float]) -> None:
    rng = random.Random()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.perf_counter() < until:
            made = (await http.post("/api/matches", json={"game": "posthus"})).json()
            async with websockets.connect(f"{ws_base}/ws/{made['match_id']}") as ws:
                await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"token": made["token"]}}))
                state = None
                while state is None:
                    msg = json.loads(await ws.recv())
                    if msg["t"] == "state" and msg["d"]["seat"] == 0:
                        state = msg
                while time.perf_counter() < until and state["d"]["outcome"] is None:
                    legal = [a for a in state["d"]["legal"] if a != "resign"]
                    if not legal:
                        break
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"t": "act", "v": state["v"],
                                              "d": {"action": rng.choice(legal)}}))
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg["t"] in ("state", "error"):
                            break
                    out.append(time.perf_counter() - sent)
                    if msg["t"] == "state":
                        state = msg
                    await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - sent)))


async def room(base: str, ws_base: str, per_seat: float, until: float, ready: asyncio.Event,
               heard: list[float], said: list[int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/api/matches", json={
            "game": "gammel_jomfru", "seats": ["me", "human"]})).json()
        claimed = (await http.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                   json={})).json()
    socks = []
    for token in (made["token"], claimed["token"]):
        ws = await websockets.connect(f"{ws_base}/ws/{made['match_id']}")
        await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"token": token}}))
        socks.append(ws)

    async def listen(ws: websockets.ClientConnection) -> None:
        async for text in ws:
            msg = json.loads(text)
            if msg["t"] == "chat":
                heard.append(time.time() - float(msg["d"]["text"].split()[1]))

    listeners = [asyncio.create_task(listen(ws)) for ws in socks]
    await ready.wait()
    i = 0
    while time.perf_counter() < until:
        ws = socks[i % 2]
        await ws.send(json.dumps({"t": "chat", "v": 0, "d": {"text": f"linje {time.time()}"}}))
        said[0] += 1
        i += 1
        await asyncio.sleep(1 / (2 * per_seat))
    await asyncio.sleep(1.0)
    for t in listeners:
        t.cancel()
    for ws in socks:
        await ws.close()


async def run(args: argparse.Namespace, base: str) -> list[tuple[str, str, str, str, str]]:
    await wait_up(base)
    ws_base = base.replace("http://", "ws://")
    rows = []
    alone: list[float] = []
    until = time.perf_counter() + args.seconds
    failed = [r for r in await asyncio.gather(
        *(player(base, ws_base, args.rate, until, alone) for _ in range(args.players)),
        return_exceptions=True) if isinstance(r, BaseException)]
    if failed:
        print(f"{len(failed)} players failed, e.g. {failed[0]!r}")
    rows.append(("games alone", f"{len(alone) / args.seconds:.0f}/s",
                 f"{statistics.median(alone) * 1e3:.1f}", f"{pct(alone, 0.99) * 1e3:.1f}", "—"))
    ready = asyncio.Event()
    heard: list[float] = []
    said = [0]
    start_rooms = time.perf_counter() + args.seconds + 30
    rooms = [asyncio.create_task(room(base, ws_base, args.lines / args.rooms / 2, start_rooms,
                                      ready, heard, said)) for _ in range(args.rooms)]
    await asyncio.sleep(2.0)  # rooms connected
    with_chat: list[float] = []
    ready.set()
    t0 = time.perf_counter()
    until = t0 + args.seconds
    failed = [r for r in await asyncio.gather(
        *(player(base, ws_base, args.rate, until, with_chat) for _ in range(args.players)),
        return_exceptions=True) if isinstance(r, BaseException)]
    if failed:
        print(f"{len(failed)} players failed, e.g. {failed[0]!r}")
    chat_rate = said[0] / (time.perf_counter() - t0)
    for t in rooms:
        t.cancel()
    if not with_chat:
        raise SystemExit(f"no game action finished in {args.seconds} s with chat "
                         f"({said[0]} lines said): the worker is saturated")
    rows.append(("games with chat", f"{len(with_chat) / args.seconds:.0f}/s",
                 f"{statistics.median(with_chat) * 1e3:.1f}",
                 f"{pct(with_chat, 0.99) * 1e3:.1f}",
                 f"{chat_rate:.0f} lines/s said; heard p50 "
                 f"{statistics.median(heard) * 1e3 if heard else float('nan'):.0f} ms, "
                 f"p99 {pct(heard, 0.99) * 1e3:.0f} ms"))
    ratio = pct(with_chat, 0.99) / pct(alone, 0.99)
    rows.append(("p99 ratio", "", "", f"{ratio:.2f}", "target ≤ 1.20"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--rate", type=float, default=10.0)
    ap.add_argument("--rooms", type=int, default=200)
    ap.add_argument("--lines", type=float, default=1000.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.players, args.rooms, args.lines, args.seconds = 40, 60, 300.0, 8.0
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SPILLEBORD_DB": f"sqlite:///{Path(tmp) / 'c.db'}",
               "SPILLEBORD_RATE": "100000", "SPILLEBORD_BOT_DELAY": "0",
               "SPILLEBORD_CHAT_BURST": "1000", "SPILLEBORD_CHAT_EVERY": "0.001",
               "SPILLEBORD_WARM": "0"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "spillebord.server.app:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
             "--ws-ping-interval", "0", "--no-access-log"], env=env)
        try:
            rows = asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.terminate()
            proc.wait(20)
    table = Table(title=f"Paced games ({args.players} sockets × {args.rate:g}/s) and chat "
                        f"({args.rooms} rooms, {args.lines:g} lines/s asked)")
    for col in ("phase", "actions", "median ms", "p99 ms", "chat"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    console = Console()
    console.print(table)
    console.print(f"cores: {os.cpu_count()}; load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
