"""Benchmark of the research adapters (spillebord.research, docs/research.md): random-policy
environment steps per CPU second, observation encoding and action masks included, and —
in the same run, when the ``rlcard`` package is importable — RLCard's UNO environment
with the same random policy.  Prints a table.

    python bench/research_envs.py            # 20,000 steps each (about a minute)
    python bench/research_envs.py --steps 100000 --rounds 10
    python bench/research_envs.py --steps 100000 --only jomfru   # Gammel Jomfru + UNO
    pip install rlcard                       # for the UNO comparison (not a dependency)

The cases run interleaved: ``--rounds`` rounds, each giving every case ``steps/rounds``
steps (whole episodes), so a change in the machine's load hits every case alike — on a
shared machine a case measured a minute after another may see a different load.  Each
case keeps one environment for the whole run, as an agent would.  The summary gives each
Gammel Jomfru case's ratio to UNO over the whole run and the range and median of the
per-round ratios.

A step is one decision: the acting agent's observation and mask are read (PettingZoo
``last()``, Gymnasium's ``obs`` and ``info["action_mask"]``, RLCard's ``state`` with its
``legal_actions``), a legal action is drawn uniformly, and the environment steps.  CPU
time is ``time.process_time()`` of this process (one core); episodes restart as needed.
The draw is Python's ``random.Random.choice`` for every environment: numpy's
``Generator.choice`` costs ≈ 4.5 µs a call, more than some environments' whole step, and
it is the policy's cost, not the environment's.  Likewise the legal indices are read
from a mask with ``mask.nonzero()[0]`` (``np.flatnonzero`` does the same through two
more Python-level calls: ≈ 0.6 µs more a step).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import gymnasium
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import spillebord.research  # noqa: F401  (registers the Gymnasium ids)
from spillebord.research.table import TableEnv, jomfru_env, kugler_env

Runner = Callable[[int, random.Random], int]  # steps wanted, rng → steps done


def table_runner(make: Callable[[int], TableEnv], seats: int) -> Runner:
    env = make(seats)  # one env for the whole run, as an agent would use it

    def run(steps: int, rng: random.Random) -> int:
        n = 0
        while n < steps:
            env.reset(seed=rng.randrange(2**31))
            for _ in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
                n += 1
        return n
    return run


def gym_runner(env_id: str) -> Runner:
    env = gymnasium.make(env_id)

    def run(steps: int, rng: random.Random) -> int:
        n = 0
        while n < steps:
            _, info = env.reset(seed=rng.randrange(2**31))
            done = False
            while not done and n < steps:
                legal = info["action_mask"].nonzero()[0]
                _, _, term, trunc, info = env.step(int(rng.choice(legal)))
                done = term or trunc
                n += 1
        return n
    return run


def uno_runner() -> Runner:
    import rlcard

    env = rlcard.make("uno", config={"seed": 2026})

    def run(steps: int, rng: random.Random) -> int:
        n = 0
        while n < steps:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                n += 1
        return n
    return run


UNO = "RLCard UNO (rlcard package)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved rounds (every case runs steps/rounds a round)")
    parser.add_argument("--only", default="",
                        help="comma-separated parts of case names to run (UNO always runs)")
    args = parser.parse_args()
    cases: list[tuple[str, Callable[[], Runner]]] = [
        *((f"PettingZoo Gammel Jomfru, {s} seats", partial(table_runner, jomfru_env, s))
          for s in (2, 4, 8)),
        *((f"PettingZoo Kugler og Jokere, {s} seats", partial(table_runner, kugler_env, s))
          for s in (4, 8)),
        ("Gymnasium spillebord/Posthus-v0", partial(gym_runner, "spillebord/Posthus-v0")),
        ("Gymnasium spillebord/Studenter-v0", partial(gym_runner, "spillebord/Studenter-v0")),
    ]
    if args.only:
        wanted = [w.strip().lower() for w in args.only.split(",")]
        cases = [c for c in cases if any(w in c[0].lower() for w in wanted)]
    try:
        import rlcard  # noqa: F401
        cases.append((UNO, uno_runner))
    except ImportError:
        Console(stderr=True).print("rlcard is not installed: no UNO comparison")
    console = Console()
    runners = {name: make() for name, make in cases}
    rng = random.Random(2026)
    for run in runners.values():
        run(min(args.steps, 500), rng)  # warm-up (compiled kernels, caches)
    done = dict.fromkeys(runners, 0)
    cpu = dict.fromkeys(runners, 0.0)
    rounds: list[dict[str, float]] = []
    chunk = max(1, args.steps // args.rounds)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("interleaved rounds", total=args.rounds)
        for _ in range(args.rounds):
            rates: dict[str, float] = {}
            for name, run in runners.items():
                start = time.process_time()
                k = run(chunk, rng)
                spent = time.process_time() - start
                done[name] += k
                cpu[name] += spent
                rates[name] = k / spent
            rounds.append(rates)
            progress.advance(task)
    table = Table(title=f"Random-policy steps per CPU second ({args.steps:,} steps each, "
                        f"{args.rounds} interleaved rounds)")
    for column in ("environment", "steps", "CPU s", "steps / CPU s"):
        table.add_column(column, justify="left" if column == "environment" else "right")
    for name in runners:
        table.add_row(name, f"{done[name]:,}", f"{cpu[name]:.2f}",
                      f"{done[name] / cpu[name]:,.0f}")
    console.print(table)
    if UNO in runners:
        uno = done[UNO] / cpu[UNO]
        for name in runners:
            if "Gammel Jomfru" in name:
                per_round = [r[name] / r[UNO] for r in rounds]
                console.print(f"{name}: {done[name] / cpu[name] / uno:.2f}× RLCard UNO "
                              f"(rounds {min(per_round):.2f}–{max(per_round):.2f}×, "
                              f"median {statistics.median(per_round):.2f}×)")


if __name__ == "__main__":
    main()
