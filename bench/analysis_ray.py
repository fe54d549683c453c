"""Benchmark: ``spillebord analyse solve`` on Ray against the same run in one process.

    python bench/analysis_ray.py [--game posthus] [--deals 1-400] [--seconds 60]
                                 [--nodes 1000000] [--workers 2] [--chunk K]

Runs the command twice on the same deals and budget, each into a fresh result file:
``--workers 0`` (one process, no Ray) and ``--workers N`` (a local Ray cluster of N CPUs
started by the command).  For each: wall time (cluster start included), the CPU time of
the command and every process it started (the command runs in a session of its own;
every process of that session — driver, Ray's head processes, workers — is sampled
from /proc every 0.1 s, so up to 0.1 s of each process's last moments is missed),
the solvers' own CPU time (the sum
of the rows' ``cpu_seconds``), deals per CPU second and per wall second.  With a node
budget the two runs' verdicts must be identical, and the bench checks that they are.
Run it with ``nice -n 10``; figures (with the core count) go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
from rich.console import Console
from rich.table import Table

HEADERS = ["run", "deals", "wall s", "CPU s (all processes)", "solver CPU s",
           "deals / CPU s", "deals / wall s", "load before → after"]


TICK = os.sysconf("SC_CLK_TCK")


def session_cpu(sid: int, seen: dict[int, float]) -> None:
    """Record the CPU seconds so far of every process in session ``sid``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != sid:
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry.name)
        seen[pid] = max(seen.get(pid, 0.0), (int(fields[11]) + int(fields[12])) / TICK)


def measured(cmd: list[str]) -> tuple[float, float]:
    """(wall s, CPU s of the command and every process of its session)."""
    seen: dict[int, float] = {}
    wall = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
    while True:
        session_cpu(proc.pid, seen)
        pid, status = os.waitpid(proc.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.1)
    wall = time.perf_counter() - wall
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed")
    return wall, sum(seen.values())


def run(args: argparse.Namespace, workers: int, out: Path) -> tuple[list[str], list[str]]:
    cmd = [sys.executable, "-m", "spillebord.cli.main", "analyse", "solve", args.game,
           "--deals", args.deals, "--seconds", str(args.seconds), "--nodes", str(args.nodes),
           "--workers", str(workers), "--out", str(out), "--quiet"]
    if args.chunk:
        cmd += ["--chunk", str(args.chunk)]
    load = os.getloadavg()[0]
    wall, cpu = measured(cmd)
    rows = pq.read_table(out).to_pylist()
    solver = sum(r["cpu_seconds"] for r in rows)
    name = "one process" if workers == 0 else f"Ray, {workers} CPUs"
    return [name, str(len(rows)), f"{wall:.1f}", f"{cpu:.1f}", f"{solver:.1f}",
            f"{len(rows) / cpu:.1f}", f"{len(rows) / wall:.1f}",
            f"{load:.1f} → {os.getloadavg()[0]:.1f}"], [r["verdict"] for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="posthus")
    parser.add_argument("--deals", default="1-400")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=0)
    args = parser.parse_args()
    console = Console(width=160)
    with tempfile.TemporaryDirectory() as tmp:
        single, verdicts = run(args, 0, Path(tmp) / "single.parquet")
        ray, ray_verdicts = run(args, args.workers, Path(tmp) / "ray.parquet")
    same = verdicts == ray_verdicts
    table = Table(title=f"{args.game} deals {args.deals}, {args.seconds:g} s CPU and "
                  f"{args.nodes:,} nodes a deal; verdicts identical: {same}")
    for header in HEADERS:
        table.add_column(header, justify="right")
    for row in (single, ray):
        table.add_row(*row)
    console.print(table)
    console.print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                  f"{platform.python_implementation()} {platform.python_version()}, "
                  f"{os.cpu_count()} cores")
    console.print("| " + " | ".join(HEADERS) + " |")
    console.print("|" + "---|" * len(HEADERS))
    for row in (single, ray):
        console.print("| " + " | ".join(row) + " |")
    if not same:
        raise SystemExit("the verdicts differ")


if __name__ == "__main__":
    main()
