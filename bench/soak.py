"""Soak under abuse (issue 29): normal players on one worker, first alone, then with every
abusive pattern of the issue at once — one client's bots-only rooms with 5-second search
bots, a hint flood on 12 sockets, a match/table creation burst, a sign-up flood, 200
sockets from one address, hosts who open public tables and never come.

Reports, per phase: the normal players' move p99 (act → own state), bot move p95 and
hint p95, with the ratio abusive/alone (target ≤ 1.5); ``internal`` errors and HTTP 5xx
(target 0); at the end, acknowledged solitaire actions missing from the stored records
(target 0); the database's and the server's memory (with its compute workers) growth
per hour in each phase and the server's CPU seconds per second; the abusers' refusals
(429s and ``busy``).  The abusive clients run in a process of their own,
5 steps nicer than the bench.

The server runs with the product's quotas and message budget per socket (defaults: a
flooding socket is closed, and the flood connects again) and a bot delay of 0 (a bot move
is compute and waiting only); every client has its own address (X-Forwarded-For from a
trusted 127.0.0.1).  Default 10 minutes: half alone, half with the abusers, after 30 s of
unmeasured warm-up (worker processes and kernels starting).

    nice -n 5 .venv/bin/python bench/soak.py            # 10 min
    nice -n 5 .venv/bin/python bench/soak.py --minutes 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

import websockets

from abusers import (
    Tally,
    abandoned_tables,
    address,
    bots_only_rooms,
    cpu_seconds,
    creation_burst,
    db_mib,
    free_port,
    hint_flood,
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


async def lobby_watcher(ws_base: str, stop: float) -> None:
    async with websockets.connect(f"{ws_base}/ws/lobby", additional_headers=address()) as ws:
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), 5)
            except TimeoutError:
                continue


async def phase(base: str, ws: str, seconds: float, abusers: bool, pid: int, db: str,
                seed: int) -> tuple[Tally, Tally, dict[str, Any]]:
    normal, abuse = Tally(), Tally()
    stop = time.monotonic() + seconds
    rng = random.Random(seed)
    start_db, start_rss, t0 = db_mib(db), rss_mib(pid), time.monotonic()
    start_cpu = cpu_seconds(pid)
    work = [solitaire_player(base, ws, normal, stop, random.Random(rng.random()), deals=True)
            for _ in range(SOLITAIRE_PLAYERS)]
    work += [table_player(base, ws, normal, stop, random.Random(rng.random()), deals=True)
             for _ in range(TABLE_PLAYERS)]
    work += [lobby_watcher(ws, stop) for _ in range(LOBBY_WATCHERS)]
    spawned = None
    if abusers:
        # The abusive clients in a process of their own at a lower CPU priority: on
        # a real site they are on other machines; here their own CPU would otherwise be
        # counted against the server.
        spawned = subprocess.Popen(["nice", "-n", "5", sys.executable, __file__,
                                    "--abusers-only", base, "--seconds", str(seconds)],
                                   stdout=subprocess.PIPE)
    results = await asyncio.gather(*work, return_exceptions=True)
    if spawned is not None:
        said, _ = await asyncio.to_thread(spawned.communicate, timeout=300)
        abuse.refused = json.loads(said or b"{}")
    took = time.monotonic() - t0
    failures = [repr(r)[:200] for r in results if isinstance(r, BaseException)]
    growth = {"db_mib": round(db_mib(db), 1), "rss_mib": round(rss_mib(pid)),
              "rss_mib_at_start": round(start_rss),
              "server_cpu_per_s": round((cpu_seconds(pid) - start_cpu) / took, 3),
              "db_mib_per_hour": round((db_mib(db) - start_db) * 3600 / took, 1),
              "rss_mib_per_hour": round((rss_mib(pid) - start_rss) * 3600 / took),
              "client_failures": failures}
    return normal, abuse, growth


async def abuse_only(base: str, seconds: float) -> dict[str, int]:
    """Every abusive pattern at once (``--abusers-only``, its own process)."""
    abuse = Tally()
    stop = time.monotonic() + seconds
    ws = base.replace("http://", "ws://")
    await asyncio.gather(
        bots_only_rooms(base, abuse, stop), hint_flood(base, ws, abuse, stop),
        creation_burst(base, abuse, stop), sign_up_flood(base, abuse, stop),
        socket_flood(ws, abuse, stop), abandoned_tables(base, abuse, stop),
        return_exceptions=True)
    return abuse.refused


def figures(t: Tally) -> dict[str, Any]:
    def ms(v: float | None) -> float | None:
        return None if v is None else round(v * 1000, 1)
    return {"moves": len(t.moves), "move_p99_ms": ms(pct(t.moves, 0.99)),
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
        proc = start_server(port, db, {"SPILLEBORD_BOT_DELAY": "0"}, args.src)
        try:
            await wait_up(base)
            # warm-up, not measured: the worker processes start, the kernels load
            await phase(base, ws, args.warmup, False, proc.pid, db, 0)
            # the same seed, so the same deals and moves, in both measured phases
            alone, _, grow_alone = await phase(base, ws, half, False, proc.pid, db, 1)
            mixed, abuse, grow_mixed = await phase(base, ws, half, True, proc.pid, db, 1)
            lost = await lost_actions(base, alone) + await lost_actions(base, mixed)
            acked = sum(n for _t, n in [*alone.acked.values(), *mixed.acked.values()])
        finally:
            stop(proc)
    a, m = figures(alone), figures(mixed)
    ratios = {k: (None if not a[k] or m[k] is None else round(m[k] / a[k], 2))
              for k in ("move_p99_ms", "bot_p95_ms", "hint_p95_ms")}
    return {"minutes": args.minutes, "src": args.src or "this tree", "alone": a,
            "with_abusers": m, "ratio": ratios,
            "abusers": figures(abuse), "acknowledged_actions": acked, "lost": lost,
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
    p.add_argument("--src", default=None, help="the source tree to serve from "
                   "(bench/fair_compute.py --help)")
    args = p.parse_args()
    if args.abusers_only:
        print(json.dumps(asyncio.run(abuse_only(args.abusers_only, args.seconds))))
        return
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
