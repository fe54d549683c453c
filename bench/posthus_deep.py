"""Long proof runs for the posthus deals the 2 s solver leaves unknown (strict rule,
first round): ``solvers.posthus.deep.prove`` with a large time limit and a transposition
table sized to a memory budget, one deal at a time.

    nice -n 10 .venv/bin/python bench/posthus_deep.py --deals 20,72,89 \\
        [--seconds 1800] [--memory-gb 6] [--out results.jsonl]

Prints a table (verdict, grids expanded and marked, CPU and wall seconds, table size)
and appends one JSON line per deal to ``--out`` (a rerun skips the deals already there
with a decided verdict).  The figures go into docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from rich.console import Console
from rich.table import Table

from spillebord.games.posthus import GAME
from spillebord.solvers.posthus import warm_up
from spillebord.solvers.posthus.deep import prove


def deal_list(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", required=True, help="e.g. 20,72,89 or 1-50")
    parser.add_argument("--seconds", type=float, default=1800.0, help="wall limit per deal")
    parser.add_argument("--memory-gb", type=float, default=6.0, help="table budget")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines, appended")
    args = parser.parse_args()
    done: set[int] = set()
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            if row["verdict"] != "unknown":
                done.add(int(row["deal"]))
    warm_up()
    console = Console()
    table = Table(title=f"posthus strict, first round, ≤ {args.seconds:g} s, "
                        f"≤ {args.memory_gb:g} GB table, {os.cpu_count()} cores")
    for name in ("deal", "verdict", "stopped", "expanded", "marked", "CPU s", "wall s",
                 "table GB", "line"):
        table.add_column(name, justify="right")
    for deal in deal_list(args.deals):
        if deal in done:
            continue
        r = prove(GAME.new(deal=deal), args.seconds, int(args.memory_gb * 2**30))
        row = {"deal": deal, "verdict": r.verdict, "stopped": r.stopped, "nodes": r.nodes,
               "seen": r.seen, "cpu_seconds": round(r.cpu_seconds, 2),
               "wall_seconds": round(r.wall_seconds, 2),
               "table_bytes": r.table_slots * 24, "line_length": len(r.line),
               "load": os.getloadavg()[0]}
        console.print(json.dumps(row))
        if args.out is not None:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        table.add_row(str(deal), r.verdict, r.stopped, f"{r.nodes:,}", f"{r.seen:,}",
                      f"{r.cpu_seconds:.1f}", f"{r.wall_seconds:.1f}",
                      f"{r.table_slots * 24 / 2**30:.1f}", str(len(r.line)))
    console.print(table)


if __name__ == "__main__":
    main()
