"""Benchmark of Kugler og Jokere: engine speed and bot strength.  Prints a table.

    python bench/kugler.py --quick                      # a smoke run (seconds)
    python bench/kugler.py --games 400 --workers 2      # the team matches, 400 games each
    python bench/kugler.py --skip-engine --match L3/greedy --games 400 --workers 2

1. random playouts: actions per second at 4, 6 and 8 seats (legal_actions + apply);
2. legal-action generation for the worst hand: 5 own marbles on the track, a 7, a
   joker and an 8 in hand (microseconds a call, cold state each call);
3. team matches at 4 seats (``--match A/B``, bots named by spec: ``L1``–``L3`` the
   declared levels, ``greedy``, ``ismcts:iterations=300``; by default greedy vs random,
   level 3 vs greedy, level 2 vs level 1, level 2 vs level 3).  Games come in
   pairs on one deal: in game g the deal is ``seed + g // 2`` and seat s plays
   bots[(s + g) % 2], so partners share a bot and each bot team plays every deal once
   from each seat pair (once starting, once second).  A game stopped by the turn limit
   with no winner counts half to each side; Wilson 95% intervals.  Every decision of
   the first bot is timed in CPU seconds of its worker process (the honest figure on a
   shared machine) and in wall-clock seconds; games run in ``--workers`` processes
   with a Rich progress bar; ``--out`` writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

if "PYTHONPATH" not in os.environ:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from spillebord import bots
from spillebord.cli.simulate import wilson
from spillebord.games.kugler import GAME, KuglerState


def step(state: KuglerState, action: Any) -> KuglerState:
    after = state.apply(action)
    assert isinstance(after, KuglerState)
    return after


def playout_speed(seats: int, games: int, rounds: int = 3) -> tuple[list[float], float,
                                                                     float]:
    """(actions per CPU second of this process in each round, per wall second overall,
    mean turns).  Each round plays the same ``games`` random games (deals 0 …); the CPU
    figure is the one-core engine speed even when the machine is shared, and the best
    round is the least disturbed by the other processes on the machine."""
    GAME.new(deal=0, seats=seats).legal_actions()  # load compiled code before the clock
    rates: list[float] = []
    actions = 0
    turns = 0
    t0 = time.perf_counter()
    for _ in range(rounds):
        done = 0
        c0 = time.process_time()
        for g in range(games):
            rng = random.Random(g)
            state: KuglerState = GAME.new(deal=g, seats=seats)
            while state.to_move is not None:
                state = step(state, rng.choice(state.legal_actions()))
                done += 1
            turns += state.turns
        rates.append(done / (time.process_time() - c0))
        actions += done
    return rates, actions / (time.perf_counter() - t0), turns / (games * rounds)


def greedy_playout_speed(games: int) -> tuple[float, float]:
    """(greedy plies per CPU-second on the engine, in the bots' compiled playouts), 4
    seats."""
    import numpy as np

    from spillebord.bots.kugler.fastplay import GREEDY, run_greedy
    from spillebord.bots.kugler.greedy import best_move
    from spillebord.games.kugler import kernel

    def playout(g: int, plies: int) -> int:
        state = GAME.new(deal=g, seats=4)
        hands = np.zeros((4, kernel.NRANKS), dtype=np.int64)
        for s in range(4):
            for c in state.hands[s]:
                hands[s, kernel.RANK_OF_CODE[c]] += 1
        draw = np.array([kernel.RANK_OF_CODE[c] for c in reversed(state.draw)],
                        dtype=np.int64)
        counts = np.array([len(draw), 0], dtype=np.int64)
        played: int = run_greedy(state._arr.copy(), kernel.GEO[4], hands, draw,
                                 np.zeros(140, dtype=np.int64), counts, 0, 0, 1200, plies,
                                 False, False, True, np.tile(GREEDY, (2, 1)))
        return played

    playout(0, 10)  # load the compiled code before the clock starts
    best_move(GAME.new(deal=0, seats=4), GAME.new(deal=0, seats=4).legal_actions())
    plies = 0
    c0 = time.process_time()
    for g in range(games):
        state = GAME.new(deal=g, seats=4)
        while state.to_move is not None and plies < (g + 1) * 400:
            state = state._apply(best_move(state, state.legal_actions()))
            plies += 1
    engine = plies / (time.process_time() - c0)
    plies = 0
    c0 = time.process_time()
    for g in range(games):
        plies += playout(g, 400)
    return engine, plies / (time.process_time() - c0)


WORST = {"seats": 4, "turn": 0,
         "marbles": {"0": ["t2", "t9", "t16", "t30", "t45"], "1": ["t20", "t33", "s1", "s1",
                                                                  "s1"],
                     "2": ["t50", "t60", "s2", "s2", "s2"], "3": ["t5", "t40", "s3", "s3",
                                                                  "s3"]},
         "hands": {"0": ["7C", "7H", "JK", "8D", "5S"]}}


def legal_time(repeat: int) -> tuple[float, float, int]:
    """(wall µs, CPU µs, number of actions) of one legal_actions call, cold state."""
    text = json.dumps(WORST)
    states = [GAME.parse_position(text) for _ in range(repeat)]
    t0 = time.perf_counter()
    c0 = time.process_time()
    for s in states:
        n = len(s.legal_actions())
    return ((time.perf_counter() - t0) / repeat * 1e6,
            (time.process_time() - c0) / repeat * 1e6, n)


Job = tuple[str, str, int, int]


def load_spec(spec: str) -> bots.Bot:
    """A bot from a spec: ``L1``–``L3`` (the game's declared level), ``greedy``, or
    ``ismcts:iterations=300,horizon=12`` (a named bot with options)."""
    if spec[0] == "L" and spec[1:].isdigit():
        level = bots.levels("kugler")[int(spec[1:])]
        return bots.load("kugler", level.bot, **level.options)
    name, _, rest = spec.partition(":")
    opts: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        try:
            opts[key] = float(value) if "." in value else int(value)
        except ValueError:
            opts[key] = value
    return bots.load("kugler", name, **opts)


def play_one(job: Job) -> dict[str, Any]:
    """One game of a team match; the first bot's decisions timed (CPU and wall)."""
    a, b, seed, g = job
    loaded = {a: load_spec(a), b: load_spec(b)}
    names = [(a, b)[(s + g) % 2] for s in range(4)]
    rng = random.Random(seed * 100_003 + g)
    state: KuglerState = GAME.new(deal=seed + g // 2, seats=4)
    cpu: list[float] = []
    wall: list[float] = []
    while state.to_move is not None:
        seat = state.to_move
        obs = bots.Observation(state, seat, rng)
        c0 = time.process_time()
        w0 = time.perf_counter()
        action = loaded[names[seat]].choose(obs)
        if names[seat] == a:
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        state = step(state, action)
    out = state.outcome
    assert out is not None
    score = 0.5 if not out.winners else float(names[out.winners[0]] == a)
    return {"game": g, "score": score, "turns": state.turns, "decisions": len(cpu),
            "cpu_sum": sum(cpu), "cpu_max": max(cpu, default=0.0),
            "wall_sum": sum(wall), "wall_max": max(wall, default=0.0)}


def _warm(_: int) -> None:
    """Load the compiled kernel in a worker before its first timed decision."""
    state = GAME.new(deal=0, seats=4)
    load_spec("ismcts:iterations=2").choose(bots.Observation(state, 0, random.Random(0)))


def match(a: str, b: str, games: int, seed: int = 0, workers: int = 1,
          log: Path | None = None) -> dict[str, Any]:
    """Play ``games`` games; the result figures for ``a``."""
    jobs: list[Job] = [(a, b, seed, g) for g in range(games)]
    results: list[dict[str, Any]] = []
    score = 0.0
    t0 = time.perf_counter()
    logf = log.open("a") if log else None
    _warm(0)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[score]}")) as progress:
        task = progress.add_task(f"{a} vs {b}", total=games, score="")
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers) if workers > 1 else _Serial() as pool:
            for r in pool.imap_unordered(play_one, jobs):
                results.append(r)
                score += r["score"]
                done = len(results)
                text = f"{a} {score:g}/{done} = {score / done:.3f}"
                progress.update(task, advance=1, score=text)
                if logf:
                    logf.write(json.dumps({"a": a, "b": b, **r}) + "\n")
                    logf.flush()
    if logf:
        logf.close()
    decisions = sum(r["decisions"] for r in results)
    wins = sum(r["score"] == 1.0 for r in results)
    halves = sum(r["score"] == 0.5 for r in results)
    lo, hi = wilson(round(score), games)
    return {"a": a, "b": b, "games": games, "wins": wins,
            "halves": halves, "score": score, "rate": score / games, "ci": [lo, hi],
            "seed": seed, "workers": workers,
            "elapsed_s": time.perf_counter() - t0, "decisions": decisions,
            "mean_turns": sum(r["turns"] for r in results) / games,
            "cpu_mean": sum(r["cpu_sum"] for r in results) / max(decisions, 1),
            "cpu_max": max(r["cpu_max"] for r in results),
            "wall_mean": sum(r["wall_sum"] for r in results) / max(decisions, 1),
            "wall_max": max(r["wall_max"] for r in results)}


class _Serial:
    """A stand-in for a one-process pool."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Any, jobs: list[Job]) -> Any:
        return map(fn, jobs)


def row(r: dict[str, Any]) -> str:
    return (f"| {r['a']} vs {r['b']}, 4 seats | {r['rate']:.3f}: "
            f"{r['score']:g} of {r['games']} games ({r['wins']} won, {r['halves']} "
            f"undecided; 95% CI {r['ci'][0]:.3f}–{r['ci'][1]:.3f}); {r['a']} a decision "
            f"CPU mean {r['cpu_mean'] * 1e3:.1f} ms / max {r['cpu_max'] * 1e3:.0f} ms, wall "
            f"mean {r['wall_mean'] * 1e3:.1f} ms / max {r['wall_max'] * 1e3:.0f} ms; "
            f"{r['elapsed_s']:.0f} s wall on {r['workers']} workers |")


def engine_table(playouts: int, repeat: int, rounds: int, label: str = "") -> None:
    """The engine rows: random playouts at 4/6/8 seats and the worst hand."""
    for seats in (4, 6, 8):
        rates, wall, turns = playout_speed(seats, playouts, rounds)
        rates.sort()
        print(f"| {label}random playouts, {seats} seats | **{rates[-1]:,.0f}** actions per "
              f"CPU-second, best of {rounds} rounds (median {rates[len(rates) // 2]:,.0f}; "
              f"{wall:,.0f} per wall second; mean {turns:.0f} turns/game, {playouts} "
              f"games a round) |", flush=True)
    us, cpu_us, n = legal_time(repeat)
    print(f"| {label}legal_actions, worst hand (5 marbles out, 7 7 JK 8 5) | **{cpu_us:,.0f} "
          f"µs** CPU ({us:,.0f} µs wall; {n} actions) |", flush=True)


def before_table(rev: str, playouts: int, repeat: int, rounds: int) -> None:
    """The engine rows for the sources of git revision ``rev`` (its src/ exported to a
    temporary directory, measured by this script in a child process)."""
    import subprocess
    import tempfile

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": f"{tmp}/src"}
        code = (f"import sys; sys.argv = ['kugler']; sys.path.insert(0, {str(root)!r}); "
                f"import importlib.util as u; s = u.spec_from_file_location('kb', "
                f"{str(Path(__file__).resolve())!r}); m = u.module_from_spec(s); "
                f"s.loader.exec_module(m); m.engine_table({playouts}, {repeat}, {rounds}, "
                f"'before ({rev}): ')")
        subprocess.run([sys.executable, "-c", code], env=env, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny run")
    ap.add_argument("--playouts", type=int, default=20, help="random playouts per size")
    ap.add_argument("--games", type=int, default=400, help="games a match")
    ap.add_argument("--match", action="append", metavar="A/B",
                    help="a team match of bot specs (L1–L3, greedy, random, "
                         "ismcts:iterations=300); repeatable; default: greedy/random, "
                         "L3/greedy, L2/L1, L2/L3")
    ap.add_argument("--seed", type=int, default=10_000, help="first deal of the matches")
    ap.add_argument("--workers", type=int, default=1, help="processes for the matches")
    ap.add_argument("--skip-engine", action="store_true")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the random playouts")
    ap.add_argument("--before", metavar="REV",
                    help="also measure the engine of git revision REV in the same run")
    ap.add_argument("--skip-matches", action="store_true", help="engine figures only")
    ap.add_argument("--out", type=Path, help="write the match figures as JSON here")
    ap.add_argument("--log", type=Path, help="append each game's result (JSON lines)")
    args = ap.parse_args()
    playouts = 3 if args.quick else args.playouts
    games = 4 if args.quick else args.games
    print(f"kugler benchmark {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} cores (shared), Python {sys.version.split()[0]}")
    print("| measure | value |")
    print("|---|---|")
    if not args.skip_engine:
        engine_table(playouts, 50 if args.quick else 500, args.rounds)
        if args.before:
            before_table(args.before, playouts, 50 if args.quick else 500, args.rounds)
        engine, fast = greedy_playout_speed(2 if args.quick else 10)
        print(f"| greedy playouts, 4 seats (ismcts' rollouts) | {fast:,.0f} plies per "
              f"CPU-second in the compiled playouts, {engine:,.0f} on the engine |",
              flush=True)
    if args.skip_matches:
        return
    figures: list[dict[str, Any]] = []
    for spec in args.match or ["greedy/random", "L3/greedy", "L2/L1", "L2/L3"]:
        a, b = spec.split("/")
        figures.append(match(a, b, games, seed=args.seed, workers=args.workers,
                             log=args.log))
        print(row(figures[-1]), flush=True)
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
