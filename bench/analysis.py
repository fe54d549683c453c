"""Benchmark: the post-game analysis (issue #33, server/analysis/work.py) of long games.

    nice -n 5 python bench/analysis.py [--games 3] [--min-moves 500] [--game kugler ...]

For each analysable game: finished games of random play (solitaires: random moves, a
redeal now and then, resign at the end; table games: every seat random, seat 0
analysed as the human) of at least ``--min-moves`` moves where the game runs that long
(Posthuskabalen's games are shorter: its longest of the seeds tried), analysed with the
server's budget.  Prints per game the moves, CPU seconds (this process: the analysis
runs in it here, as in the server's worker), wall seconds, solver calls or valued
choices, unknown verdicts, and the load average.  Target: ≤ 10 s CPU for a 500-move game.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from spillebord import games
from spillebord.core.protocol import State
from spillebord.core.record import GameRecord
from spillebord.server.analysis import routes, work


def random_game(game: str, deal: int, seats: int, min_moves: int) -> GameRecord:
    """A finished game of random play, as long as the game allows up to ``min_moves``."""
    g = games.load(game)
    best: GameRecord | None = None
    for seed in range(40):
        st: State = g.new(deal=deal + seed, seats=seats) if seats > 1 else g.new(deal=deal + seed)
        rng = random.Random(seed)
        acts: list[str] = []
        while st.outcome is None:
            legal = [str(a) for a in st.legal_actions() if str(a) != "resign"]
            moves = [a for a in legal if a != "redeal"]
            if moves and (seats > 1 or rng.random() < 0.97):
                a = rng.choice(moves)
            else:
                a = "redeal" if "redeal" in legal else "resign"
            st = st.apply(a)
            acts.append(a)
        rec = GameRecord(game, seats, deal + seed, {}, tuple(acts))
        if best is None or len(acts) > len(best.actions):
            best = rec
        if len(acts) >= min_moves:
            break
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game kind")
    parser.add_argument("--min-moves", type=int, default=500)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()}")
    print(f"budget: solitaire {routes.SOLITAIRE_SECONDS} s ({routes.SOLVE_SECONDS} s a "
          f"position), table {routes.TABLE_SECONDS} s")
    for game in games.ready_keys():
        if args.game and game not in args.game:
            continue
        kind = work.analysable(game)
        if kind is None:
            print(f"{game}: no analysis")
            continue
        seats = games.load(game).seat_counts[0] if kind == "table" else 1
        seats = max(seats, 3) if kind == "table" else 1
        for n in range(args.games):
            rec = random_game(game, 1000 * (n + 1), seats, args.min_moves)
            cpu, wall = time.process_time(), time.perf_counter()
            if kind == "solitaire":
                out = json.loads(work.solitaire(rec.dumps(), routes.SOLITAIRE_SECONDS,
                                                routes.SOLVE_SECONDS))
                what = (f"solves {out['summary']['solves']}, unknown "
                        f"{out['summary']['unknown']}, marks {len(out['marks'])}")
            else:
                out = json.loads(work.table(rec.dumps(), [0], routes.TABLE_SECONDS))
                what = (f"choices valued {out['summary']['choices']}, doubtful "
                        f"{out['summary']['doubtful']['0']}, unvalued {out['summary']['unknown']}")
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"{game:14} deal {rec.deal:5} moves {len(rec.actions):4}  cpu {cpu:6.2f} s  "
                  f"wall {wall:6.2f} s  {what}  load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
