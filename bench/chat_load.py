"""Chat under load: do 1,000 chat lines a second across 200 table rooms slow the games?
Prints a table.

    python bench/chat_load.py                 # 100 paced solitaire sockets, 200 rooms
    python bench/chat_load.py --quick         # 40 sockets, 60 rooms, shorter windows

Starts one worker (``spillebord serve``, temporary SQLite, chat rate limit lifted through
SPILLEBORD_CHAT_BURST/EVERY, its log kept and its errors shown), then two client
processes of its own, so neither side's work delays the other's clock readings:

* the *games*: ``--players`` sockets each play Posthus with random legal actions, paced at
  ``--rate`` actions per second per socket (one in flight), the whole run; every
  act → state latency is recorded with its time;
* the *chat*: ``--rooms`` Gammel Jomfru rooms (two seated sockets each) connected the
  whole run, saying ``--lines`` lines per second in all — but only in the *chat on*
  windows; each line's say → heard latency is recorded (both seats hear it).

The run has ``--windows`` windows of ``--seconds`` each, chat off, on, on, off, off, on,
on, off …, so both conditions see the same machine (other work on the shared cores comes
and goes) and a drift over the run (a warming database, a busier machine) weighs on both
alike; the first second of each window is not counted.  The server's CPU per window and per
chat line is shown too: on a shared machine it is the steadier figure.  ``--pin`` runs the
server on the first CPU and the client processes on the others (the clients' own chat
work — parsing 2,000 lines a second — then cannot take the server's CPU, but the games'
client shares its core with the chat's).  ``--yield-cpu`` runs the chat clients at the
lowest priority (nice 19), so their work — which a real deployment does on the players'
machines — takes only CPU time the server and the games' client leave.  The games' p99
in the *on* windows over the p99 in the *off* windows is the figure.  ``--separate-chat``
sends the rooms to a second server process instead, so the games' server does no chat
work: the ratio a chat process of its own could reach at best on the same cores.  Target (issue 15):
1,000 lines/s across 200 rooms without the games' paced p99 growing by more than 20 %.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import queue
import random
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets
from rich.console import Console
from rich.table import Table

import serving

ENV = {"SPILLEBORD_RATE": "100000", "SPILLEBORD_BOT_DELAY": "0", "SPILLEBORD_CHAT_BURST": "1000",
       "SPILLEBORD_CHAT_EVERY": "0.001", "SPILLEBORD_WARM": "0"}
SETTLE = 1.0  # seconds at the start of a window that are not counted


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def pin(cpus: set[int] | None) -> None:
    """Keep this client process (and the threads it starts) on ``cpus`` (None:
    anywhere), on uvloop when it is installed (less of the clients' CPU per message)."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        import uvloop
    except ImportError:
        return
    uvloop.install()


def start_server(tmp: Path, cpus: set[int] | None) -> tuple[subprocess.Popen[bytes], str]:
    return serving.start_server(tmp, ENV, cpus)


# -- the games' process ---------------------------------------------------------------
async def player(base: str, rate: float, until: float, out: list[tuple[float, float]]) -> None:
    rng = random.Random()
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.time() < until:
            made = (await http.post("/api/matches", json={"game": "posthus"})).json()
            async with websockets.connect(f"{ws_base}/ws/{made['match_id']}") as ws:
                await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"token": made["token"]}}))
                state = None
                while state is None:
                    msg = orjson.loads(await ws.recv())
                    if msg["t"] == "state" and msg["d"]["seat"] == 0:
                        state = msg
                # Each player at its own phase of the pace (players are independent:
                # sockets that all act at the same instant would measure the bursts).
                await asyncio.sleep(rng.random() / rate)
                while time.time() < until and state["d"]["outcome"] is None:
                    legal = [a for a in state["d"]["legal"] if a != "resign"]
                    if not legal:
                        break
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"t": "act", "v": state["v"],
                                              "d": {"action": rng.choice(legal)}}))
                    while True:
                        msg = orjson.loads(await ws.recv())
                        if msg["t"] in ("state", "error"):
                            break
                    took = time.perf_counter() - sent
                    out.append((time.time(), took))
                    if msg["t"] == "state":
                        state = msg
                    await asyncio.sleep(max(0.0, 1 / rate - took))


def games_main(base: str, players: int, rate: float, start: float, until: float,
               results: Any, cpus: set[int] | None) -> None:
    pin(cpus)
    async def go() -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        await asyncio.sleep(max(0.0, start - time.time()))
        gathered = await asyncio.gather(*(player(base, rate, until, out)
                                          for _ in range(players)), return_exceptions=True)
        failed = [r for r in gathered if isinstance(r, BaseException)]
        if failed:
            print(f"{len(failed)} players failed, e.g. {failed[0]!r}")
        return out
    results.put(("games", asyncio.run(go())))


