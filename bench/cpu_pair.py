"""The machine's own control for bench/scale_out.py: does the same Python work cost more
CPU time when two processes run it at once?

    python bench/cpu_pair.py                  # 5 rounds of: one process alone, two at once
    python bench/cpu_pair.py --rounds 3 --units 100000

The work is the server's kind of work with no server around it: Posthus and Gammel
Jomfru games played at random through the public engine API, each state's view encoded
as JSON (``wire.dumps``) after every action.  Each round runs it in one process alone,
then in two processes started together (``--units`` units each); every process reads its
own CPU time (``time.process_time``) around the work, so waiting for a core does not
count.  If CPU time per unit grows when two processes run at once, the growth is the
machine's (shared caches, memory bandwidth, or two virtual CPUs that are one physical
core's two hardware threads) — not a cost any design of the server can remove.  scale_out's
"two workers ≤ 1.1× one worker" is read against this ratio (docs/benchmarks/scale.md).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from spillebord import games
from spillebord.server.room.wire import dumps

GAMES = (("posthus", None), ("gammel_jomfru", 4))


def work(units: int, seed: int) -> float:
    """Play ``units`` random actions (new deals as games end); CPU seconds it took."""
    rng = random.Random(seed)
    loaded = [(games.load(key), seats) for key, seats in GAMES]
    start = time.process_time()
    done = 0
    deal = seed
    while done < units:
        for game, seats in loaded:
            deal += 1
            state = game.new(deal=deal % 10_000 + 1, seats=seats)
            steps = 0
            while not state.is_over and steps < 200 and done < units:
                legal = state.legal_actions()
                if not legal:
                    break
                state = state.apply(rng.choice(legal))
                dumps(state.view(state.to_move))
                steps += 1
                done += 1
    return time.process_time() - start


def _child(units: int, seed: int, go: Event, out: Queue[float]) -> None:
    go.wait()
    out.put(work(units, seed))


def run(processes: int, units: int, seed: int) -> list[float]:
    """CPU seconds of each of ``processes`` processes doing ``units`` at the same time."""
    ctx = mp.get_context("spawn")
    go = ctx.Event()
    out: Queue[float] = ctx.Queue()
    procs = [ctx.Process(target=_child, args=(units, seed + i, go, out))
             for i in range(processes)]
    for p in procs:
        p.start()
    time.sleep(1.0)  # all imported and waiting
    go.set()
    got = [out.get() for _ in procs]
    for p in procs:
        p.join()
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--units", type=int, default=300_000, help="actions per process")
    args = ap.parse_args()
    console = Console()
    alone: list[float] = []
    pair: list[float] = []
    loads: list[float] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("rounds (alone, then two at once)", total=args.rounds)
        for r in range(args.rounds):
            loads.append(os.getloadavg()[0])
            alone += run(1, args.units, 1000 * r)
            pair += run(2, args.units, 1000 * r)
            progress.advance(task)
    cores = os.cpu_count()
    per = 1e6 / args.units
    table = Table(title=f"CPU µs per unit of work, {cores} cores, {args.rounds} rounds, "
                        f"load {min(loads):.1f}–{max(loads):.1f}")
    for col in ("set-up", "median", "min", "max"):
        table.add_column(col)
    for name, xs in (("one process alone", alone), ("two processes at once", pair)):
        table.add_row(name, f"{statistics.median(xs) * per:.1f}", f"{min(xs) * per:.1f}",
                      f"{max(xs) * per:.1f}")
    table.add_row("ratio (two / one)", f"{statistics.median(pair) / statistics.median(alone):.2f}",
                  "", "")
    console.print(table)


if __name__ == "__main__":
    main()
