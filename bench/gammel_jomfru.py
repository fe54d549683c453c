"""Benchmark of Gammel Jomfru: engine speed and bot strength.  Prints tables.

    python bench/gammel_jomfru.py --quick          # a smoke run (about a minute)
    python bench/gammel_jomfru.py --games 2000     # the full bot match
    python bench/gammel_jomfru.py --levels 400     # the levels, pair by pair

1. random playouts on one core: actions per second through the public protocol
   (``legal_actions()`` + ``apply(text)``, a new immutable state each action) at 2, 4 and
   8 seats, and the search bot's private fast rollouts (full games per second);
2. a mixed table at 4 seats: search, heuristic and random, rotating seats as
   ``spillebord simulate`` does (seat s plays bots[(s + g) mod 3] in game g); each bot's
   loss rate (share of its seat-games ending as the gammel jomfru) with its Wilson 95%
   interval, the mean rank, the pairwise differences of loss rates with a 95% interval
   (normal approximation), and the search bot's time per real decision;
3. with ``--levels N``: the game's levels (``bots.levels``) pair by pair, N games each at
   4 seats, the stronger level on seats 0 and 2 in even games and 1 and 3 in odd ones;
   each game has exactly one gammel jomfru, so the share of games lost by the weaker
   level (Wilson 95% interval) says whether the stronger level is better: above 0.5
   with the interval excluding 0.5.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from spillebord import bots
from spillebord.bots.gammel_jomfru.rollout import Playout
from spillebord.bots.gammel_jomfru.search import SearchBot
from spillebord.cli.simulate import wilson
from spillebord.games.gammel_jomfru import GAME

BOTS = ("search", "heuristic", "random")


def playout_speed(seats: int, games: int) -> tuple[float, float]:
    """Actions per second of random play through the protocol, mean actions a game."""
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(g)
        state = GAME.new(deal=g, seats=seats)
        while state.to_move is not None:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - t0), actions / games


def rollout_speed(seats: int, games: int) -> float:
    """Full random games per second with the search bot's fast rollouts."""
    starts = [GAME.new(deal=g, seats=seats) for g in range(games)]
    t0 = time.perf_counter()
    for g, start in enumerate(starts):
        Playout(start).run(random.Random(g))
    return games / (time.perf_counter() - t0)


