"""Load benchmark for the game server (issue 7 targets: one worker ≥ 1,000 actions/s,
p99 ≤ 50 ms at 200 sockets, ≥ half the raw WebSocket echo rate of the same stack).

Starts one uvicorn worker in a subprocess (temporary SQLite file, ``/ws-echo`` enabled
through SPILLEBORD_WS_ECHO=1), opens N WebSocket clients on loopback that each play a
solitaire with random legal actions (one action in flight per socket, a new match when
a game ends), then measures the raw echo rate through the same stack with the same
number of sockets.  Bounded in time (``--seconds``) and in games (``--max-games``).

    python bench/server_load.py --quick
    python bench/server_load.py --clients 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


COMPRESSION: list[str | None] = ["deflate"]  # what the clients offer (browsers: deflate)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    errors: int = 0
    samples: list[str] = field(default_factory=list)  # received state messages


SAMPLES = 2000  # state messages kept from the flood for the state-size echo


def start_server(port: int, db: str, src: str = "") -> subprocess.Popen[bytes]:
    """One uvicorn worker; ``src``: run an earlier source tree's server (its ``src``
    folder first on the path) with this environment's packages."""
    env = {**os.environ, "SPILLEBORD_DB": f"sqlite:///{db}", "SPILLEBORD_WS_ECHO": "1",
           "SPILLEBORD_BOT_DELAY": "0", "SPILLEBORD_RATE": "100000",
           "SPILLEBORD_LIMITS": "off"}  # the quotas: the clients make a match a game
    if src:
        env["PYTHONPATH"] = src
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "spillebord.server.app:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--ws-ping-interval", "0", "--no-access-log"],
        env=env)


