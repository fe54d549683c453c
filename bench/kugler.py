"""Benchmark of Kugler og Jokere: engine speed and bot strength.  Prints a table.

    python bench/kugler.py --quick            # a smoke run (seconds)
    python bench/kugler.py --games 400        # the team matches over 400 games

1. random playouts: actions per second at 4, 6 and 8 seats (legal_actions + apply);
2. legal-action generation for the worst hand: 5 own marbles on the track, a 7, a
   joker and an 8 in hand (microseconds a call, cold state each call);
3. team matches at 4 seats: ismcts vs greedy and greedy vs random; seats alternate
   (seat s plays bots[(s + g) % 2] in game g, so partners share a bot); a game stopped
   by the turn limit with no winner counts half to each side; Wilson 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spillebord import bots
from spillebord.cli.simulate import wilson
from spillebord.games.kugler import GAME, KuglerState


def playout_speed(seats: int, games: int) -> tuple[float, float, float]:
    """(actions per wall second, actions per CPU second of this process, mean turns).
    The CPU figure is the one-core engine speed even when the machine is shared."""
    actions = 0
    turns = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for g in range(games):
        rng = random.Random(g)
        state = GAME.new(deal=g, seats=seats)
        while state.to_move is not None:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
        turns += state.turns
    return (actions / (time.perf_counter() - t0), actions / (time.process_time() - c0),
            turns / games)


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


def match(a: str, b: str, games: int, options: dict[str, dict[str, float]],
          seed: int = 0) -> tuple[float, int, tuple[float, float], float]:
    loaded = {a: bots.load("kugler", a, **options.get(a, {})),
              b: bots.load("kugler", b, **options.get(b, {}))}
    rng = random.Random(seed)
    score = 0.0
    t0 = time.perf_counter()
    decisions = 0
    for g in range(games):
        names = [(a, b)[(s + g) % 2] for s in range(4)]
        state: KuglerState = GAME.new(deal=seed + g, seats=4)
        while state.to_move is not None:
            seat = state.to_move
            obs = bots.Observation(state, seat, rng)
            state = state.apply(loaded[names[seat]].choose(obs))
            decisions += names[seat] == a
        out = state.outcome
        assert out is not None
        if out.winners:
            score += names[out.winners[0]] == a
        else:
            score += 0.5
        print(f"  {a} vs {b}: game {g + 1}/{games}, {a} {score:g}", file=sys.stderr,
              flush=True)
    elapsed = time.perf_counter() - t0
    return score / games, games, wilson(round(score), games), elapsed / max(decisions, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny run")
    ap.add_argument("--playouts", type=int, default=20, help="random playouts per size")
    ap.add_argument("--games", type=int, default=400, help="games of greedy vs random")
    ap.add_argument("--ismcts-games", type=int, default=None,
                    help="games of ismcts vs greedy (default: --games)")
    ap.add_argument("--ismcts-seconds", type=float, default=0.5)
    ap.add_argument("--ismcts-iterations", type=int, default=None)
    ap.add_argument("--skip-ismcts", action="store_true")
    ap.add_argument("--skip-matches", action="store_true", help="engine figures only")
    args = ap.parse_args()
    playouts = 3 if args.quick else args.playouts
    games = 4 if args.quick else args.games
    ismcts_games = 2 if args.quick else (args.ismcts_games or args.games)
    print(f"kugler benchmark {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} cores (shared), Python {sys.version.split()[0]}")
    print("| measure | value |")
    print("|---|---|")
    for seats in (4, 6, 8):
        rate, cpu, turns = playout_speed(seats, playouts)
        print(f"| random playouts, {seats} seats | {cpu:,.0f} actions per CPU-second "
              f"({rate:,.0f} per wall second; mean {turns:.0f} turns/game, "
              f"{playouts} games) |", flush=True)
    us, cpu_us, n = legal_time(50 if args.quick else 500)
    print(f"| legal_actions, worst hand (5 marbles out, 7 7 JK 8 5) | {cpu_us:,.0f} µs CPU "
          f"({us:,.0f} µs wall; {n} actions) |", flush=True)
    if args.skip_matches:
        return
    rate_g, n_g, ci_g, _ = match("greedy", "random", games, {})
    print(f"| greedy vs random, 4 seats | {rate_g:.3f} of {n_g} games "
          f"(95% CI {ci_g[0]:.3f}–{ci_g[1]:.3f}) |", flush=True)
    if not args.skip_ismcts:
        opts: dict[str, float] = {"seconds": args.ismcts_seconds}
        if args.ismcts_iterations:
            opts = {"iterations": args.ismcts_iterations}
        rate_i, n_i, ci_i, per = match("ismcts", "greedy", ismcts_games,
                                       {"ismcts": opts}, seed=10_000)
        print(f"| ismcts ({opts}) vs greedy, 4 seats | {rate_i:.3f} of {n_i} games "
              f"(95% CI {ci_i[0]:.3f}–{ci_i[1]:.3f}; {per:.3f} s per ismcts decision) |",
              flush=True)


if __name__ == "__main__":
    main()
