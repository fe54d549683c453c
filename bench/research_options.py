"""Benchmark of the table envs' RL options (docs/research.md, "Options for RL"): random
policy on Gammel Jomfru with and without ``auto_forced`` and ``flat``, in CPU time of
this process.  Reports decisions (steps an agent was asked for) and engine actions
(decisions + auto-played forced actions) per CPU second, and games per CPU second — the
figure an RL run cares about.  The cases run interleaved in rounds, so a change of load
hits all alike.

    python bench/research_options.py                       # 4 seats, 5 rounds
    python bench/research_options.py --seats 8 --games 40 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from spillebord.research.table import TableEnv, jomfru_env

CASES: dict[str, dict[str, Any]] = {
    "plain": {}, "auto_forced": {"auto_forced": True}, "flat": {"flat": True},
    "auto_forced+flat": {"auto_forced": True, "flat": True},
}


def play(env: TableEnv, rng: random.Random, games: int) -> tuple[int, int]:
    """``games`` random games; (decisions, auto-played actions)."""
    decisions = forced = 0
    for _ in range(games):
        env.reset(seed=rng.randrange(2**31))
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = info["action_mask"] if env.flat else obs["action_mask"]
            env.step(int(rng.choice(mask.nonzero()[0])))
            decisions += 1
        forced += env.forced_steps
    return decisions, forced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=30, help="games a case per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    envs = {name: jomfru_env(args.seats, **opts) for name, opts in CASES.items()}
    totals = {name: [0.0, 0, 0, 0] for name in CASES}  # cpu, decisions, forced, games
    for r in range(args.rounds):
        for name, env in envs.items():
            rng = random.Random(r)  # the same games for every case
            start = time.process_time()
            decisions, forced = play(env, rng, args.games)
            t = totals[name]
            t[0] += time.process_time() - start
            t[1] += decisions
            t[2] += forced
            t[3] += args.games
    print(f"Gammel Jomfru, {args.seats} seats, {args.rounds} rounds × {args.games} games")
    print(f"{'case':18} {'decisions/CPU s':>16} {'actions/CPU s':>14} {'games/CPU s':>12}"
          f" {'forced share':>12}")
    for name, (cpu, decisions, forced, games) in totals.items():
        actions = decisions + forced
        print(f"{name:18} {decisions / cpu:16,.0f} {actions / cpu:14,.0f} "
              f"{games / cpu:12,.1f} {forced / actions:12.1%}")


if __name__ == "__main__":
    main()
