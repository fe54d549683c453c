"""Where the test suite's time goes (issue 30; docs/testing.md, "Timing the tiers").

Reads the per-test records tests/conftest.py writes when SPILLEBORD_TEST_TIMES=DIR is
set (one JSON line per test: wall seconds, the test process's CPU seconds and its
waited-for children's) and prints the totals, the slowest tests by wall and by CPU, and
the files by wall and CPU (a module server's CPU is counted on the test whose teardown
stops it, so the file totals are the fair ones)::

    SPILLEBORD_TEST_TIMES=/tmp/times .venv/bin/pytest -m services
    python scripts/test_times.py /tmp/times [--top 30]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def load(where: Path) -> list[dict[str, Any]]:
    files = sorted(where.glob("*.jsonl")) if where.is_dir() else [where]
    return [json.loads(line) for f in files for line in f.read_text().splitlines() if line]


def table(title: str, rows: list[tuple[str, float, float, float]], top: int) -> None:
    print(f"\n{title}")
    print(f"{'wall s':>8} {'CPU s':>8} {'(kids)':>8}  name")
    for name, wall, cpu, kids in rows[:top]:
        print(f"{wall:8.1f} {cpu:8.1f} {kids:8.1f}  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("where", type=Path, help="the SPILLEBORD_TEST_TIMES directory")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    records = load(args.where)
    if not records:
        raise SystemExit(f"no records in {args.where}")

    def cpu(r: dict[str, Any]) -> float:
        return float(r["cpu"]) + float(r["children"])

    wall = sum(r["wall"] for r in records)
    total_cpu = sum(cpu(r) for r in records)
    kids = sum(r["children"] for r in records)
    workers = sorted({r["worker"] for r in records})
    print(f"{len(records)} tests on {len(workers)} process(es): {wall:.0f} s of test wall "
          f"(summed), {total_cpu:.0f} s CPU ({kids:.0f} s of it in waited-for children)")
    for w in workers:
        mine = [r for r in records if r["worker"] == w]
        print(f"  {w}: {len(mine)} tests, {sum(r['wall'] for r in mine):.0f} s wall, "
              f"{sum(cpu(r) for r in mine):.0f} s CPU")
    tests = [(r["test"], r["wall"], cpu(r), r["children"]) for r in records]
    table(f"top {args.top} tests by wall", sorted(tests, key=lambda t: -t[1]), args.top)
    table(f"top {args.top} tests by CPU", sorted(tests, key=lambda t: -t[2]), args.top)
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for r in records:
        acc = by_file[r["file"]]
        acc[0] += r["wall"]
        acc[1] += cpu(r)
        acc[2] += r["children"]
    files = [(name, w, c, k) for name, (w, c, k) in by_file.items()]
    table(f"top {args.top} files by wall", sorted(files, key=lambda t: -t[1]), args.top)
    table(f"top {args.top} files by CPU", sorted(files, key=lambda t: -t[2]), args.top)


if __name__ == "__main__":
    main()
