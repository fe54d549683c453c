"""Tune the kugler evaluation's weights (bots/kugler/fastplay.py) by whole compiled
games of the one-ply policy (bots/kugler/selfplay.py) against a fixed opponent
(greedy by default): coordinate search, each weight tried up and down by its step, a
change kept when it scores better on the same deals; steps halve when nothing
helps.  Prints each accepted change and the final weights (as ``weights(...)``).

    nice -n 10 python bench/kugler_tune.py --pairs 2000 --rounds 3
    nice -n 10 python bench/kugler_tune.py --compare tuned/greedy --seed 20000000

``--compare A/B`` (repeatable) only plays the one-ply policies of two weight sets
against each other (``--pairs`` pairs from deal ``--seed``) and prints a table row.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np

if "PYTHONPATH" not in os.environ:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spillebord.bots.kugler import fastplay as fp
from spillebord.bots.kugler.selfplay import duel
from spillebord.cli.simulate import wilson

STEPS = {"out": 4.0, "home": 8.0, "homestep": 2.0, "danger": 0.03, "opp": 0.25,
         "keep_out": 2.0}
KEEP_STEP = 1.5


def _score(job: tuple[np.ndarray, np.ndarray, int, int]) -> float:
    a, b, first, pairs = job
    return duel(a, b, first, pairs)


def score(pool: multiprocessing.pool.Pool, a: np.ndarray, b: np.ndarray, first: int,
          pairs: int, workers: int) -> float:
    """``a``'s rate against ``b`` over ``pairs`` pairs of games from deal ``first``."""
    chunk = pairs // workers
    jobs = [(a, b, first + i * chunk, chunk) for i in range(workers)]
    return sum(pool.map(_score, jobs)) / (2 * chunk * workers)


def named(w: np.ndarray) -> str:
    parts = [f"{k}={w[getattr(fp, 'W_' + k.upper())]:g}" for k in STEPS]
    keep = ", ".join(f"{x:g}" for x in w[fp.W_KEEP:])
    return ", ".join(parts) + f", keep=[{keep}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--start", default="advance", choices=sorted(fp.VALUES))
    ap.add_argument("--against", default="greedy", choices=sorted(fp.VALUES))
    ap.add_argument("--seed", type=int, default=1_000_000, help="first deal")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--check", type=int, default=5000, help="pairs of the final check")
    ap.add_argument("--compare", action="append", metavar="A/B",
                    help="only compare two weight sets (greedy, advance, tuned)")
    args = ap.parse_args()
    if args.compare:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for spec in args.compare:
                a, b = spec.split("/")
                w0 = time.perf_counter()
                rate = score(pool, fp.VALUES[a], fp.VALUES[b], args.seed, args.pairs,
                             args.workers)
                n = 2 * (args.pairs // args.workers) * args.workers
                lo, hi = wilson(round(rate * n), n)
                print(f"| {a} vs {b} (one ply) | {rate:.3f} ({round(rate * n)} of {n}; "
                      f"{lo:.3f}–{hi:.3f}) | {time.perf_counter() - w0:.1f} s wall on "
                      f"{args.workers} workers |", flush=True)
        return
    best = fp.VALUES[args.start].copy()
    opp = fp.VALUES[args.against]
    steps = {getattr(fp, "W_" + k.upper()): v for k, v in STEPS.items()}
    steps.update({fp.W_KEEP + r: KEEP_STEP for r in range(fp.NRANKS)})
    t0 = time.time()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        base = score(pool, best, opp, args.seed, args.pairs, args.workers)
        print(f"start {base:.4f}: {named(best)}", flush=True)
        for rnd in range(args.rounds):
            improved = False
            for i, step in steps.items():
                for sign in (1.0, -1.0):
                    trial = best.copy()
                    trial[i] += sign * step
                    if trial[i] < 0:
                        continue
                    s = score(pool, trial, opp, args.seed, args.pairs, args.workers)
                    if s > base:
                        best, base, improved = trial, s, True
                        print(f"round {rnd} w[{i}] {sign * step:+g} -> {s:.4f} "
                              f"({time.time() - t0:.0f} s)", flush=True)
                        break
            if not improved:
                steps = {i: s / 2 for i, s in steps.items()}
                print(f"round {rnd}: no change, steps halved", flush=True)
        print(f"final (tuning deals) {base:.4f}: {named(best)}")
        fresh = score(pool, best, opp, args.seed + 10_000_000, args.check, args.workers)
        n = 2 * args.check
        lo, hi = wilson(round(fresh * n), n)
        print(f"fresh deals vs {args.against}: {fresh:.4f} of {n} games "
              f"(95% CI {lo:.3f}–{hi:.3f})")
        print("np.array(" + repr(best.tolist()) + ")")


if __name__ == "__main__":
    main()
