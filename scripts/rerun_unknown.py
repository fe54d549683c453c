"""Re-solve, at a longer time limit, the deals a ``spillebord analyse solve`` run left
unknown — through the same Ray runner and into the same result file (a rerun of this
command skips what it already did), so the file holds both limits' rows and
docs/analysis.md can report the unknown rate at each.

    nice -n 10 python scripts/rerun_unknown.py RESULTS.parquet posthus --from 2 --to 6 \\
        [--flag open_gaps] [--workers 2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from spillebord import games
from spillebord.analysis import jobs, runner, schema, store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("game")
    parser.add_argument("--from", dest="short", type=float, required=True)
    parser.add_argument("--to", dest="long", type=float, required=True)
    parser.add_argument("--flag", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--deals", default=None, help="only deals A-B")
    args = parser.parse_args()
    flags = dict(games.load(args.game).check_flags({f: True for f in args.flag}))
    first = jobs.SolveJob.make(args.game, flags, args.short)
    rows = store.read_table(args.results, schema.SOLVE).to_pylist()
    run = first.run()
    lo, _, hi = (args.deals or "0-999999999999").partition("-")
    unknown = sorted(int(r["deal"]) for r in rows
                     if all(r[k] == v for k, v in run.items()) and r["verdict"] == "unknown"
                     and int(lo) <= int(r["deal"]) <= int(hi or lo))
    console = Console(stderr=True)
    console.print(f"{len(unknown)} deals unknown at {args.short:g} s; re-solving at "
                  f"{args.long:g} s")
    job = jobs.SolveJob.make(args.game, flags, args.long)
    report = runner.run(jobs.solve_chunk, job, unknown, store.ResultFile(
        args.results, schema.SOLVE), chunk=max(1, min(10, len(unknown) // 16 or 1)),
        workers=args.workers, address=None, unit="deals", console=console)
    console.print(f"{report.rows} new rows, {report.retried} chunks retried")


if __name__ == "__main__":
    main()
