"""Soak under abuse (issue 29): normal players on one worker, first alone, then with every
abusive pattern of the issue at once — one client's bots-only rooms with 5-second search
bots, a hint flood on 12 sockets, a match/table creation burst, a sign-up flood, 200
sockets from one address, hosts who open public tables and never come.

Reports, per phase: the normal players' move p50/p95/p99 (act → own state; the moves at
a Kugler table also apart), bot move p95 and hint p95, with the ratio abusive/alone
(target ≤ 1.5); ``internal`` errors and HTTP 5xx (target 0); at the end, acknowledged
solitaire actions missing from the stored records (target 0); the database's and the
server's memory (with its compute workers) growth per hour in each phase, the server's
CPU seconds per second, its event loop's (main thread's) CPU seconds per second and the
seconds per second it was ready to run but waited for a CPU (Linux schedstat: how much
the rest of the machine held it back), and the server's own ``spillebord_action_seconds``
and writer-commit histograms between the phase's start and end (the bucket bound under
which 50 % and 99 % fell); the abusers' refusals (429s and ``busy``) and their client
process's own CPU seconds.

``--only PATTERN`` runs one abusive pattern in the second phase (``bots``, ``hints``,
``creations``, ``signups``, ``sockets``, ``tables``) to find which one costs what;
``--only none`` runs the second phase without abusers: the ratio a run shows from the
machine alone (at load ≈ 20 on 2 cores a p99's ratio moves by ±30 % that way).

The abusive clients run in a process of their own.  The server and the abusive clients
each run in a session of their own: with Linux's autogroup scheduling (on here) each
session is one group and the groups share the CPUs equally, so in one session the
abusive clients' own CPU came out of the server's share (``--one-session``: as before,
for comparison).  **The abusive clients stand in for another machine:** a real
attacker's CPU is elsewhere, but here the attack's own Python (its HTTP and WebSocket
clients, its reconnects) runs on the server's 2 cores.  So by default their process
takes the lowest CPU priority Linux has (``lowest_priority``: its session's autogroup
at nice 19, the process at nice 19 and in the idle scheduling class, SCHED_IDLE): it
runs on what the server and the normal players leave.  That is measurement honesty,
not a change to the product, and the attack still reaches the server in full when a
core is free.  ``--abusers-same-priority`` runs them as before (5 steps nicer than the
bench, an ordinary session), to compare.

The server runs with the product's quotas and message budget per socket (defaults: a
flooding socket is closed, and the flood connects again) and a bot delay of 0 (a bot move
is compute and waiting only); every client has its own address (X-Forwarded-For from a
trusted 127.0.0.1).  Default 10 minutes: half alone, half with the abusers, after 30 s of
unmeasured warm-up (worker processes and kernels starting).

    nice -n 5 .venv/bin/python bench/soak.py            # 10 min
    nice -n 5 .venv/bin/python bench/soak.py --minutes 3 --warmup 20 --only hints
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

from abusers import (
    Tally,
    abandoned_tables,
    address,
    bots_only_rooms,
    bucket_pct,
    cpu_seconds,
    creation_burst,
    db_mib,
    free_port,
    hint_flood,
    histograms,
    loop_seconds,
    lost_actions,
    pct,
    rss_mib,
    sign_up_flood,
    socket_flood,
    solitaire_player,
    start_server,
    stop,
    table_player,
    wait_up,
)

SOLITAIRE_PLAYERS = 6
TABLE_PLAYERS = 3
LOBBY_WATCHERS = 2
# the abusive patterns by name (``--only``)
PATTERNS = ("bots", "hints", "creations", "signups", "sockets", "tables")
# the server's histograms read at each phase's start and end
SERVER_HISTOGRAMS = ("spillebord_action_seconds", "spillebord_writer_commit_seconds")


async def lobby_watcher(ws_base: str, stop: float) -> None:
    async with websockets.connect(f"{ws_base}/ws/lobby", additional_headers=address()) as ws:
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), 5)
            except TimeoutError:
                continue


async def phase(base: str, ws: str, seconds: float, abusers: bool, pid: int, db: str,
                seed: int, only: str = "all", own_sessions: bool = True,
                same_priority: bool = False) -> tuple[Tally, Tally, dict[str, Any]]:
    normal, abuse = Tally(), Tally()
    hist0 = await histograms(base, SERVER_HISTOGRAMS)
    stop = time.monotonic() + seconds
    rng = random.Random(seed)
    start_db, start_rss, t0 = db_mib(db), rss_mib(pid), time.monotonic()
    start_cpu, start_loop = cpu_seconds(pid), loop_seconds(pid)
    work = [solitaire_player(base, ws, normal, stop, random.Random(rng.random()), deals=True)
            for _ in range(SOLITAIRE_PLAYERS)]
    work += [table_player(base, ws, normal, stop, random.Random(rng.random()), deals=True)
             for _ in range(TABLE_PLAYERS)]
    work += [lobby_watcher(ws, stop) for _ in range(LOBBY_WATCHERS)]
    samples: list[Sample] = []
    work.append(sample_loop(pid, stop, samples))
    spawned = None
    if abusers:
        # The abusive clients in a process of their own at a lower CPU priority: on
        # a real site they are on other machines; here their own CPU would otherwise be
        # counted against the server (the module docstring).
        spawned = subprocess.Popen(["nice", "-n", "5", sys.executable, __file__,
                                    "--abusers-only", base, "--seconds", str(seconds),
                                    "--only", only,
                                    *(["--abusers-same-priority"] if same_priority else [])],
                                   stdout=subprocess.PIPE, start_new_session=own_sessions)
    results = await asyncio.gather(*work, return_exceptions=True)
    if spawned is not None:
        said, _ = await asyncio.to_thread(spawned.communicate, timeout=300)
        abuse.refused = json.loads(said or b"{}")
    took = time.monotonic() - t0
    normal.started = t0
    end_loop = loop_seconds(pid)
    hist1 = await histograms(base, SERVER_HISTOGRAMS)
    failures = [repr(r)[:200] for r in results if isinstance(r, BaseException)]
    server: dict[str, Any] = {}
    for name in SERVER_HISTOGRAMS:
        short = name.removeprefix("spillebord_").removesuffix("_seconds")
        for q in (0.5, 0.99):
            n, bound = bucket_pct(hist0[name], hist1[name], q)
            server[f"{short}_p{round(q * 100)}_ms_at_most"] = (
                None if bound is None else round(bound * 1000, 1))
        server[f"{short}_count"] = n
    growth = {"db_mib": round(db_mib(db), 1), "rss_mib": round(rss_mib(pid)),
              "rss_mib_at_start": round(start_rss),
              "server_cpu_per_s": round((cpu_seconds(pid) - start_cpu) / took, 3),
              "db_mib_per_hour": round((db_mib(db) - start_db) * 3600 / took, 1),
              "rss_mib_per_hour": round((rss_mib(pid) - start_rss) * 3600 / took),
              "loop_cpu_per_s": round((end_loop[0] - start_loop[0]) / took, 3),
              "loop_waited_for_cpu_per_s": round((end_loop[1] - start_loop[1]) / took, 3),
              "server_histograms": server,
              "slowest_moves": slowest(normal, samples),
              "client_failures": failures}
    return normal, abuse, growth


def lowest_priority() -> dict[str, Any]:
    """This process (the abusive clients) at Linux's lowest CPU priority: its session's
    autogroup at nice 19 (autogroup scheduling shares the CPUs between sessions first),
    the process at nice 19 and in the idle scheduling class.  What took effect."""
    done: dict[str, Any] = {}
    with contextlib.suppress(OSError):
        with open("/proc/self/autogroup", "w") as group:
            group.write("19")
        done["autogroup_nice"] = 19
    done["nice"] = os.nice(19 - os.nice(0))
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        done["sched"] = "idle"
    return done


async def abuse_only(base: str, seconds: float, only: str = "all") -> dict[str, float]:
    """Every abusive pattern at once, or only the one named (``--abusers-only``, its own
    process)."""
    abuse = Tally()
    stop = time.monotonic() + seconds
    ws = base.replace("http://", "ws://")
    patterns = {
        "bots": lambda: bots_only_rooms(base, abuse, stop),
        "hints": lambda: hint_flood(base, ws, abuse, stop),
        "creations": lambda: creation_burst(base, abuse, stop),
        "signups": lambda: sign_up_flood(base, abuse, stop),
        "sockets": lambda: socket_flood(ws, abuse, stop),
        "tables": lambda: abandoned_tables(base, abuse, stop)}
    chosen = [make() for name, make in patterns.items() if only in ("all", name)]
    if only == "none":  # the control: a second phase without abusers
        chosen = [asyncio.sleep(max(0.0, stop - time.monotonic()))]
    await asyncio.gather(*chosen, return_exceptions=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)  # the abusive clients' own CPU
    return {**abuse.refused, "client_cpu_s": round(usage.ru_utime + usage.ru_stime, 1)}


def windows(t: Tally, width: float = 10.0) -> list[float | None]:
    """The move p99 (ms) of each ``width`` seconds of the phase, in order."""
    by: dict[int, list[float]] = {}
    for m, end in zip(t.moves, t.move_ends, strict=True):
        by.setdefault(int((end - t.started) // width), []).append(m)
    return [None if (p := pct(by.get(i, []), 0.99)) is None else round(p * 1000)
            for i in range(max(by, default=-1) + 1)]


Sample = tuple[float, float, float, float]  # (when, loop ran, loop waited, CPU pressure)


def cpu_pressure() -> float:
    """Seconds (summed since boot) in which some runnable task of the machine waited for
    a CPU (Linux PSI, /proc/pressure/cpu "some"; 0 where there is none)."""
    try:
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except (OSError, IndexError):
        return 0.0
    return int(some.rsplit("total=", 1)[1]) / 1e6


async def sample_loop(pid: int, stop: float, out: list[Sample]) -> None:
    """Every 0.25 s: the server's event loop's CPU run and wait (schedstat) and the
    machine's CPU pressure, for ``slowest``."""
    while time.monotonic() < stop:
        out.append((time.monotonic(), *loop_seconds(pid), cpu_pressure()))
        await asyncio.sleep(0.25)