# -- the chat's process ---------------------------------------------------------------
async def room(base: str, per_seat: float, windows: list[tuple[float, float, bool]],
               ready: asyncio.Event, go: asyncio.Event, heard: list[tuple[float, float]],
               said: list[float]) -> None:
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
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
            msg = orjson.loads(text)
            if msg["t"] == "chat":
                at = time.time()
                heard.append((at, at - float(msg["d"]["text"].split()[1])))

    listeners = [asyncio.create_task(listen(ws)) for ws in socks]
    ready.set()
    await go.wait()  # ``windows`` is filled in once every room stands
    i = 0
    gap = 1 / (2 * per_seat)
    for start, end, on in windows:
        if not on:
            continue
        await asyncio.sleep(max(0.0, start - time.time() + random.random() * gap))
        while time.time() < end:
            await socks[i % 2].send(json.dumps({"t": "chat", "v": 0,
                                                "d": {"text": f"linje {time.time()}"}}))
            said.append(time.time())
            i += 1
            await asyncio.sleep(gap)
    await asyncio.sleep(1.0)
    for t in listeners:
        t.cancel()
    for ws in socks:
        await ws.close()


def chat_main(base: str, rooms: int, lines: float, plan: Any, results: Any, started: Any,
              cpus: set[int] | None, yield_cpu: bool) -> None:
    """Connect the rooms, say so (``started``), take the windows from ``plan``, chat."""
    pin(cpus)
    if yield_cpu:
        os.nice(19)  # (capped at 19) the chat clients stand in for other machines

    async def run_rooms() -> tuple[list[tuple[float, float]], list[float]]:
        heard: list[tuple[float, float]] = []
        said: list[float] = []
        windows: list[tuple[float, float, bool]] = []
        go = asyncio.Event()
        gate = asyncio.Semaphore(20)
        readies = [asyncio.Event() for _ in range(rooms)]

        async def one(ready: asyncio.Event) -> None:
            async with gate:
                task = asyncio.create_task(room(base, lines / rooms / 2, windows, ready, go,
                                                heard, said))
                await ready.wait()
            await task

        tasks = [asyncio.create_task(one(r)) for r in readies]
        await asyncio.gather(*(r.wait() for r in readies))
        started.set()
        windows += await asyncio.to_thread(plan.get)
        go.set()
        await asyncio.gather(*tasks)
        return heard, said
    results.put(("chat", asyncio.run(run_rooms())))


