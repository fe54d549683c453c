"""Evaluate a learned baseline against Spillebord's bots (docs/research.md, "Learned
baselines"): 4 seats, the learned agent on two seats and the bot on two, each deal
played both ways; win share and Wilson 95 % interval per opponent, as the table in
docs/research.md.  Needs no torch (the policy runs in numpy):

    nice -n 10 .venv/bin/python scripts/eval_learned.py gammel_jomfru --games 400
    nice -n 10 .venv/bin/python scripts/eval_learned.py kugler --opponents random,L1,L2 \
        --games 200 --workers 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from spillebord.research.learned import MlpPolicy, agent_path
from spillebord.research.learned_eval import SEATS, match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="gammel_jomfru or kugler")
    parser.add_argument("--opponents", default="random,L1,L2,L3",
                        help="bot specs, comma-separated (default random,L1,L2,L3)")
    parser.add_argument("--games", type=int, default=400, help="games per opponent (even)")
    parser.add_argument("--seed", type=int, default=1, help="first deal number")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--policy", type=Path, default=None,
                        help="the policy file (default: the shipped one)")
    parser.add_argument("--json", type=Path, default=None, help="append results here")
    args = parser.parse_args()
    path = args.policy or agent_path(args.game, SEATS)
    meta = MlpPolicy.load(path).meta
    console = Console()
    console.print(f"{path}: seed {meta.get('seed')}, {meta.get('steps', 0):,} steps, "
                  f"{meta.get('cpu_seconds')} CPU s of training")
    rows = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[note]}"),
                  console=console) as progress:
        for spec in args.opponents.split(","):
            task = progress.add_task(f"learned vs {spec}", total=args.games, note="")
            scores: list[float] = []

            def advance(score: float, task: int = task, scores: list[float] = scores) -> None:
                scores.append(score)
                progress.update(task, advance=1,
                                note=f"{sum(scores) / len(scores):.3f}")

            result = match(args.game, path, spec, args.games, seed=args.seed,
                           workers=args.workers, advance=advance)
            rows.append(result.to_json())
    for r in rows:
        console.print(f"| learned vs {r['opponent']} | {r['games']} | {r['rate']:.3f} "
                      f"({r['ci_low']:.3f}–{r['ci_high']:.3f}) | {r['wins']} won, "
                      f"{r['halves']} tied | {r['cpu_seconds']:.0f} CPU s, "
                      f"{r['wall_seconds']:.0f} s wall |")
    if args.json:
        with args.json.open("a") as f:
            for r in rows:
                f.write(json.dumps({**r, "policy_seed": meta.get("seed"),
                                    "policy_steps": meta.get("steps")}) + "\n")


if __name__ == "__main__":
    main()
