"""Scale-out benchmark (issue 9 target: two workers sustain ≥ 1.6× one worker's action
rate at p99 ≤ 100 ms).

Starts a throwaway PostgreSQL (fsync on, as in production) and Redis from the Debian
packages (tests/services.py), then for one worker and for two workers (shared mode:
PostgreSQL + Redis; clients spread over the workers directly, or through nginx with
``--nginx``) runs closed-loop clients on loopback: each client plays its own solitaire
(one action in flight, a new match when a game ends), at several client counts.  Prints
actions/s and p50/p99 latency per run and the best rate with p99 ≤ 100 ms per setup.
Bounded in time (``--seconds`` per run) and in clients.

    python bench/scale_out.py --quick
    python bench/scale_out.py --clients 20,40,80,160 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.services import Nginx, Postgres, Redis, Workers, worker_env  # noqa: E402

GAMES = ["posthus", "studenter"]
APP = "spillebord.server.app:create_app"


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0


async def client(http: httpx.AsyncClient, base_ws: str, rng: random.Random, stop: float,
                 out: Run) -> None:
    while time.monotonic() < stop:
        r = await http.post("/api/matches", json={"game": rng.choice(GAMES),
                                                  "deal": rng.randrange(10**6)})
        if r.status_code != 201:
            out.errors += 1
            return
        made = r.json()
        url = f"{base_ws}/ws/{made['match_id']}?token={made['token']}"
        async with websockets.connect(url, compression=None, max_size=2**22) as ws:
            state: dict[str, Any] = {}
            while True:  # welcome, then the first state
                m = json.loads(await ws.recv())
                if m["t"] == "state":
                    state, version = m["d"], m["v"]
                    break
            while time.monotonic() < stop:
                legal = [a for a in state["legal"] if a != "resign"]
                if state["outcome"] is not None or not legal:
                    break
                t0 = time.perf_counter()
                await ws.send(json.dumps({"t": "act", "v": version,
                                          "d": {"action": rng.choice(legal)}}))
                m = json.loads(await ws.recv())
                if m["t"] != "state" or m["v"] != version + 1:
                    out.errors += 1
                    return
                out.latencies.append(time.perf_counter() - t0)
                state, version = m["d"], m["v"]
            out.games += 1


TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int, children: bool = False) -> float:
    """CPU seconds a process used (with its reaped children's when ``children``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def cpu_tree(root: int) -> float:
    """A process, its reaped children and its live children (PostgreSQL backends)."""
    total = cpu_of(root, children=True)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == root:
                total += cpu_of(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


async def measure(targets: list[tuple[str, str]], clients: int, seconds: float,
                  warmup: float, pids: dict[str, list[int]]) -> dict[str, float]:
    # One HTTP client per target, shared: creating one per request costs the load
    # generator more CPU (TLS context set-up) than the server spends on the request.
    https = [httpx.AsyncClient(base_url=h, timeout=30,
                               limits=httpx.Limits(max_connections=clients + 8))
             for h, _ in targets]
    ends = [(https[i], ws) for i, (_h, ws) in enumerate(targets)]
    warm = Run()
    stop = time.monotonic() + warmup
    await asyncio.gather(*(client(*ends[i % len(ends)], random.Random(i), stop, warm)
                           for i in range(min(clients, 8))))
    out = Run()

    def cpu() -> dict[str, float]:
        got = {k: sum(cpu_tree(p) if k in ("postgres", "nginx") else cpu_of(p) for p in v)
               for k, v in pids.items()}
        got["client"] = time.process_time()
        return got

    cpu0 = cpu()
    t0 = time.monotonic()
    stop = t0 + seconds
    await asyncio.gather(*(client(*ends[i % len(ends)], random.Random(1000 + i),
                                  stop, out) for i in range(clients)))
    elapsed = time.monotonic() - t0
    cpu1 = cpu()
    for h in https:
        await h.aclose()
    n = max(1, len(out.latencies))
    per = {f"cpu_{k}": (cpu1[k] - cpu0[k]) / n * 1000 for k in cpu0}
    return {**per, "clients": clients, "rate": len(out.latencies) / elapsed,
            "p50": pct(out.latencies, 50) * 1000, "p99": pct(out.latencies, 99) * 1000,
            "errors": out.errors, "actions": len(out.latencies)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short runs, few client counts")
    ap.add_argument("--clients", default="", help="comma-separated client counts")
    ap.add_argument("--seconds", type=float, default=0.0, help="seconds per run")
    ap.add_argument("--nginx", action="store_true", help="two workers behind nginx")
    ap.add_argument("--workers", default="1,2", help="worker counts to compare")
    ap.add_argument("--no-fsync", action="store_true",
                    help="PostgreSQL with fsync off (diagnosis: is the disk the limit?)")
    args = ap.parse_args()
    counts = [int(x) for x in args.clients.split(",") if x] or (
        [16, 48] if args.quick else [8, 16, 32, 64, 128])
    seconds = args.seconds or (4.0 if args.quick else 10.0)
    warmup = 1.0 if args.quick else 2.0

    pg = Postgres.start(fsync=not args.no_fsync)
    redis = Redis.start()
    rows: list[tuple[str, dict[str, float]]] = []
    try:
        for n_workers in [int(x) for x in args.workers.split(",")]:
            db = pg.create_database(f"bench{n_workers}")
            workers = Workers.start(n_workers, worker_env(db, redis.url), app=APP)
            proxy = None
            try:
                if args.nginx and n_workers > 1:
                    proxy = Nginx.start([w.port for w in workers.items])
                    targets = [(proxy.http, proxy.ws)]
                else:
                    targets = [(w.http, w.ws) for w in workers.items]
                pids = {"workers": [w.proc.pid for w in workers.items if w.proc],
                        "postgres": [pg.postmaster_pid()], "redis": [redis.proc.pid]}
                if proxy is not None:
                    pids["nginx"] = [proxy.proc.pid]
                for n in counts:
                    r = asyncio.run(measure(targets, n, seconds, warmup, pids))
                    label = f"{n_workers} worker{'s' if n_workers > 1 else ''}"
                    rows.append((label, r))
                    print(f"{label:10} {n:5d} clients  {r['rate']:8.0f} actions/s  "
                          f"p50 {r['p50']:6.1f} ms  p99 {r['p99']:6.1f} ms  "
                          f"errors {r['errors']}", flush=True)
                    cpu = "  ".join(f"{k[4:]} {v:.2f}" for k, v in r.items()
                                    if k.startswith("cpu_"))
                    print(f"{'':27}CPU ms per action: {cpu}", flush=True)
            finally:
                if proxy is not None:
                    proxy.stop()
                workers.stop()
    finally:
        redis.stop()
        pg.stop()

    best: dict[str, float] = {}
    for label, r in rows:
        if r["p99"] <= 100 and r["errors"] == 0:
            best[label] = max(best.get(label, 0.0), r["rate"])
    print()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"cores: {os.cpu_count()}, load average {load} (load generator, PostgreSQL, "
          f"Redis{', nginx' if args.nginx else ''} and the workers share them)")
    for label, rate in best.items():
        print(f"best at p99 <= 100 ms, {label}: {rate:.0f} actions/s")
    if len(best) == 2:
        one, two = best["1 worker"], best["2 workers"]
        print(f"two workers / one worker: {two / one:.2f}x (target >= 1.6x)")


if __name__ == "__main__":
    main()