# -- the run --------------------------------------------------------------------------
def in_windows(stamps: list[float], windows: list[tuple[float, float, bool]],
               on: bool) -> tuple[list[int], float]:
    """Indices of ``stamps`` inside the counted part of the ``on`` (or off) windows, and
    the counted seconds."""
    spans = [(s + SETTLE, e) for s, e, w in windows if w == on]
    keep = [i for i, t in enumerate(stamps) if any(s <= t < e for s, e in spans)]
    return keep, sum(e - s for s, e in spans)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_seconds(pid: int) -> float:
    """Seconds the server's event loop thread (its main thread) was ready to run but
    waited for a CPU (Linux schedstat): how much the rest of the machine held it back."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def sample_cpu(pid: int, windows: list[tuple[float, float, bool]],
               out: dict[bool, float], waited: dict[bool, float]) -> None:
    """Add the server's CPU seconds (and its loop's seconds waiting for a CPU) in the
    counted part of each window to ``out`` (``waited``)."""
    for start, end, on in windows:
        time.sleep(max(0.0, start + SETTLE - time.time()))
        before, wait_before = cpu_seconds(pid), waited_seconds(pid)
        time.sleep(max(0.0, end - time.time()))
        out[on] = out.get(on, 0.0) + cpu_seconds(pid) - before
        waited[on] = waited.get(on, 0.0) + waited_seconds(pid) - wait_before


def measure(base: str, server_pid: int, args: argparse.Namespace,
            client_cpus: set[int] | None, chat_base: str | None = None,
            chat_pid: int | None = None) -> list[tuple[str, ...]]:
    """``chat_base``, ``chat_pid``: the rooms' own server (``--separate-chat``)."""
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    started = ctx.Event()
    plan = ctx.Queue()
    # The chat rooms connect first; the windows start once they all stand.
    chat = ctx.Process(target=chat_main, args=(chat_base or base, args.rooms, args.lines, plan,
                                               results, started, client_cpus,
                                               args.yield_cpu))
    chat.start()
    if not started.wait(timeout=600):
        raise SystemExit("the chat rooms did not connect within 10 minutes")
    t0 = time.time() + 6.0  # the games' process starts and connects meanwhile
    windows = [(t0 + k * args.seconds, t0 + (k + 1) * args.seconds, k % 4 in (1, 2))
               for k in range(args.windows)]
    plan.put(windows)
    games = ctx.Process(target=games_main, args=(base, args.players, args.rate,
                                                 t0 - 3.0, windows[-1][1], results,
                                                 client_cpus))
    games.start()
    cpu: dict[bool, float] = {}
    waited: dict[bool, float] = {}
    sampler = threading.Thread(target=sample_cpu, args=(server_pid, windows, cpu, waited),
                               daemon=True)
    sampler.start()
    chat_cpu: dict[bool, float] = {}
    if chat_pid is not None:  # the chat's own server: its CPU gives the cost per line
        threading.Thread(target=sample_cpu, args=(chat_pid, windows, chat_cpu, {}),
                         daemon=True).start()
    got: dict[str, Any] = {}
    while len(got) < 2:
        try:
            kind, value = results.get(timeout=5)
            got[kind] = value
        except queue.Empty:
            if any(p.exitcode not in (None, 0) for p in (chat, games)):
                raise SystemExit("a client process failed (its error is above)") from None
    chat.join()
    games.join()
    sampler.join()
    acts: list[tuple[float, float]] = got["games"]
    heard, said = got["chat"]
    rows: list[tuple[str, ...]] = []
    p99: dict[bool, float] = {}
    for on in (False, True):
        idx, secs = in_windows([t for t, _ in acts], windows, on)
        lat = [acts[i][1] for i in idx]
        p99[on] = pct(lat, 0.99)
        chat_cell = "—"
        if on:
            said_idx, _ = in_windows(said, windows, True)
            heard_idx, _ = in_windows([t for t, _ in heard], windows, True)
            h = [heard[i][1] for i in heard_idx]
            chat_cell = (f"{len(said_idx) / secs:.0f} lines/s said, "
                         f"{len(h) / secs:.0f}/s heard; heard p50 "
                         f"{statistics.median(h) * 1e3 if h else float('nan'):.0f} ms, "
                         f"p99 {pct(h, 0.99) * 1e3:.0f} ms")
        rows.append((f"chat {'on' if on else 'off'}", f"{100 * cpu[on] / secs:.0f} %",
                     f"{100 * waited[on] / secs:.0f} %",
                     f"{len(lat) / secs:.0f}/s",
                     f"{statistics.median(lat) * 1e3 if lat else float('nan'):.1f}",
                     f"{p99[on] * 1e3:.1f}", f"{max(lat, default=0) * 1e3:.1f}", chat_cell))
    said_on = len(in_windows(said, windows, True)[0])
    by_chat = chat_cpu if chat_pid is not None else cpu
    per_line = (by_chat[True] - by_chat[False]) / said_on if said_on else float("nan")
    rows.append(("p99 on/off", f"+{per_line * 1e6:.0f} µs/line", "", "", "",
                 f"{p99[True] / p99[False]:.2f}", "", "target ≤ 1.20"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--rate", type=float, default=10.0)
    ap.add_argument("--rooms", type=int, default=200)
    ap.add_argument("--lines", type=float, default=1000.0)
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each window")
    ap.add_argument("--windows", type=int, default=8, help="off, on, on, off, off, on, on, "
                                                            "off … (a multiple of 4 is "
                                                            "balanced)")
    ap.add_argument("--pin", action=argparse.BooleanOptionalAction, default=False,
                    help="server on the first CPU, the client processes on the others, so "
                         "the clients' chat work does not take the server's CPU")
    ap.add_argument("--yield-cpu", action="store_true",
                    help="run the chat clients at the lowest priority (nice 19): in a real "
                         "deployment their work is on the players' machines")
    ap.add_argument("--separate-chat", action="store_true",
                    help="the chat rooms talk to a second server process: the games' "
                         "server does no chat work (what a chat process of its own would "
                         "buy at most on these cores; the CPU per line is the second's)")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.players, args.rooms, args.lines, args.seconds, args.windows = 40, 60, 300.0, 5, 4
    console = Console(width=160)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        cpus = sorted(os.sched_getaffinity(0))
        server_cpus = client_cpus = None
        if args.pin and len(cpus) >= 2:  # the server's core, the clients' core(s)
            server_cpus, client_cpus = {cpus[0]}, set(cpus[1:])
        proc, base = start_server(Path(tmp), server_cpus)
        chat_dir = Path(tmp) / "chat"
        chat_dir.mkdir()
        chat_proc = start_server(chat_dir, server_cpus) if args.separate_chat else None
        try:
            rows = measure(base, proc.pid, args, client_cpus,
                           chat_proc[1] if chat_proc else None,
                           chat_proc[0].pid if chat_proc else None)
        finally:
            serving.stop_server(proc, Path(tmp), console)
            if chat_proc is not None:
                serving.stop_server(chat_proc[0], chat_dir, console)
    table = Table(title=f"Paced games ({args.players} sockets × {args.rate:g}/s) and chat "
                        f"({args.rooms} rooms, {args.lines:g} lines/s asked), "
                        f"{args.windows} windows of {args.seconds:g} s (off, on, on, off …)"
                        f"{', server and clients on separate cores' if args.pin else ''}"
                        f"{', chat clients at nice 19' if args.yield_cpu else ''}"
                        f"{', chat on a second server process' if args.separate_chat else ''}")
    for col in ("phase", "server CPU", "loop waited for a CPU", "actions", "median ms",
                "p99 ms", "max ms", "chat"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    console.print(f"cores: {os.cpu_count()}; load average before: "
                  f"{', '.join(f'{x:.1f}' for x in load_before)}; after: "
                  f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
