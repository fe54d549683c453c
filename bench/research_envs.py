"""Benchmark of the research adapters (spillebord.research, docs/research.md): random-policy
environment steps per CPU second, observation encoding and action masks included, and —
in the same run, when the ``rlcard`` package is importable — RLCard's UNO environment
with the same random policy.  Prints a table.

    python bench/research_envs.py            # 20,000 steps each (about a minute)
    python bench/research_envs.py --steps 100000 --rounds 10
    python bench/research_envs.py --steps 100000 --only jomfru   # Gammel Jomfru + UNO
    python bench/research_envs.py --playouts --seconds 2 --rounds 5   # the vector engines
    python bench/research_envs.py --only kugler,"vector env"  # batched envs beside AEC
    (RLCard's UNO: the research extra installs ``rlcard``)

The batched envs (``KuglerBatch``, ``JomfruBatch``: 256 games stepped at once, every
game's observation and mask read each step) count one game's step as a step.  The cases
run interleaved: ``--rounds`` rounds, each giving every case ``steps/rounds``
steps (whole episodes), so a change in the machine's load hits every case alike — on a
shared machine a case measured a minute after another may see a different load.  Each
case keeps one environment for the whole run, as an agent would.  The summary gives each
PettingZoo case's ratio to UNO over the whole run and the range and median of the
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
from spillebord.research.kugler import KuglerCodec
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


def vector_env_runner(game: str, seats: int, num_envs: int = 256) -> Runner:
    """A batched env (``KuglerBatch`` / ``JomfruBatch``, compiled): every batch step
    reads all games' observations (``observe()``) and masks, draws one legal action per
    game uniformly (numpy, batched) and steps them all with auto-reset; a step is one
    game's decision, so a batch step counts ``num_envs``."""
    import numpy as np

    from spillebord.research.jomfru_batch import JomfruBatch
    from spillebord.research.kugler_batch import KuglerBatch

    draws = np.random.default_rng(seats)
    rows = np.arange(num_envs)
    if game == "kugler":
        kb = KuglerBatch(num_envs, seats)
        kb.reset(seed=seats)

        def kugler(steps: int, rng: random.Random) -> int:
            n = 0
            while n < steps:
                kb.observe()
                pick = (draws.random(num_envs) * kb.counts).astype(np.int64)
                kb.step(kb.actions[rows, pick])
                n += num_envs
            return n
        return kugler
    jb = JomfruBatch(num_envs, seats)
    masks, _ = jb.reset(seed=seats)

    def jomfru(steps: int, rng: random.Random) -> int:
        nonlocal masks
        n = 0
        while n < steps:
            jb.observe()
            masks, _, _, _ = jb.step((masks * draws.random(masks.shape)).argmax(axis=1))
            n += num_envs
        return n
    return jomfru


def view_kugler_env(seats: int) -> TableEnv:
    """Kugler's env as it was before the compiled one: the engine's states, the view
    codec's observation and mask each step (the same game)."""
    return TableEnv("kugler", KuglerCodec(seats), seats)


# -- random playouts: the vector engines, the single-state engines, OpenSpiel C++ ----------
Playout = Callable[[float], tuple[int, int]]  # CPU seconds wanted -> games, decisions


def vector_playouts(module: str, seats: int) -> Playout:
    import importlib

    batch = importlib.import_module(f"spillebord.research.{module}")
    seed = iter(range(10**9))

    def run(seconds: float) -> tuple[int, int]:
        games = decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            _, lengths, total = batch.random_playouts(seats, 200, seed=next(seed))
            games += len(lengths)
            decisions += total
        return games, decisions
    return run


def batch_env_steps(seats: int, num_envs: int = 256) -> Playout:
    """JomfruBatch as an env: every step reads all observations (compiled encoder) and
    masks, draws a random legal action per game (numpy, batched) and steps; a decision
    is one game's step."""
    import numpy as np

    from spillebord.research.jomfru_batch import JomfruBatch

    batch = JomfruBatch(num_envs, seats)
    masks, _ = batch.reset(seed=seats)
    draws = np.random.default_rng(seats)

    def run(seconds: float) -> tuple[int, int]:
        nonlocal masks
        steps = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            batch.observe()
            actions = (masks * draws.random(masks.shape)).argmax(axis=1)
            masks, _, _, dones = batch.step(actions)
            steps += num_envs
            games += int(dones.sum())
        return games, steps
    return run


def engine_playouts(key: str, seats: int) -> Playout:
    from spillebord import games as registry

    game = registry.load(key)
    rng = random.Random(seats)

    def run(seconds: float) -> tuple[int, int]:
        games = decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new(deal=rng.randrange(10**9), seats=seats)
            while state.to_move is not None:
                state = state.apply_legal(rng.choice(state.legal_actions()))
                decisions += 1
            games += 1
        return games, decisions
    return run


