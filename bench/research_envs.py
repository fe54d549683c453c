"""Benchmark of the research adapters (spillebord.research, docs/research.md): random-policy
environment steps per CPU second, observation encoding and action masks included, and —
in the same run, when the ``rlcard`` package is importable — RLCard's UNO environment
with the same random policy.  Prints a table.

    python bench/research_envs.py            # 20,000 steps each (about a minute)
    python bench/research_envs.py --steps 100000
    pip install rlcard                       # for the UNO comparison (not a dependency)

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
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import gymnasium
from rich.console import Console
from rich.table import Table

import spillebord.research  # noqa: F401  (registers the Gymnasium ids)
from spillebord.research.table import TableEnv, jomfru_env, kugler_env


def table_steps(make: Callable[[int], TableEnv], seats: int, steps: int,
                rng: random.Random) -> int:
    env = make(seats)
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


def gym_steps(env_id: str, steps: int, rng: random.Random) -> int:
    env = gymnasium.make(env_id)
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


def uno_steps(steps: int, rng: random.Random) -> int:
    import rlcard

    env = rlcard.make("uno", config={"seed": rng.randrange(2**31)})
    n = 0
    while n < steps:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
    return n


def measure(run: Callable[[int, random.Random], int], steps: int) -> tuple[int, float]:
    rng = random.Random(2026)
    run(min(steps, 500), rng)  # warm-up (compiled kernels, caches)
    start = time.process_time()
    done = run(steps, rng)
    return done, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    args = parser.parse_args()
    cases: list[tuple[str, Callable[[int, random.Random], int]]] = [
        *((f"PettingZoo Gammel Jomfru, {s} seats", partial(table_steps, jomfru_env, s))
          for s in (2, 4, 8)),
        *((f"PettingZoo Kugler og Jokere, {s} seats", partial(table_steps, kugler_env, s))
          for s in (4, 8)),
        ("Gymnasium spillebord/Posthus-v0", lambda k, r: gym_steps("spillebord/Posthus-v0", k, r)),
        ("Gymnasium spillebord/Studenter-v0",
         lambda k, r: gym_steps("spillebord/Studenter-v0", k, r)),
    ]
    try:
        import rlcard  # noqa: F401
        cases.append(("RLCard UNO (rlcard package)", uno_steps))
    except ImportError:
        Console(stderr=True).print("rlcard is not installed: no UNO comparison")
    console = Console()
    results: dict[str, float] = {}
    table = Table(title=f"Random-policy steps per CPU second ({args.steps:,} steps each)")
    for column in ("environment", "steps", "CPU s", "steps / CPU s"):
        table.add_column(column, justify="left" if column == "environment" else "right")
    for name, run in cases:
        console.print(f"measuring {name} …")
        done, cpu = measure(run, args.steps)
        results[name] = done / cpu
        table.add_row(name, f"{done:,}", f"{cpu:.2f}", f"{done / cpu:,.0f}")
    console.print(table)
    uno = results.get("RLCard UNO (rlcard package)")
    if uno:
        for name, rate in results.items():
            if "Gammel Jomfru" in name:
                console.print(f"{name}: {rate / uno:.2f}× RLCard UNO")


if __name__ == "__main__":
    main()
