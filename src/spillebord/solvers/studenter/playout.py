"""A sensible player's playouts of a Studenterkabalen deal, for the difficulty score
(docs/analysis.md, "Difficulty").

The player plays from what the rules show (it never reads the stock) by the hint's
fallback order (``hint.heuristic_rank``: a card to a foundation — the row's end first,
then the waste's top, then a helper —; the waste's top onto the row; draw; turn the
waste over; a helper onto the row; the row's end onto the waste; the leftmost card to
the right), a random one among the best-ranked moves, except that with probability
``WANDER`` it plays any legal move instead (players are not machines; the spread is
what tells easy deals from hard ones).  It never undoes its last move (row → waste
straight after waste → row, or back) and never resigns; a playout ends with the game,
when no move is left, or after ``MAX_ACTIONS``.  ``win_share`` is the share of ``n``
playouts (seeded by ``seed``) that win.
"""

from __future__ import annotations

import random

from spillebord.core.protocol import State
from spillebord.games.studenter import GAME
from spillebord.games.studenter.state import RESIGN
from spillebord.solvers.studenter.hint import heuristic_rank

WANDER = 0.2
MAX_ACTIONS = 1500
UNDOES = {"row>waste": "waste>row", "waste>row": "row>waste"}


def playout(deal: int, rng: random.Random) -> bool:
    state: State = GAME.new(deal=deal)
    last = ""
    for _ in range(MAX_ACTIONS):
        if state.outcome is not None:
            break
        options = [str(a) for a in state.legal_actions()
                   if a != RESIGN and UNDOES.get(str(a)) != last]
        if not options:
            return False
        if rng.random() < WANDER:
            action = rng.choice(options)
        else:
            best = min(heuristic_rank(a)[0] for a in options)
            action = rng.choice([a for a in options if heuristic_rank(a)[0] == best])
        state = state.apply(action)
        last = action
    return state.outcome is not None and bool(state.outcome.winners)


def win_share(deal: int, n: int, seed: int) -> float:
    rng = random.Random(seed)
    return sum(playout(deal, rng) for _ in range(n)) / n