class TimedSearch(SearchBot):
    """The search bot, timing its real decisions."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.times: list[float] = []

    def choose(self, obs: bots.Observation) -> object:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        t0 = time.perf_counter()
        choice = super().choose(obs)
        self.times.append(time.perf_counter() - t0)
        return choice


def match(games: int, search_options: dict[str, object], seed: int,
          console: Console) -> tuple[dict[str, dict[str, float]], list[float]]:
    search = TimedSearch(**search_options)
    table = {"search": search, "heuristic": bots.load("gammel_jomfru", "heuristic"),
             "random": bots.RandomBot()}
    stats = {name: {"n": 0, "losses": 0, "rank": 0} for name in BOTS}
    reasons: dict[str, int] = {}
    rng = random.Random(seed)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("mixed table, 4 seats", total=games)
        for g in range(games):
            names = [BOTS[(s + g) % len(BOTS)] for s in range(4)]
            state = GAME.new(deal=seed + g, seats=4)
            while state.to_move is not None:
                seat = state.to_move
                obs = bots.Observation(state, seat, rng)
                state = state.apply(table[names[seat]].choose(obs))
            outcome = state.outcome
            assert outcome is not None
            reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
            rank = {grp[0]: i + 1 for i, grp in enumerate(outcome.ranking)}
            for s, name in enumerate(names):
                stats[name]["n"] += 1
                stats[name]["losses"] += s in outcome.losers
                stats[name]["rank"] += rank[s]
            progress.advance(task)
    console.print(f"game endings: {reasons}")
    return stats, search.times


def diff_ci(a: dict[str, float], b: dict[str, float]) -> tuple[float, float, float]:
    pa, pb = a["losses"] / a["n"], b["losses"] / b["n"]
    half = 1.96 * math.sqrt(pa * (1 - pa) / a["n"] + pb * (1 - pb) / b["n"])
    return pa - pb, pa - pb - half, pa - pb + half


def level_match(strong: int, weak: int, games: int, seed: int,
                progress: Progress) -> tuple[int, int]:
    """Games (of ``games``) that the weaker level lost, and games that ended by the limit."""
    players = {lv: bots.load("gammel_jomfru", bots.levels("gammel_jomfru")[lv].bot, level=lv)
               for lv in (strong, weak)}
    rng = random.Random(seed)
    weak_lost = limit = 0
    task = progress.add_task(f"level {strong} vs level {weak}", total=games)
    for g in range(games):
        levels = [strong, weak] * 2 if g % 2 == 0 else [weak, strong] * 2
        state = GAME.new(deal=seed + g, seats=4)
        while state.to_move is not None:
            seat = state.to_move
            state = state.apply(players[levels[seat]].choose(bots.Observation(state, seat, rng)))
        outcome = state.outcome
        assert outcome is not None and len(outcome.losers) == 1
        weak_lost += levels[outcome.losers[0]] == weak
        limit += outcome.reason == "turn_limit"
        progress.advance(task)
    return weak_lost, limit


def levels_table(games: int, seed: int, console: Console) -> None:
    pairs = [(3, 1), (2, 1), (3, 2)]
    table = Table(title=f"Gammel Jomfru levels — {games} games a pair, 4 seats, 2 of each "
                        f"level; share of games lost by the weaker level")
    for col in ("pair", "weaker lost", "share (95% CI)", "turn-limit endings", "wall s"):
        table.add_column(col, justify="right")
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console) as progress:
        for strong, weak in pairs:
            t0 = time.perf_counter()
            lost, limit = level_match(strong, weak, games, seed, progress)
            lo, hi = wilson(lost, games)
            table.add_row(f"{strong} vs {weak}", str(lost),
                          f"{lost / games:.3f} ({lo:.3f}–{hi:.3f})", str(limit),
                          f"{time.perf_counter() - t0:.0f}")
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--games", type=int, default=2000, help="games in the bot match")
    parser.add_argument("--playouts", type=int, default=64,
                        help="search rounds a decision (default 64)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="also cap each search decision at this many seconds")
    parser.add_argument("--seed", type=int, default=1, help="first deal number")
    parser.add_argument("--levels", type=int, default=0,
                        help="only the level pairs, this many games each")
    args = parser.parse_args()
    console = Console()
    if args.levels:
        levels_table(args.levels, args.seed, console)
        return
    speed_games = 40 if args.quick else 400
    games = 60 if args.quick else args.games
    options: dict[str, object] = {"playouts": args.playouts}
    if args.seconds:
        options["seconds"] = args.seconds

    speed = Table(title="Gammel Jomfru — engine speed, random play, one core")
    for col in ("seats", "actions/s (protocol)", "actions/game", "fast rollouts, games/s"):
        speed.add_column(col, justify="right")
    for seats in (2, 4, 8):
        rate, per_game = playout_speed(seats, speed_games)
        speed.add_row(str(seats), f"{rate:,.0f}", f"{per_game:.0f}",
                      f"{rollout_speed(seats, speed_games * 2):,.0f}")
    console.print(speed)

    t0 = time.perf_counter()
    stats, times = match(games, options, args.seed, console)
    elapsed = time.perf_counter() - t0
    result = Table(title=f"Gammel Jomfru — {games} games, 4 seats, mixed table "
                         f"(search {options})")
    for col in ("bot", "seat-games", "loss rate (95% CI)", "mean rank"):
        result.add_column(col)
    for name in BOTS:
        st = stats[name]
        lo, hi = wilson(int(st["losses"]), int(st["n"]))
        result.add_row(name, str(st["n"]), f"{st['losses'] / st['n']:.3f} ({lo:.3f}–{hi:.3f})",
                       f"{st['rank'] / st['n']:.2f}")
    console.print(result)
    diffs = Table(title="loss-rate differences (95% CI, normal approximation)")
    for col in ("pair", "difference", "95% CI"):
        diffs.add_column(col)
    for a, b in (("search", "heuristic"), ("heuristic", "random"), ("search", "random")):
        d, lo, hi = diff_ci(stats[a], stats[b])
        diffs.add_row(f"{a} − {b}", f"{d:+.3f}", f"{lo:+.3f} … {hi:+.3f}")
    console.print(diffs)
    if times:
        times.sort()
        console.print(
            f"search: {len(times)} real decisions, mean {1000 * sum(times) / len(times):.1f} ms,"
            f" p99 {1000 * times[int(0.99 * (len(times) - 1))]:.1f} ms,"
            f" max {1000 * times[-1]:.1f} ms; match wall time {elapsed:.0f} s")


if __name__ == "__main__":
    main()