def openspiel_playouts(name: str) -> tuple[Playout, float, float]:
    """OpenSpiel's C++ game played by its C++ uniform random bots (``evaluate_bots``:
    the whole game in C++); decisions per game measured apart (chance nodes excluded)."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, p + 1) for p in range(game.num_players())]
    seed = iter(range(10**9))
    draws = np.random.RandomState(0)
    decisions = chances = 0
    sample = 300
    for _ in range(sample):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes, probs = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(draws.choice(outcomes, p=probs)))
                chances += 1
            else:
                st.apply_action(int(draws.choice(st.legal_actions())))
                decisions += 1
    per_game, chance_per_game = decisions / sample, chances / sample

    def run(seconds: float) -> tuple[int, int]:
        games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seed))
            games += 1
        return games, round(games * per_game)
    return run, per_game, chance_per_game


def playouts_main(seconds: float, rounds: int) -> None:
    console = Console(width=140)
    cases: dict[str, Playout] = {}
    for n in (2, 4, 8):
        cases[f"vector engine Gammel Jomfru, {n} seats (Numba)"] = vector_playouts(
            "jomfru_batch", n)
    cases["single-state engine Gammel Jomfru, 4 seats"] = engine_playouts("gammel_jomfru", 4)
    cases["vector env Gammel Jomfru, 4 seats, 256 games (observations + masks)"] = \
        batch_env_steps(4)
    for n in (4, 8):
        cases[f"vector engine Kugler og Jokere, {n} seats (Numba)"] = vector_playouts(
            "kugler_batch", n)
    cases["single-state engine Kugler og Jokere, 4 seats"] = engine_playouts("kugler", 4)
    lengths: dict[str, tuple[float, float]] = {}
    try:
        for name in ("crazy_eights", "dou_dizhu"):
            run, per_game, chance = openspiel_playouts(name)
            cases[f"OpenSpiel C++ {name}"] = run
            lengths[name] = (per_game, chance)
    except ImportError:
        Console(stderr=True).print("pyspiel is not installed: no OpenSpiel comparison")
    for run in cases.values():
        run(0.2)  # warm-up: compiled kernels
    games = dict.fromkeys(cases, 0)
    decisions = dict.fromkeys(cases, 0)
    cpu = dict.fromkeys(cases, 0.0)
    for _ in range(rounds):
        for name, run in cases.items():
            start = time.process_time()
            g, d = run(seconds)
            cpu[name] += time.process_time() - start
            games[name] += g
            decisions[name] += d
    table = Table(title=f"Random playouts per CPU second ({rounds} interleaved rounds of "
                        f"{seconds:g} CPU s a case)")
    for column in ("engine", "games", "CPU s", "games / CPU s", "decisions / game",
                   "decisions / CPU s"):
        table.add_column(column, justify="left" if column == "engine" else "right")
    for name in cases:
        table.add_row(name, f"{games[name]:,}", f"{cpu[name]:.2f}",
                      f"{games[name] / cpu[name]:,.0f}",
                      f"{decisions[name] / max(1, games[name]):,.1f}",
                      f"{decisions[name] / cpu[name]:,.0f}")
    console.print(table)
    for name, (per_game, chance) in lengths.items():
        console.print(f"OpenSpiel {name}: {per_game:.1f} decisions and {chance:.1f} chance "
                      "nodes a game (decisions counted; chance nodes not)")
    rate = {name: decisions[name] / cpu[name] for name in cases}
    grate = {name: games[name] / cpu[name] for name in cases}
    for key, label in (("Gammel Jomfru", "4 seats"), ("Kugler og Jokere", "4 seats")):
        vec = f"vector engine {key}, {label} (Numba)"
        one = f"single-state engine {key}, {label}"
        console.print(f"{key} {label}: vector {rate[vec] / rate[one]:.1f}× the single-state "
                      "engine (decisions / CPU s)")
        for name in lengths:
            peer = f"OpenSpiel C++ {name}"
            console.print(f"  vs {peer}: {rate[vec] / rate[peer]:.2f}× decisions / CPU s, "
                          f"{grate[vec] / grate[peer]:.2f}× games / CPU s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved rounds (every case runs steps/rounds a round)")
    parser.add_argument("--only", default="",
                        help="comma-separated parts of case names to run (UNO always runs)")
    parser.add_argument("--playouts", action="store_true",
                        help="random playouts of the vector and single-state engines "
                             "beside OpenSpiel C++ instead of the env steps")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="with --playouts: CPU seconds a case a round")
    args = parser.parse_args()
    if args.playouts:
        playouts_main(args.seconds, args.rounds)
        return
    cases: list[tuple[str, Callable[[], Runner]]] = [
        *((f"PettingZoo Gammel Jomfru, {s} seats", partial(table_runner, jomfru_env, s))
          for s in (2, 4, 8)),
        *((f"PettingZoo Kugler og Jokere, {s} seats", partial(table_runner, kugler_env, s))
          for s in (4, 8)),
        ("PettingZoo Kugler og Jokere, 4 seats, the view codec (before issue 32's env)",
         partial(table_runner, view_kugler_env, 4)),
        *((f"vector env Kugler og Jokere, {s} seats, 256 games (KuglerBatch)",
           partial(vector_env_runner, "kugler", s)) for s in (4, 8)),
        ("vector env Gammel Jomfru, 4 seats, 256 games (JomfruBatch)",
         partial(vector_env_runner, "jomfru", 4)),
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
    rate = {name: done[name] / cpu[name] for name in runners}
    for name in runners:
        if name.startswith("vector env"):
            single = name.replace("vector env", "PettingZoo").split(", 256")[0]
            if single in rate:
                console.print(f"{name}: {rate[name] / rate[single]:.1f}× the single "
                              f"{single} env")
    if UNO in runners:
        uno = done[UNO] / cpu[UNO]
        for name in runners:
            if "PettingZoo" in name or name.startswith("vector env"):
                per_round = [r[name] / r[UNO] for r in rounds]
                console.print(f"{name}: {done[name] / cpu[name] / uno:.2f}× RLCard UNO "
                              f"(rounds {min(per_round):.2f}–{max(per_round):.2f}×, "
                              f"median {statistics.median(per_round):.2f}×)")


if __name__ == "__main__":
    main()
