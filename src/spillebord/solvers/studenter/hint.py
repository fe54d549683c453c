"""A Studenterkabalen hint from what the player sees (the stock's order hidden).

Method: draw stock orders consistent with the view (``state.resample(0, rng)``, with
``rng`` seeded from the view, so the same view gives the same hint), search each sampled
deal for a win within a share of the time, and vote for the first move of every win
found; the move with the most votes wins.  Each search tries the two moves that undo
each other (row's end onto the waste, the waste's top onto the row) last at its root, so
following hints does not shuttle a card back and forth while other moves also win.
From pass 2 on the stock is known to the player (it is the old waste, order kept), so
one search of the true state decides.

Fallback when no sample is solved in time (documented heuristic, in this order): a card
to a foundation — the row's end first (the original text: use the row's cards before the
helpers), then the waste's top, then a helper —; the waste's top onto the row; draw;
turn the waste over; a helper onto the row; the row's end onto the waste; the leftmost
card to the right.  Resigning is hinted only when the position is proven lost from what
the player knows (from pass 2 on, or with at most one card in the stock); otherwise a
hint never resigns.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter

from spillebord.core.protocol import State
from spillebord.games.studenter.state import RESIGN, StudenterState
from spillebord.solvers.studenter.search import Move, OutOfTime, Search, node_of

SAMPLES = 6
# The two moves that undo each other.  Searched last at the root, so that a hint does
# not send a card back and forth between the row and the waste when other moves win too.
SHUTTLES: frozenset[Move] = frozenset({("row", "waste"), ("waste", "row")})


def heuristic_rank(action: str) -> tuple[int, str]:
    """Smaller is better; the order of the module docstring."""
    source, _, target = action.partition(">")
    if target.startswith("f"):
        order = {"row": 0, "waste": 1}.get(source, 2)
    elif action == "waste>row":
        order = 3
    elif action == "draw":
        order = 4
    elif action == "redeal":
        order = 5
    elif target == "row" and source.startswith("h"):
        order = 6
    elif action == "row>waste":
        order = 7
    else:
        order = 8
    return (order, action)


def heuristic_move(state: StudenterState) -> str | None:
    options = [a for a in state.legal_actions() if a != RESIGN]
    return min(options, key=heuristic_rank) if options else None


def _first_move(sample: StudenterState, seconds: float) -> str | None:
    """The first move of a win in ``sample``; RESIGN when proven lost; None at the
    time limit."""
    from spillebord.solvers.studenter import action_text

    search = Search(seconds, last_at_root=SHUTTLES)
    try:
        won = search.solve(node_of(sample))
    except OutOfTime:
        return None
    if not won:
        return RESIGN
    return action_text(sample, search.line[-1])


def hint(state: State, seconds: float = 1.0) -> str | None:
    """The suggested action text, or None when the game is over."""
    if not isinstance(state, StudenterState):
        raise TypeError("the studenter hint needs a studenter state")
    options = [a for a in state.legal_actions() if a != RESIGN]
    if not options:
        return None
    # A margin for the work around the searches (time checks come every 1024 nodes).
    deadline = time.perf_counter() + 0.9 * seconds - 0.02
    seed = hashlib.sha256(json.dumps(state.view(0), sort_keys=True).encode()).digest()
    rng = random.Random(int.from_bytes(seed[:8], "little"))
    votes: Counter[str] = Counter()
    hidden = state.pass_no == 1 and len(state.stock) > 1
    if hidden and len(options) == 1:
        return options[0]
    samples = SAMPLES if hidden else 1
    for i in range(samples):
        left = deadline - time.perf_counter()
        if left <= 0.01:
            break
        sample = state.resample(0, rng) if hidden else state
        move = _first_move(sample, left / (samples - i))
        if move == RESIGN and not hidden:
            return RESIGN  # the player knows the stock: the position is proven lost
        if move is not None and move != RESIGN:
            votes[move] += 1
    if votes:
        return min(votes, key=lambda a: (-votes[a], heuristic_rank(a)))
    return heuristic_move(state)
