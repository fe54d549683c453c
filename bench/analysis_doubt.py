"""Calibration of Kugler og Jokere's doubt threshold (issue #33, docs/learn.md): how far
behind the level-3 bot's own choice the analysed seat's moves fall, by who plays it.

    nice -n 5 python bench/analysis_doubt.py [--deals 1-6]

Whole 4-seat games: seat 0 plays the level-3 bot itself (its own moves, judged again by
the analysis on other random draws: the noise floor) or always the first legal move;
the three other seats play level 2.  Each game is analysed as the server does
(``work.table``, no wall-clock budget here), and the share of valued choices at least
5, 10, 15, 20 and 30 points behind is printed per player kind.
"""

from __future__ import annotations

import argparse
import json
import os
import random

from spillebord import bots, games
from spillebord.core.record import GameRecord
from spillebord.server.analysis import work

THRESHOLDS = (5.0, 10.0, 15.0, 20.0, 30.0)


def game(player: str, deal: int) -> GameRecord:
    """A finished game with seat 0 played by ``player`` ("level3" or "first")."""
    levels = bots.levels("kugler")
    strong = bots.load("kugler", levels[3].bot, **dict(levels[3].options))
    others = bots.load("kugler", levels[2].bot, **dict(levels[2].options))
    state = games.load("kugler").new(deal=deal, seats=4)
    rng = random.Random(deal)
    actions: list[str] = []
    while state.outcome is None:
        seat = state.to_move
        assert seat is not None
        if seat != 0:
            action = others.choose(bots.Observation(state, seat, rng))
        elif player == "first":
            action = state.legal_actions()[0]
        else:
            action = strong.choose(bots.Observation(state, 0, rng))
        state = state.apply(action)
        actions.append(str(action))
    return GameRecord("kugler", 4, deal, {}, tuple(actions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", default="1-6", help="a range of deals, e.g. 1-6")
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.deals.split("-"))
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()}")
    for player in ("level3", "first"):
        losses: list[float] = []
        choices = 0
        for deal in range(lo, hi + 1):
            out = json.loads(work.table(game(player, deal).dumps(), [0], 1e9))
            choices += len(out["moves"])
            losses += [m["best_value"] - m["value"] for m in out["moves"]
                       if m["best"] != m["action"]]
        shares = "  ".join(f">= {t:g}: {100 * sum(x >= t for x in losses) / choices:4.1f} %"
                           for t in THRESHOLDS)
        print(f"{player:7} games {hi - lo + 1}  choices {choices:4}  {shares}")


if __name__ == "__main__":
    main()
