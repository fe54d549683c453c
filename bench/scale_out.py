"""Scale-out benchmark.

``--cpu`` (issue 20): CPU per action of the whole stack at the same offered load, side by
side in one run — the single-process server on SQLite, shared mode with one worker, and
shared mode with two workers (``--nginx``: behind nginx, which hashes the match id;
``--forwarded``: every socket on the worker that does not own its game) — read from
/proc for every process (workers, PostgreSQL with all its backends, Redis, nginx).
Targets: shared ≤ 2× SQLite; two workers ≤ 1.1× one worker.  Setups alternate round by
round (the order reversed every other round) so a noisy machine hits them alike; the
medians, and the ratios of the same round, are compared.  ``--per-worker`` adds one
worker at half the offered load and two workers at twice it: the CPU an action costs
depends on how busy each process is, and these pairs compare setups whose workers each
run at the same rate.  ``--before DIR`` adds both shared setups (and, with
``--forwarded``, the forwarded one) running the server of another source tree (a git
worktree of an earlier commit, or ``git archive … src | tar -x -C DIR``), in the same
rounds.  Every shared setup also shows its round trips per action, read from its own
Redis (commands processed: announcements, forwarded moves and their answers) and its own
PostgreSQL database (transactions, reads and writes, from ``pg_stat_database``).

    nice -n 10 python bench/scale_out.py --cpu --rate 200 --clients 20 --rounds 3

Without ``--cpu`` (issue 9 target: two workers sustain ≥ 1.6× one worker's action
rate at p99 ≤ 100 ms):

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
import contextlib
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

from server_load import thread_cpu  # noqa: E402

GAMES = ["posthus", "studenter"]
HALF = "shared, 1 worker, half the load"
BEFORE = "before"
DOUBLE = "shared, 2 workers, twice the load"
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


def by_thread(pids: dict[str, list[int]]) -> dict[str, float]:
    """``--threads``: CPU seconds of the workers' event-loop threads and of their other
    threads (the group writer, the threads that read the database), and of every
    PostgreSQL process by its title (a backend by its database, a background process
    by its name)."""
    out: dict[str, float] = {}
    for pid in pids.get("workers", []):
        for key, seconds in thread_cpu(pid).items():
            if key != "loop_sys":
                name = "worker loop" if key == "loop" else "worker other threads"
                out[name] = out.get(name, 0.0) + seconds
    for root in pids.get("postgres", []):
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) != root:
                    continue
                title = (stat.parent / "cmdline").read_bytes().decode().replace("\0", " ")
            except (OSError, ValueError, IndexError):
                continue
            words = title.split()
            # "postgres: postgres cpu1 127.0.0.1(5555) idle" or "postgres: walwriter"
            key = ("pg db " + words[2] if len(words) > 3 and "(" in words[3]
                   else "pg " + " ".join(words[1:3]))
            out[key] = out.get(key, 0.0) + (int(fields[11]) + int(fields[12])) / TICK
    return out


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


# -- --cpu: CPU per action at the same offered load -------------------------------------
@dataclass
class Paced:
    actions: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)


async def paced_client(http: httpx.AsyncClient, ws_base: str, rng: random.Random,
                       interval: float, stop: asyncio.Event, out: Paced,
                       owner: tuple[httpx.AsyncClient, str] | None = None) -> None:
    """Play solitaires at one action per ``interval`` seconds (a new game when one
    ends).  ``owner``: create the game there and make its first move from a socket
    there (that worker owns it; the socket stays open), then play from ``ws_base``."""
    next_at = time.monotonic() + rng.random() * interval
    while not stop.is_set():
        maker = owner[0] if owner else http
        r = await maker.post("/api/matches", json={"game": rng.choice(GAMES),
                                                   "deal": rng.randrange(10**6)})
        if r.status_code != 201:
            out.errors += 1
            await asyncio.sleep(0.5)
            continue
        made = r.json()
        path = f"/ws/{made['match_id']}?token={made['token']}"
        anchor = None
        if owner is not None:
            anchor = await websockets.connect(owner[1] + path, compression=None)
        try:
            async with websockets.connect(ws_base + path, compression=None,
                                          max_size=2**22) as ws:
                first = anchor if anchor is not None else ws
                state: dict[str, Any] | None
                state, version = await _first_state(first)
                if anchor is not None:  # the first move from the owner's socket
                    state, version = await _act(anchor, state, version, rng)
                    if state is None:
                        continue
                    state, version = await _first_state(ws, version)
                while not stop.is_set() and state is not None:
                    delay = next_at - time.monotonic()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    next_at = max(next_at + interval, time.monotonic() - interval)
                    t0 = time.perf_counter()
                    state, version = await _act(ws, state, version, rng)
                    if state is not None:
                        out.actions += 1
                        out.latencies.append(time.perf_counter() - t0)
        except (OSError, websockets.ConnectionClosed):
            out.errors += 1
        finally:
            if anchor is not None:
                await anchor.close()


async def _first_state(ws: Any, at_least: int = 0) -> tuple[dict[str, Any], int]:
    while True:
        m = json.loads(await ws.recv())
        if m["t"] == "state" and m["v"] >= at_least:
            return m["d"], m["v"]


async def _act(ws: Any, state: dict[str, Any], version: int, rng: random.Random
               ) -> tuple[dict[str, Any] | None, int]:
    """One action; (None, v) when the game is over."""
    legal = [a for a in state["legal"] if a != "resign"]
    if state["outcome"] is not None or not legal:
        return None, version
    await ws.send(json.dumps({"t": "act", "v": version, "d": {"action": rng.choice(legal)}}))
    while True:
        m = json.loads(await ws.recv())
        if m["t"] == "state" and m["v"] > version:
            return m["d"], m["v"]
        if m["t"] == "error":
            raise OSError(f"refused: {m['d']}")


@dataclass
class Stack:
    name: str
    targets: list[tuple[str, str]]  # (http, ws) per worker, or nginx's
    pids: dict[str, list[int]]
    stop: list[Any]
    forwarded: bool = False
    workers: list[str] = field(default_factory=list)  # each worker's own http address
    redis_url: str = ""  # shared mode: this stack's own Redis and database
    db: str = ""


def round_trips(stack: Stack) -> tuple[float, float]:
    """(Redis commands processed, database transactions) of a shared stack so far."""
    if not stack.redis_url:
        return 0.0, 0.0
    import psycopg
    import redis

    from spillebord.server.scale.factory import psycopg_dsn

    client = redis.Redis.from_url(stack.redis_url)
    try:
        commands = float(client.info("stats")["total_commands_processed"])
    finally:
        client.close()
    with psycopg.connect(psycopg_dsn(stack.db), autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                           "WHERE datname = current_database()").fetchone()
    return commands, float(row[0]) if row else 0.0


async def batches(workers: list[str]) -> tuple[float, float]:
    """(group-writer batches, requests in them) of all workers, from their /metrics."""
    total = [0.0, 0.0]
    async with httpx.AsyncClient(timeout=10) as http:
        for base in workers:
            text = (await http.get(f"{base}/metrics")).text
            for line in text.splitlines():
                if line.startswith("spillebord_writer_batch_size_count"):
                    total[0] += float(line.split()[-1])
                elif line.startswith("spillebord_writer_batch_size_sum"):
                    total[1] += float(line.split()[-1])
    return total[0], total[1]


async def measure_paced(stack: Stack, clients: int, rate: float, warmup: float,
                        seconds: float, seed: int, threads: bool = False
                        ) -> dict[str, float]:
    https = [httpx.AsyncClient(base_url=h, timeout=30,
                               limits=httpx.Limits(max_connections=clients + 8))
             for h, _ in stack.targets]
    stop = asyncio.Event()
    out = Paced()
    interval = clients / rate
    tasks = []
    for i in range(clients):
        k = i % len(stack.targets)
        owner = None
        if stack.forwarded:  # own on k, play from the other worker
            owner = (https[k], stack.targets[k][1])
            k = (k + 1) % len(stack.targets)
        tasks.append(asyncio.create_task(paced_client(
            https[k], stack.targets[k][1], random.Random(seed + i), interval, stop, out,
            owner)))
    await asyncio.sleep(warmup)

    def cpu() -> dict[str, float]:
        return {k: sum(cpu_tree(p) for p in v) for k, v in stack.pids.items()}

    trips0 = round_trips(stack)
    cpu0, n0, t0 = cpu(), out.actions, time.monotonic()
    th0 = by_thread(stack.pids) if threads else {}
    b0 = await batches(stack.workers) if threads else (0.0, 0.0)
    lat0 = len(out.latencies)
    await asyncio.sleep(seconds)
    cpu1, n1, t1 = cpu(), out.actions, time.monotonic()
    trips1 = round_trips(stack)
    th1 = by_thread(stack.pids) if threads else {}
    b1 = await batches(stack.workers) if threads else (0.0, 0.0)
    lats = out.latencies[lat0:]
    stop.set()
    await asyncio.wait(tasks, timeout=15)
    for h in https:
        await h.aclose()
    n = max(1, n1 - n0)
    per = {f"cpu_{k}": (cpu1[k] - cpu0[k]) / n * 1000 for k in cpu0}
    per["cpu_total"] = sum(per.values())
    if stack.redis_url:  # my own two reads are in it: negligible against n actions
        per["redis_cmds"] = (trips1[0] - trips0[0]) / n
        per["db_xacts"] = (trips1[1] - trips0[1]) / n
    per.update({f"thread {k}": (v - th0.get(k, 0.0)) / n * 1000 for k, v in th1.items()})
    if b1[0] > b0[0]:
        per["batch"] = (b1[1] - b0[1]) / (b1[0] - b0[0])  # requests per writer batch
    return {**per, "rate": n / (t1 - t0), "p50": pct(lats, 50) * 1000,
            "p99": pct(lats, 99) * 1000, "errors": out.errors}


def pin(pids: list[int]) -> None:
    """``--pin``: worker i of a stack on core i (every thread; threads started later
    inherit it) — one worker per core, as on a host with a core for each worker
    (systemd ``CPUAffinity=``).  PostgreSQL, Redis and the load generator float."""
    cores = sorted(os.sched_getaffinity(0))
    for i, pid in enumerate(pids):
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(task.name), {cores[i % len(cores)]})


def start_stacks(args: argparse.Namespace, tmp: Path) -> tuple[list[Stack], list[Any]]:
    """SQLite single process, shared with 1 worker, shared with 2 workers (each shared
    stack on its own database and its own Redis: pub/sub channels span Redis databases)."""
    services: list[Any] = []
    pg = Postgres.start(fsync=not args.no_fsync)
    services.append(pg)
    stacks: list[Stack] = []
    lease = {"SPILLEBORD_WARM": "0"}
    sqlite = Workers.start(1, worker_env(f"sqlite:///{tmp / 'single.db'}", None, **lease),
                           app=APP)
    if args.pin:
        pin([w.proc.pid for w in sqlite.items if w.proc])
    stacks.append(Stack("SQLite, 1 process", [(w.http, w.ws) for w in sqlite.items],
                        {"workers": [w.proc.pid for w in sqlite.items if w.proc]},
                        [sqlite], workers=[w.http for w in sqlite.items]))
    setups = [("shared, 1 worker", 1, False, False), ("shared, 2 workers", 2, False, False)]
    if args.nginx:
        setups.append(("shared, 2 workers, nginx", 2, True, False))
    if args.forwarded:
        setups.append(("shared, 2 workers, forwarded", 2, False, True))
    if args.before:  # the same setups running an earlier source tree's server
        setups += [(f"{name} ({BEFORE})", n, False, False) for name, n in
                   (("shared, 1 worker", 1), ("shared, 2 workers", 2))]
        if args.forwarded:
            setups.append((f"shared, 2 workers, forwarded ({BEFORE})", 2, False, True))
    for name, n, via_nginx, forwarded in setups:
        redis = Redis.start()
        services.append(redis)
        db = pg.create_database(f"cpu{len(stacks)}")
        env = worker_env(db, redis.url, **lease)
        if BEFORE in name:
            env["PYTHONPATH"] = str(Path(args.before).resolve() / "src")
        workers = Workers.start(n, env, app=APP)
        if args.pin:
            pin([w.proc.pid for w in workers.items if w.proc])
        stop: list[Any] = [workers]
        pids = {"workers": [w.proc.pid for w in workers.items if w.proc],
                "postgres": [pg.postmaster_pid()], "redis": [redis.proc.pid]}
        targets = [(w.http, w.ws) for w in workers.items]
        if via_nginx:
            proxy = Nginx.start([w.port for w in workers.items])
            stop.insert(0, proxy)
            pids["nginx"] = [proxy.proc.pid]
            targets = [(proxy.http, proxy.ws)]
        stacks.append(Stack(name, targets, pids, stop, forwarded,
                            [w.http for w in workers.items], redis.url, db))
    return stacks, services


def compare(args: argparse.Namespace) -> None:
    import statistics
    import tempfile

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    console = Console(width=150)
    tmp = Path(tempfile.mkdtemp(prefix="spillebord-cpu-"))
    stacks, services = start_stacks(args, tmp)
    # (label, stack, offered actions/s, clients): every setup at the same offered load;
    # with --per-worker also one worker at half of it and two workers at twice it, so
    # each worker of a pair runs at the rate it runs at in another case
    cases = [(s.name, s, args.rate, args.clients) for s in stacks]
    if args.per_worker:
        by_name = {s.name: s for s in stacks}
        cases += [(HALF, by_name["shared, 1 worker"], args.rate / 2, args.clients // 2),
                  (DOUBLE, by_name["shared, 2 workers"], args.rate * 2, args.clients * 2)]
    results: dict[str, list[dict[str, float]]] = {c[0]: [] for c in cases}
    loads: list[float] = []
    try:
        with Progress(console=console) as progress:
            task = progress.add_task("rounds", total=args.rounds * len(cases))
            for r in range(args.rounds):
                # alternate the order round by round: no case always follows another
                for name, stack, rate, clients in (cases if r % 2 == 0 else cases[::-1]):
                    res = asyncio.run(measure_paced(stack, clients, rate, args.warmup,
                                                    args.seconds, 1000 * r, args.threads))
                    results[name].append(res)
                    loads.append(os.getloadavg()[0])
                    trips = ("" if "redis_cmds" not in res else
                             f"  Redis {res['redis_cmds']:.2f}, DB {res['db_xacts']:.2f} "
                             f"trips/action")
                    progress.console.print(
                        f"round {r + 1} {name:38} {res['rate']:6.0f} actions/s  "
                        f"CPU/action {res['cpu_total']:.3f} ms  p50 {res['p50']:.1f} ms  "
                        f"p99 {res['p99']:.1f} ms  errors {res['errors']:.0f}{trips}")
                    progress.advance(task)
    finally:
        for stack in stacks:
            for thing in stack.stop:
                thing.stop()
        for svc in reversed(services):
            svc.stop()

    parts = ["workers", "postgres", "redis", "nginx"]
    table = Table(title=f"CPU ms per action at {args.rate:g} offered actions/s "
                        f"({args.clients} clients), median of {args.rounds} rounds")
    for col in ["setup", "actions/s", *parts, "total", "p50 ms", "p99 ms", "× SQLite",
                "Redis/action", "DB xact/action"]:
        table.add_column(col, justify="left" if col == "setup" else "right")
    medians: dict[str, float] = {}
    for name, runs in results.items():
        def med(key: str, runs: list[dict[str, float]] = runs) -> float:
            vals = [x[key] for x in runs if key in x]
            return statistics.median(vals) if vals else float("nan")
        medians[name] = med("cpu_total")
        base = medians[stacks[0].name]
        table.add_row(name, f"{med('rate'):.0f}",
                      *[f"{med('cpu_' + p):.3f}" if any('cpu_' + p in x for x in runs)
                        else "—" for p in parts],
                      f"{medians[name]:.3f}", f"{med('p50'):.1f}", f"{med('p99'):.1f}",
                      f"{medians[name] / base:.2f}",
                      *[f"{med(k):.2f}" if any(k in x for x in runs) else "—"
                        for k in ("redis_cmds", "db_xacts")])
    console.print(table)
    one, two = medians["shared, 1 worker"], medians["shared, 2 workers"]
    sqlite = medians[stacks[0].name]
    console.print(f"shared 1 worker / SQLite: {one / sqlite:.2f}× (target ≤ 2×); "
                  f"2 workers / 1 worker: {two / one:.2f}× (target ≤ 1.1×)")
    pairs = [("2 workers / 1 worker, same offered load", "shared, 2 workers",
              "shared, 1 worker")]
    if args.per_worker:
        pairs += [("1 worker at half the load / at the load", HALF, "shared, 1 worker"),
                  ("2 workers at twice the load / 1 worker (same rate per worker)", DOUBLE,
                   "shared, 1 worker"),
                  ("2 workers / 1 worker at half the load (same rate per worker)",
                   "shared, 2 workers", HALF)]
    if args.before:
        pairs += [(f"1 worker, now / {BEFORE}", "shared, 1 worker",
                   f"shared, 1 worker ({BEFORE})"),
                  (f"2 workers, now / {BEFORE}", "shared, 2 workers",
                   f"shared, 2 workers ({BEFORE})"),
                  (f"2 workers / 1 worker, {BEFORE}", f"shared, 2 workers ({BEFORE})",
                   f"shared, 1 worker ({BEFORE})")]
        if args.forwarded:
            pairs.append((f"forwarded, now / {BEFORE}", "shared, 2 workers, forwarded",
                          f"shared, 2 workers, forwarded ({BEFORE})"))
    for label, a, b in pairs:
        ratios = [x["cpu_total"] / y["cpu_total"] for x, y in zip(results[a], results[b],
                                                                 strict=True)]
        console.print(f"  {label}: median {statistics.median(ratios):.2f}× "
                      f"(rounds {', '.join(f'{x:.2f}' for x in ratios)})")
    for name, runs in results.items():
        console.print(f"  {name}: CPU/action per round "
                      + ", ".join(f"{x['cpu_total']:.3f}" for x in runs)
                      + "; p50 ms per round " + ", ".join(f"{x['p50']:.2f}" for x in runs))
    if args.threads:
        for name, runs in results.items():
            keys = sorted({k for x in runs for k in x if k.startswith("thread ")})
            shown = [(k[7:], statistics.median([x.get(k, 0.0) for x in runs]))
                     for k in keys]
            console.print(f"  {name}, ms per action by thread / process (median): "
                          + ", ".join(f"{k} {v:.3f}" for k, v in shown if v >= 0.0005))
            if any("batch" in x for x in runs):
                console.print(f"  {name}, requests per writer batch: "
                              + ", ".join(f"{x['batch']:.2f}" for x in runs if "batch" in x))
    console.print(f"cores: {os.cpu_count()}{', workers pinned one per core' if args.pin else ''}"
                  f", load average (1 min) during the rounds "
                  f"{min(loads):.1f}–{max(loads):.1f}; the load generator runs on the "
                  "same cores and is not counted")
    if args.json:
        print(json.dumps({"results": results, "loads": loads, "rate": args.rate,
                          "clients": args.clients}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", action="store_true",
                    help="CPU per action at one offered load: SQLite vs shared 1 vs 2")
    ap.add_argument("--rate", type=float, default=200.0, help="--cpu: offered actions/s")
    ap.add_argument("--rounds", type=int, default=3, help="--cpu: rounds per setup")
    ap.add_argument("--warmup", type=float, default=2.0, help="--cpu: seconds before each")
    ap.add_argument("--forwarded", action="store_true",
                    help="--cpu: also 2 workers with every socket away from its owner")
    ap.add_argument("--json", action="store_true", help="--cpu: also print JSON")
    ap.add_argument("--before", default="",
                    help="--cpu: also both shared setups running the server of this source "
                         "tree (e.g. a git worktree of an earlier commit), side by side")
    ap.add_argument("--per-worker", action="store_true",
                    help="--cpu: also 1 worker at half the rate and 2 workers at twice it")
    ap.add_argument("--pin", action="store_true",
                    help="--cpu: worker i of each stack pinned to core i (one worker per core)")
    ap.add_argument("--threads", action="store_true",
                    help="--cpu: also CPU per action by worker thread and PostgreSQL process")
    ap.add_argument("--quick", action="store_true", help="short runs, few client counts")
    ap.add_argument("--clients", default="", help="comma-separated client counts")
    ap.add_argument("--seconds", type=float, default=0.0, help="seconds per run")
    ap.add_argument("--nginx", action="store_true", help="two workers behind nginx")
    ap.add_argument("--workers", default="1,2", help="worker counts to compare")
    ap.add_argument("--no-fsync", action="store_true",
                    help="PostgreSQL with fsync off (diagnosis: is the disk the limit?)")
    args = ap.parse_args()
    if args.cpu:
        args.clients = int(args.clients or 20)
        args.seconds = args.seconds or 8.0
        compare(args)
        return
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
