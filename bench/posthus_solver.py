"""Benchmark of the posthus solver: deals 1…N, first round, strict rule and open_gaps.

    .venv/bin/python bench/posthus_solver.py [--quick] [--deals N] [--seconds S]
        [--start D] [--variant strict|open_gaps|both] [--cpu-clock]

Prints, per variant, the share of deals proven winnable / unwinnable / left unknown,
the median, 90th percentile and maximum (wall) time per deal, the median and total
CPU time of this process, the search states per CPU second, and the load average
before and after (the cores are shared, so wall times are noisy; the limit per deal is
wall time).  The solver's compiled kernel is warmed up (compiled or loaded from the
cache) before the clock starts.  ``--cpu-clock`` makes the limit CPU time of this
process instead (the solver's deadlines and its reported times use
``time.process_time``): the same budget per deal however loaded the machine is.  Never run as a
timed test; the numbers go into docs/benchmarks/posthus.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from spillebord.games.posthus import GAME
from spillebord.solvers.posthus import engine, solve


@dataclass
class Tally:
    variant: str
    verdicts: dict[str, int] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    nodes: int = 0
    unknown: list[int] = field(default_factory=list)
    unwinnable: list[int] = field(default_factory=list)

    def add(self, deal: int, verdict: str, seconds: float, cpu: float, nodes: int) -> None:
        self.verdicts[verdict] = self.verdicts.get(verdict, 0) + 1
        self.times.append(seconds)
        self.cpu.append(cpu)
        self.nodes += nodes
        if verdict == "unknown":
            self.unknown.append(deal)
        elif verdict == "unwinnable":
            self.unwinnable.append(deal)

    def share(self, verdict: str) -> str:
        n = len(self.times)
        k = self.verdicts.get(verdict, 0)
        return f"{k} ({100 * k / n:.1f}%)" if n else "-"

    def row(self) -> list[str]:
        times = sorted(self.times)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        total = sum(self.cpu)
        return [
            self.variant, str(len(times)), self.share("winnable"), self.share("unwinnable"),
            self.share("unknown"), f"{1000 * statistics.median(times):.1f}",
            f"{1000 * p90:.0f}", f"{1000 * times[-1]:.0f}",
            f"{1000 * statistics.median(self.cpu):.1f}", f"{total:.0f}",
            f"{self.nodes / total:,.0f}" if total else "-",
        ]


HEADERS = ["variant", "deals", "winnable", "unwinnable", "unknown", "median ms", "p90 ms",
           "max ms", "median CPU ms", "CPU s", "states/CPU s"]


def run(variant: str, start: int, deals: int, seconds: float, progress: Progress) -> Tally:
    tally = Tally(variant)
    flags = {"open_gaps": variant == "open_gaps"}
    task = progress.add_task(f"{variant:9}", total=deals)
    for deal in range(start, start + deals):
        cpu = time.process_time()
        result = solve(GAME.new(deal=deal, **flags), seconds)
        tally.add(deal, result.verdict, result.seconds, time.process_time() - cpu,
                  result.nodes)
        progress.update(task, advance=1,
                        description=f"{variant:9} unknown {len(tally.unknown)}")
    return tally


def _load(values: tuple[float, float, float]) -> str:
    return "/".join(f"{v:.1f}" for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 deals, 1 s each")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=2.0, help="time limit per deal")
    parser.add_argument("--variant", choices=("strict", "open_gaps", "both"), default="both")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="the limit per deal is CPU time, not wall time")
    args = parser.parse_args()
    if args.cpu_clock:
        engine.CLOCK = time.process_time
    deals, seconds = (50, 1.0) if args.quick else (args.deals, args.seconds)
    variants = ["strict", "open_gaps"] if args.variant == "both" else [args.variant]
    console = Console(width=160)
    solve(GAME.new(deal=1), 1.0)  # compile or load the kernel before timing
    began = time.time()
    load_before = os.getloadavg()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console) as progress:
        tallies = [run(v, args.start, deals, seconds, progress) for v in variants]
    table = Table(title=f"posthus solver, deals {args.start}–{args.start + deals - 1}, "
                  f"first round, {seconds:g} s {'CPU' if args.cpu_clock else 'wall'} limit")
    for header in HEADERS:
        table.add_column(header, justify="right")
    for tally in tallies:
        table.add_row(*tally.row())
    console.print(table)
    for tally in tallies:
        if tally.unknown:
            console.print(f"{tally.variant} unknown: {tally.unknown}")
        if tally.unwinnable:
            console.print(f"{tally.variant} unwinnable: {tally.unwinnable}")
    console.print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                  f"{platform.python_implementation()} {platform.python_version()}, "
                  f"wall {time.time() - began:.0f} s, load average (1/5/15 min) "
                  f"before {_load(load_before)}, after {_load(os.getloadavg())}, "
                  f"{os.cpu_count()} cores")
    console.print("| " + " | ".join(HEADERS) + " |")
    console.print("|" + "---|" * len(HEADERS))
    for tally in tallies:
        console.print("| " + " | ".join(tally.row()) + " |")


if __name__ == "__main__":
    main()