async def wait_up(base: str) -> None:
    """Until the server answers and is ready: ``/readyz`` 200, i.e. its start-up warm-up
    (infra/warmup.py: a bot decision of every level and the solvers' kernels, in the
    worker processes) is over — measured while it still ran, the server shared the two
    cores with it and its CPU per action rose with the contention."""
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(6000):  # a loaded machine (or nice 19) can take minutes
            try:
                if (await http.get("/api/games")).status_code == 200 and (
                        await http.get("/readyz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("server did not start")


def children_cpu(pid: int) -> float:
    """CPU seconds of the server's child processes (its bot and solver workers)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def wait_settled(pid: int, quiet: float = 0.05, longest: float = 240.0) -> float:
    """Until the server's start-up work in its worker processes is over (both trees
    have ≈ 15 s of it after ``/readyz`` on a fresh database: the new tree chooses the
    week's daily deals, the old one warmed its workers after answering ready): their
    CPU below ``quiet`` of a core over two seconds.  Measured beside it, the server
    shared the two cores with it, differently in each tree.  The seconds waited."""
    start = time.perf_counter()
    before = children_cpu(pid)
    while time.perf_counter() - start < longest:
        await asyncio.sleep(2.0)
        now = children_cpu(pid)
        if now - before < 2.0 * quiet:
            break
        before = now
    return time.perf_counter() - start


async def new_match(http: httpx.AsyncClient, game: str) -> tuple[str, str]:
    r = await http.post("/api/matches", json={"game": game})
    r.raise_for_status()
    body = r.json()
    return body["match_id"], body["token"]


async def open_game(ws_base: str, match: tuple[str, str]) -> tuple[Any, dict[str, Any], int]:
    """Connect to a match with its token; the socket and the first state."""
    url = f"{ws_base}/ws/{match[0]}?token={match[1]}"
    ws = await websockets.connect(url, compression=COMPRESSION[0])
    while True:  # welcome, then the first state
        msg = orjson.loads(await ws.recv())
        if msg["t"] == "state":
            return ws, msg["d"], msg["v"]


async def player(ws_base: str, http: httpx.AsyncClient, game: str, clock: dict[str, float],
                 max_games: list[int], totals: Totals, rng: random.Random,
                 first: tuple[Any, dict[str, Any], int], interval: float) -> None:
    """Play games on one socket, starting on an open one.  ``interval`` > 0 paces the
    actions (a player who acts every ``interval`` seconds, catching up when late); 0 acts
    as fast as answers come.  A finished game is followed by a new match and socket."""
    ws, state, version = first
    stop_at = clock["stop"]
    next_at = clock["start"] + rng.random() * interval
    while True:
        try:
            while time.perf_counter() < stop_at and state["outcome"] is None:
                legal = [a for a in state["legal"] if a != "resign"] or state["legal"]
                if interval > 0:
                    next_at += interval
                    wait = next_at - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    if time.perf_counter() >= stop_at:
                        break
                t0 = time.perf_counter()
                # orjson: the load generator should spend its CPU share on the
                # sockets, not on parsing (the server's share is what is measured).
                await ws.send(orjson.dumps({"t": "act", "v": version,
                                            "d": {"action": rng.choice(legal)}}).decode())
                raw = await ws.recv()
                msg = orjson.loads(raw)
                while msg["t"] not in ("state", "error"):  # seats, chat: not the answer
                    raw = await ws.recv()
                    msg = orjson.loads(raw)
                totals.latencies.append(time.perf_counter() - t0)
                if len(totals.samples) < SAMPLES:
                    totals.samples.append(raw)
                if msg["t"] != "state":
                    totals.errors += 1
                    continue
                state, version = msg["d"], msg["v"]
                totals.actions += 1
            totals.games += state["outcome"] is not None
        finally:
            await ws.close()
        if time.perf_counter() >= stop_at or max_games[0] <= 0:
            return
        max_games[0] -= 1
        ws, state, version = await open_game(ws_base, await new_match(http, game))


ANSWERS_PER_SOCKET = 64  # state texts primed on each socket of the act → state echo


async def open_echo(ws_base: str, start: int, answers: list[str] | None) -> Any:
    """An echo socket; with ``answers``, primed with its share of them (the server then
    answers each message with the next of these instead of echoing it)."""
    url = f"{ws_base}/ws-echo" + ("?answers=1" if answers else "")
    ws = await websockets.connect(url, compression=COMPRESSION[0])
    if answers:
        mine = [answers[(start + k) % len(answers)] for k in range(ANSWERS_PER_SOCKET)]
        await ws.send(orjson.dumps(mine).decode())
    return ws


async def echo_client(ws: Any, stop_at: float, totals: Totals, payloads: list[str],
                      start: int) -> None:
    """Send, wait for the answer, repeat.  ``payloads`` rotate (the state-size variant
    sends real state messages in turn, so deflate's context does not see one text again
    and again)."""
    i = start
    while time.perf_counter() < stop_at:
        t0 = time.perf_counter()
        await ws.send(payloads[i % len(payloads)])
        i += 1
        await ws.recv()
        totals.latencies.append(time.perf_counter() - t0)
        totals.actions += 1


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of a process's event loop thread (the main thread) and of all its
    other threads together (the database writer, the WAL checkpointer, thread pools)."""
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        key = "loop" if task.name == str(pid) else "threads"
        out[key] = out.get(key, 0.0) + (int(fields[11]) + int(fields[12])) / tick
        if key == "loop":  # kernel time: socket reads and writes, epoll, wake-ups
            out["loop_sys"] = int(fields[12]) / tick
    return out


def run_queue_wait(pid: int) -> float:
    """Seconds the process's threads spent runnable but waiting for a CPU (Linux
    schedstat): how much the rest of the machine held the server back."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class Meter:
    """The clock and CPU counters of one timed phase, and the phase's figures."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.server0, self.client0 = cpu_seconds(pid), own_cpu()
        self.wait0, self.threads0 = run_queue_wait(pid), thread_cpu(pid)
        self.t0 = time.perf_counter()

    def result(self, mode: str, totals: Totals) -> dict[str, Any]:
        seconds = time.perf_counter() - self.t0
        server_cpu = cpu_seconds(self.pid) - self.server0
        client_cpu = own_cpu() - self.client0
        waited = run_queue_wait(self.pid) - self.wait0
        n = max(1, totals.actions)
        return {
            "mode": mode, "seconds": round(seconds, 2), "actions": totals.actions,
            "games": totals.games, "errors": totals.errors,
            "actions_per_s": round(totals.actions / seconds),
            "p50_ms": round(pct(totals.latencies, 0.5), 2),
            "p99_ms": round(pct(totals.latencies, 0.99), 2),
            "max_ms": round(max(totals.latencies, default=0) * 1000, 2),
            "server_cpu_pct": round(100 * server_cpu / seconds),
            "server_wait_pct": round(100 * waited / seconds),
            "server_cpu_us_per_action": round(server_cpu / n * 1e6),
            **per_thread(self.threads0, thread_cpu(self.pid), totals.actions),
            "client_cpu_pct": round(100 * client_cpu / seconds),
            "client_us_per_action": round(client_cpu / n * 1e6),
        }


async def play_phase(base: str, ws_base: str, pid: int, args: argparse.Namespace,
                     rate: float) -> dict[str, Any]:
    """One timed phase of game play; ``rate`` 0 = flood (no pacing)."""
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        matches = [await new_match(http, args.game) for _ in range(args.clients)]
        # Every socket is open before the clock starts: the figures are steady play.
        firsts = await asyncio.gather(*[open_game(ws_base, m) for m in matches])
        totals = Totals()
        budget = [args.max_games]
        interval = args.clients / rate if rate > 0 else 0.0
        meter = Meter(pid)
        clock = {"start": meter.t0, "stop": meter.t0 + args.seconds}
        await asyncio.gather(*[
            player(ws_base, http, args.game, clock, budget, totals,
                   random.Random(i), firsts[i], interval) for i in range(args.clients)])
        result = meter.result(f"paced {rate:g}/s" if rate > 0 else "flood", totals)
    return {**result, "_samples": totals.samples}


def per_thread(before: dict[str, float], after: dict[str, float], n: int) -> dict[str, int]:
    """µs per action of the event loop thread (and the kernel's part of it) and of the
    other threads."""
    def us(key: str) -> int:
        return round((after.get(key, 0.0) - before.get(key, 0.0)) / max(1, n) * 1e6)
    return {"loop_us": us("loop"), "loop_sys_us": us("loop_sys"), "threads_us": us("threads")}


ACT = json.dumps({"t": "act", "v": 12, "d": {"action": "8H c2"}})


async def echo_phase(ws_base: str, pid: int, args: argparse.Namespace,
                     payloads: list[str] | None = None,
                     answers: list[str] | None = None) -> dict[str, Any]:
    """Echo flood; ``payloads`` None: an ``act``-sized message (the target's
    definition), else these texts (the state-size variant); ``answers``: act-sized
    messages answered with these texts (an action's traffic, no game)."""
    texts = payloads or [ACT]
    echo = Totals()
    # Every socket is open (and primed) before the clock starts.
    sockets = await asyncio.gather(*[open_echo(ws_base, i * 7, answers)
                                     for i in range(args.clients)])
    meter = Meter(pid)
    await asyncio.gather(*[echo_client(ws, meter.t0 + args.echo_seconds, echo, texts, i * 7)
                           for i, ws in enumerate(sockets)])
    result = meter.result("act → state echo" if answers else
                          "echo flood" if payloads is None else "echo state-size", echo)
    await asyncio.gather(*[ws.close() for ws in sockets])
    return result


async def games_phase(base: str, ws_base: str, pid: int, n: int) -> dict[str, Any]:
    """``n`` new games one after another, as a player starts one: ``POST /api/matches``,
    the socket opened with the seat token up to the first state, closed.  The server's
    CPU per new game (µs, in the "per action" columns) — in the flood a finished game
    is followed by a new one every ≈ 170 actions, so this is part of an action's cost."""
    totals = Totals()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        meter = Meter(pid)
        for _ in range(n):
            t0 = time.perf_counter()
            ws, _state, _version = await open_game(ws_base, await new_match(http, "posthus"))
            await ws.close()
            totals.latencies.append(time.perf_counter() - t0)
            totals.actions += 1
        return meter.result("new game", totals)


async def run(args: argparse.Namespace, src: str = "") -> dict[str, Any]:
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, str(Path(tmp) / "bench.db"), src)
        try:
            await wait_up(base)
            settled = await wait_settled(proc.pid) if args.settle else 0.0
            if args.warmup > 0:  # untimed: first-call costs, caches, SQLite file growth
                warm = argparse.Namespace(**{**vars(args), "seconds": args.warmup})
                await play_phase(base, ws_base, proc.pid, warm, 0)
            phases = []
            if args.rate > 0:
                phases.append(await play_phase(base, ws_base, proc.pid, args, args.rate))
            phases.append(await play_phase(base, ws_base, proc.pid, args, 0))
            samples = phases[-1]["_samples"]
            phases.append(await echo_phase(ws_base, proc.pid, args))
            if args.new_games > 0:
                phases.append(await games_phase(base, ws_base, proc.pid, args.new_games))
            if args.echo_state and samples:
                phases.append(await echo_phase(ws_base, proc.pid, args, samples))
                phases.append(await echo_phase(ws_base, proc.pid, args, answers=samples))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=120)
            except subprocess.TimeoutExpired:  # a stop stuck (e.g. in its warm-up): kill
                proc.kill()
                proc.wait()
    for phase in phases:
        phase.pop("_samples", None)
    flood = next(p for p in phases if p["mode"] == "flood")
    echo = next(p for p in phases if p["mode"] == "echo flood")
    sized = [p for p in phases if p["mode"] == "echo state-size"]
    shaped = [p for p in phases if p["mode"] == "act → state echo"]
    extra = {}
    if sized and shaped:
        extra = {"state_message_bytes": round(sum(map(len, samples)) / len(samples)),
                 "flood_to_state_echo": round(flood["actions_per_s"]
                                              / max(1, sized[0]["actions_per_s"]), 2),
                 "flood_to_act_state_echo": round(flood["actions_per_s"]
                                                  / max(1, shaped[0]["actions_per_s"]), 2),
                 "act_state_echo_to_echo": round(shaped[0]["actions_per_s"]
                                                 / max(1, echo["actions_per_s"]), 2)}
    return {
        "game": args.game, "clients": args.clients, "deflate": COMPRESSION[0] is not None,
        "cpus": os.cpu_count(), "load_avg_1min": round(os.getloadavg()[0], 2),
        "settled_s": round(settled, 1), "phases": phases,
        "flood_to_echo": round(flood["actions_per_s"] / max(1, echo["actions_per_s"]), 2),
        "cpu_cost_vs_echo": round(echo["server_cpu_us_per_action"]
                                  / max(1, flood["server_cpu_us_per_action"]), 2),
        **extra,
    }