def slowest(t: Tally, samples: list[Sample], n: int = 5) -> list[dict[str, float]]:
    """The ``n`` slowest moves: ms, seconds into the phase when answered, and over the
    samples around the move (from 0.25 s before it was sent to 0.25 s after its answer)
    how long the server's event loop ran and waited for a CPU, and the share of that
    time some task of the machine waited for one (CPU pressure): a spike while the loop
    waited is the machine, one while it ran is the server's own work."""
    out = []
    for m, end in sorted(zip(t.moves, t.move_ends, strict=True), reverse=True)[:n]:
        near = [s for s in samples if end - m - 0.25 <= s[0] <= end + 0.25]
        row = {"ms": round(m * 1000, 1), "at_s": round(end - t.started, 1)}
        if len(near) >= 2:
            first, last = near[0], near[-1]
            span = last[0] - first[0]
            row |= {"loop_ran_ms": round((last[1] - first[1]) * 1000),
                    "loop_waited_ms": round((last[2] - first[2]) * 1000),
                    "around_ms": round(span * 1000),
                    "cpu_pressure": round((last[3] - first[3]) / span, 2)}
        out.append(row)
    return out


def figures(t: Tally) -> dict[str, Any]:
    def ms(v: float | None) -> float | None:
        return None if v is None else round(v * 1000, 1)
    return {"started_monotonic": round(t.started, 1), "moves": len(t.moves),
            "move_p50_ms": ms(pct(t.moves, 0.5)),
            "move_p95_ms": ms(pct(t.moves, 0.95)), "move_p99_ms": ms(pct(t.moves, 0.99)),
            "move_p99_ms_after_20s": ms(pct([m for m, end in zip(t.moves, t.move_ends,
                                                                 strict=True)
                                             if end > t.started + 20], 0.99)),
            "move_p99_ms_by_10s": windows(t),
            "table_moves": len(t.table_moves),
            "table_move_p99_ms": ms(pct(t.table_moves, 0.99)),
            "bot_moves": len(t.bot_waits), "bot_p95_ms": ms(pct(t.bot_waits, 0.95)),
            "hints": len(t.hints), "hint_p95_ms": ms(pct(t.hints, 0.95)),
            "games": t.games, "internal": t.internal, "http_5xx": t.http_5xx,
            "refused": t.refused}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    half = args.minutes * 60 / 2
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/soak.db"
        env = {"SPILLEBORD_BOT_DELAY": "0", **dict(kv.split("=", 1) for kv in args.env)}
        proc = start_server(port, db, env, args.src, own_session=not args.one_session)
        try:
            await wait_up(base)
            # warm-up, not measured: the worker processes start, the kernels load
            await phase(base, ws, args.warmup, False, proc.pid, db, 0)
            # the same seed, so the same deals and moves, in both measured phases
            alone, _, grow_alone = await phase(base, ws, half, False, proc.pid, db, 1)
            mixed, abuse, grow_mixed = await phase(base, ws, half, True, proc.pid, db, 1,
                                                   args.only, not args.one_session,
                                                   args.abusers_same_priority)
            lost = await lost_actions(base, alone) + await lost_actions(base, mixed)
            acked = sum(n for _t, n in [*alone.acked.values(), *mixed.acked.values()])
        finally:
            stop(proc)
    a, m = figures(alone), figures(mixed)
    ratios = {k: (None if not a[k] or m[k] is None else round(m[k] / a[k], 2))
              for k in ("move_p99_ms", "bot_p95_ms", "hint_p95_ms")}
    return {"minutes": args.minutes, "src": args.src or "this tree", "abusers": args.only,
            "sessions": "one" if args.one_session else "own", "env": args.env,
            "abusers_priority": ("nice 5 (--abusers-same-priority)"
                                 if args.abusers_same_priority else "lowest"),
            "alone": a,
            "with_abusers": m, "ratio": ratios,
            "abusers_refused": figures(abuse)["refused"], "acknowledged_actions": acked,
            "lost": lost,
            "growth_alone": grow_alone, "growth_with_abusers": grow_mixed,
            "cores": os.cpu_count(), "load_average": os.getloadavg()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10.0,
                   help="the whole soak (half alone, half with the abusers)")
    p.add_argument("--warmup", type=float, default=30.0,
                   help="seconds of normal play before the measured phases")
    p.add_argument("--abusers-only", default=None, metavar="BASE",
                   help="run only the abusive clients against BASE (used by the soak)")
    p.add_argument("--seconds", type=float, default=60.0, help="with --abusers-only")
    p.add_argument("--only", default="all", choices=("all", "none", *PATTERNS),
                   help="the abusive patterns of the second phase: all (default), one of "
                        "them, or none (a control: the ratio a run shows with no abuse)")
    p.add_argument("--one-session", action="store_true",
                   help="the server and the abusive clients in the bench's session, as "
                        "before 2026-12-05 (see the module docstring)")
    p.add_argument("--abusers-same-priority", action="store_true",
                   help="the abusive clients 5 steps nicer than the bench in an ordinary "
                        "session, as before 2026-12-05 10:00, instead of at the lowest CPU "
                        "priority (the stand-in for another machine: the module docstring)")
    p.add_argument("--env", action="append", default=[], metavar="K=V",
                   help="a server setting (e.g. SPILLEBORD_LOW_LANE=group)")
    p.add_argument("--src", default=None, help="the source tree to serve from "
                   "(bench/fair_compute.py --help)")
    args = p.parse_args()
    if args.abusers_only:
        lowered = {} if args.abusers_same_priority else lowest_priority()
        said = asyncio.run(abuse_only(args.abusers_only, args.seconds, args.only))
        print(json.dumps({**said, **{f"priority_{k}": v for k, v in lowered.items()}}))
        return
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
