"""OpenSpiel's IS-MCTS bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, OpenSpiel's
Python port of its C++ bot; the C++ ``pyspiel.ISMCTSBot`` crashes on Python games
here) on the Python game
``python_spillebord_gammel_jomfru``, spillebord.research.openspiel) against Spillebord's
own Gammel Jomfru bots.  Prints a table.

    python bench/openspiel_ismcts.py --games 60 --simulations 40

At a table of ``--seats`` (default 4) one seat is IS-MCTS — seat g mod n in game g, so it
sits everywhere equally — and every other seat plays the opponent bot; deals 1 … games.
IS-MCTS uses random rollouts, the observation string as its node key (the game gives
no perfect-recall information state) and ``resample_from_infostate`` (``State.resample``)
for its determinizations; a forced action (only one legal) is played without search.
Per opponent: the share of games IS-MCTS lost (was the gammel jomfru) with its Wilson 95%
interval (the seat's fair share is 1/n), its mean rank, and the CPU time per searched
decision.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from spillebord import bots
from spillebord.cli.simulate import wilson
from spillebord.research import openspiel as spiel


def play(game: pyspiel.Game, deal: int, seat: int, opponent: bots.Bot,
         searcher: ismcts.ISMCTSBot, rng: random.Random) -> tuple[int, int, float]:
    """One game: (IS-MCTS's rank 1 … n, searched decisions, CPU seconds searching)."""
    state = game.new_initial_state()
    state.apply_action(deal)
    searcher.restart()
    searched, cpu = 0, 0.0
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if player == seat:
            if len(legal) == 1:
                action = legal[0]
            else:
                start = time.process_time()
                action = searcher.step(state)
                cpu += time.process_time() - start
                searched += 1
        else:
            inner = state.inner
            chosen = opponent.choose(bots.Observation(inner, player, rng))
            action = game.codec.index(inner.view(player), chosen)
        state.apply_action(action)
    outcome = state.inner.outcome
    rank = next(i for i, group in enumerate(outcome.ranking) if seat in group) + 1
    return rank, searched, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--opponents", default="random,heuristic,search")
    args = parser.parse_args()
    n = args.seats
    game = pyspiel.load_game(spiel.PREFIX + "gammel_jomfru", {"players": n})
    console = Console(width=max(Console().width, 120))
    table = Table(title=f"OpenSpiel IS-MCTS ({args.simulations} simulations) vs Spillebord "
                        f"bots, Gammel Jomfru at {n} seats, {args.games} games each")
    for column in ("opponents", "IS-MCTS lost", "95% interval", "fair share", "mean rank",
                   "CPU s / searched decision"):
        table.add_column(column, justify="left" if column == "opponents" else "right")
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console) as progress:
        for name in args.opponents.split(","):
            opponent = bots.load("gammel_jomfru", name)
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(7))
            searcher = ismcts.ISMCTSBot(
                game, evaluator, 2.0, args.simulations,
                random_state=np.random.RandomState(7),
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                use_observation_string=True, allow_inconsistent_action_sets=True)
            task = progress.add_task(f"vs {name}", total=args.games)
            rng = random.Random(2026)
            lost = ranks = searched = 0
            cpu = 0.0
            for g in range(args.games):
                rank, s, c = play(game, g + 1, g % n, opponent, searcher, rng)
                lost += rank == n
                ranks += rank
                searched += s
                cpu += c
                progress.advance(task)
            low, high = wilson(lost, args.games)
            table.add_row(f"{n - 1} × {name}", f"{lost}/{args.games} = {lost / args.games:.3f}",
                          f"{low:.3f}–{high:.3f}", f"{1 / n:.3f}",
                          f"{ranks / args.games:.2f}", f"{cpu / max(searched, 1):.3f}")
    console.print(table)


if __name__ == "__main__":
    main()
