"""Benchmark: the thoughtful studenter solver on deals 1 … N, each within S seconds.

    .venv/bin/python bench/studenter_solver.py [--quick] [--deals N] [--first D]
                                               [--seconds S] [--json] [--best-bonus]
    .venv/bin/python bench/studenter_solver.py --hints N

Prints the share of deals proven winnable / unwinnable / left unknown, the median and
maximum time, and the bonus the found lines would score.  ``--quick`` is 50 deals at 2 s.
``--best-bonus`` searches for a win in the current pass first, then with one turn-over
more, … (``solve(..., best_bonus=True)``).
Record the figures (with the machine's cores) in docs/benchmarks/studenter.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from spillebord.games.studenter import GAME
from spillebord.solvers.studenter import hint, solve


def time_hints(n: int, first: int) -> int:
    """hint(state, 1.0) on positions reached from deals first … by 0–60 random moves."""
    times: list[float] = []
    agree = 0
    for deal in range(first, first + n):
        rng = random.Random(deal)
        state = GAME.new(deal=deal)
        for _ in range(rng.randint(0, 60)):
            options = [a for a in state.legal_actions() if a != "resign"]
            if not options:
                break
            state = state.apply(rng.choice(options))
        if state.to_move is None:
            continue
        t = time.perf_counter()
        move = hint(state, 1.0)
        times.append(time.perf_counter() - t)
        agree += move in state.legal_actions()
    table = Table(title=f"studenter hint(state, 1.0) — {len(times)} positions "
                        f"({os.cpu_count()} cores)")
    for col in ("positions", "legal", "median s", "95th pct s", "max s"):
        table.add_column(col, justify="right")
    times.sort()
    table.add_row(str(len(times)), str(agree), f"{statistics.median(times):.3f}",
                  f"{times[int(0.95 * (len(times) - 1))]:.3f}", f"{times[-1]:.3f}")
    Console().print(table)
    return 0


MAX_ACTIONS = 1500


def play_hints(n: int, first: int) -> int:
    """Deals first … played to the end by always taking hint(state, 0.3): a player who
    sees only what the rules show, against the thoughtful upper bound."""
    results: Counter[str] = Counter()
    bonus = looped = 0
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True)) as progress:
        task = progress.add_task("hint player", total=n)
        for deal in range(first, first + n):
            state = GAME.new(deal=deal)
            for _ in range(MAX_ACTIONS):  # hints have no memory: a loop ends as resigned
                if state.to_move is None:
                    break
                move = hint(state, 0.3)
                state = state.apply(move if move is not None else "resign")
            if state.to_move is not None:
                looped += 1
                state = state.apply("resign")
            outcome = state.outcome
            assert outcome is not None
            results[outcome.reason] += 1
            bonus += outcome.bonus
            progress.console.print(f"deal {deal}: {outcome.reason}, bonus {outcome.bonus}")
            progress.advance(task)
    table = Table(title=f"studenter: following hint(state, 0.3) on deals {first}–"
                        f"{first + n - 1} ({os.cpu_count()} cores)")
    for col in ("games", "won", "stuck", "resigned (hint: proven lost)",
                f"cut off at {MAX_ACTIONS} actions", "mean bonus"):
        table.add_column(col, justify="right")
    table.add_row(str(n), str(results["won"]), str(results["stuck"]),
                  str(results["resigned"] - looped), str(looped), f"{bonus / n:.2f}")
    Console().print(table)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 deals at 2 s each")
    parser.add_argument("--deals", type=int, default=1000, help="how many deals")
    parser.add_argument("--first", type=int, default=1, help="first deal number")
    parser.add_argument("--seconds", type=float, default=10.0, help="limit per deal")
    parser.add_argument("--json", action="store_true", help="print JSON, no table")
    parser.add_argument("--hints", type=int, default=0, metavar="N",
                        help="instead: time hint() on N mid-game positions")
    parser.add_argument("--play", type=int, default=0, metavar="N",
                        help="instead: play N deals following hint(state, 0.3)")
    parser.add_argument("--best-bonus", action="store_true",
                        help="look for the win with the highest bonus first")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.seconds = 50, 2.0
    if args.deals <= 0 or args.seconds <= 0 or args.first < 0:
        parser.error("--deals and --seconds must be positive, --first non-negative")

    if args.hints > 0:
        return time_hints(args.hints, args.first)
    if args.play > 0:
        return play_hints(args.play, args.first)
    verdicts: Counter[str] = Counter()
    bonuses: Counter[int] = Counter()
    proven_best = 0
    times: list[float] = []
    timed: list[tuple[float, int]] = []
    unknown: list[int] = []
    started = time.perf_counter()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), disable=args.json) as progress:
        task = progress.add_task("studenter", total=args.deals)
        for deal in range(args.first, args.first + args.deals):
            result = solve(GAME.new(deal=deal), seconds=args.seconds,
                           best_bonus=args.best_bonus)
            verdicts[result.verdict] += 1
            times.append(result.seconds)
            timed.append((result.seconds, deal))
            if result.verdict == "winnable":
                bonuses[int(result.extra["bonus"])] += 1
                proven_best += bool(result.extra.get("bonus_proven_best"))
            elif result.verdict == "unknown":
                unknown.append(deal)
            progress.advance(task)
    n = args.deals
    summary = {
        "deals": f"{args.first}-{args.first + n - 1}",
        "seconds_limit": args.seconds,
        "winnable": verdicts["winnable"] / n,
        "unwinnable": verdicts["unwinnable"] / n,
        "unknown": verdicts["unknown"] / n,
        "decided": (n - verdicts["unknown"]) / n,
        "median_seconds": statistics.median(times),
        "max_seconds": max(times),
        "bonus_of_found_lines": {str(k): v for k, v in sorted(bonuses.items())},
        "best_bonus_search": args.best_bonus,
        "bonus_proven_best": proven_best,
        "unknown_deals": unknown,
        "slowest": [[deal, round(t, 2)] for t, deal in sorted(timed, reverse=True)[:5]],
        "wall_seconds": time.perf_counter() - started,
        "cpus": os.cpu_count(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"studenter solver — deals {summary['deals']}, "
                        f"{args.seconds:g} s each ({summary['cpus']} cores)")
    for col in ("winnable", "unwinnable", "unknown", "decided", "median s", "max s"):
        table.add_column(col, justify="right")
    table.add_row(*(f"{100 * summary[k]:.1f}%" for k in
                    ("winnable", "unwinnable", "unknown", "decided")),
                  f"{summary['median_seconds']:.3f}", f"{summary['max_seconds']:.2f}")
    console = Console()
    console.print(table)
    console.print(f"bonus of the found lines: {summary['bonus_of_found_lines']}"
                  + (f" ({proven_best} proven best); " if args.best_bonus else "; ") +
                  f"unknown deals: {unknown or 'none'}; wall {summary['wall_seconds']:.0f} s")
    console.print("slowest (deal, s): " + ", ".join(f"{d} {t}" for d, t in summary["slowest"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