def compare(args: argparse.Namespace) -> None:
    """Old tree and this tree alternately (old first, then new, ``--rounds`` times): the
    server's CPU µs per action of each phase, each run's own line, then the medians."""
    old_src = str(Path(args.before).resolve() / "src")
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "now": []}
    for k in range(args.rounds):
        order = [("before", old_src), ("now", "")]
        for name, src in order[::-1] if k % 2 else order:  # alternate who goes first
            result = asyncio.run(run(args, src))
            runs[name].append(result)
            cells = "  ".join(f"{p['mode']} {p['server_cpu_us_per_action']} µs "
                              f"(loop {p['loop_us']}, threads {p['threads_us']})"
                              for p in result["phases"])
            print(f"round {k + 1} {name:>6}: load {result['load_avg_1min']} (settled "
                  f"{result['settled_s']} s)  {cells}",
                  flush=True)
    modes = [p["mode"] for p in runs["now"][0]["phases"]]
    print(f"medians over {args.rounds} runs each, server CPU µs per action "
          f"({os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} at the end):")
    for mode in modes:
        def med(name: str, mode: str = mode) -> float:
            values = sorted(p["server_cpu_us_per_action"] for r in runs[name]
                            for p in r["phases"] if p["mode"] == mode)
            return float(values[len(values) // 2])
        before, now = med("before"), med("now")
        # Each round's own ratio too: the two runs of a round are minutes apart at
        # most, so a slow drift of the machine's load (the old tree's flood alone
        # spread 149-239 µs over one evening) cancels in it.
        pairs = sorted(
            p_now["server_cpu_us_per_action"] / max(1, p_old["server_cpu_us_per_action"])
            for r_old, r_now in zip(runs["before"], runs["now"], strict=True)
            for p_old in r_old["phases"] for p_now in r_now["phases"]
            if p_old["mode"] == mode == p_now["mode"])
        print(f"  {mode:>14}: before {before:.0f}  now {now:.0f}  "
              f"now/before {now / max(1.0, before):.2f}  (rounds' own ratios "
              f"{' '.join(f'{r:.2f}' for r in pairs)}, median "
              f"{statistics.median(pairs):.2f})")
    if args.json:
        print(json.dumps(runs))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=200)
    p.add_argument("--seconds", type=float, default=15.0)
    p.add_argument("--echo-seconds", type=float, default=None)
    p.add_argument("--max-games", type=int, default=5000)
    p.add_argument("--game", default="posthus")
    p.add_argument("--rate", type=float, default=1000.0,
                   help="paced phase: total actions/s over all sockets (0: skip)")
    p.add_argument("--warmup", type=float, default=2.0, help="untimed seconds of play first")
    p.add_argument("--quick", action="store_true", help="20 clients, 3 seconds per phase")
    p.add_argument("--json", action="store_true")
    p.add_argument("--echo-state", action="store_true",
                   help="also echo real state messages (the size the server sends after "
                        "an action) instead of act-sized ones, and answer act-sized "
                        "messages with them (an action's traffic, no game)")
    p.add_argument("--new-games", type=int, default=0,
                   help="also: server CPU per new game (POST /api/matches, the socket "
                        "opened to its first state, closed), over this many games")
    p.add_argument("--no-deflate", action="store_true",
                   help="clients do not offer permessage-deflate")
    p.add_argument("--before", default="",
                   help="an earlier source tree (a checkout's root): run it and this tree "
                        "alternately, --rounds times each, and print CPU per action side "
                        "by side")
    p.add_argument("--rounds", type=int, default=3, help="with --before: runs of each tree")
    p.add_argument("--no-settle", dest="settle", action="store_false",
                   help="measure as soon as the server is ready, beside its workers' "
                        "start-up work (before session 10's default)")
    args = p.parse_args()
    if args.quick:
        args.clients, args.seconds, args.rate, args.warmup = 20, 3.0, 200.0, 1.0
    if args.no_deflate:
        COMPRESSION[0] = None
    if args.echo_seconds is None:
        args.echo_seconds = min(args.seconds, 10.0)
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    if args.before:
        compare(args)
        return
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    print(f"game {result['game']}, {result['clients']} sockets, deflate "
          f"{result['deflate']}, {result['cpus']} cpus, load {result['load_avg_1min']}")
    cols = list(result["phases"][0])
    print("  ".join(f"{c:>12}" for c in cols))
    for phase in result["phases"]:
        print("  ".join(f"{phase[c]!s:>12}" for c in cols))
    print(f"flood actions/s ÷ echo messages/s: {result['flood_to_echo']}; "
          f"echo CPU per message ÷ CPU per action: {result['cpu_cost_vs_echo']}")
    if "flood_to_state_echo" in result:
        print(f"state-size echo ({result['state_message_bytes']} bytes): flood actions/s ÷ "
              f"its messages/s: {result['flood_to_state_echo']}; act → state echo: "
              f"flood ÷ it {result['flood_to_act_state_echo']}, it ÷ act echo "
              f"{result['act_state_echo_to_echo']} (the most any server answering with "
              f"state messages could reach)")


if __name__ == "__main__":
    main()
