"""Click-to-move (ruling 10) and the optional auto-move to the foundations.

``click(state, target)`` maps a click on ``row`` (its rightmost card), ``waste`` (its
top), ``h1`` … ``h6`` or ``stock`` to the one action it performs, or to nothing:

- a helper or waste card: the first empty foundation if it has the base rank, else the
  first foundation it fits, else the row;
- the row's rightmost card: the first foundation it fits — never the waste (``row>waste``
  and ``left>row`` need drag-and-drop or an explicit command);
- the stock: draw, or turn the waste over when the stock is empty.

"First" means the lowest-numbered foundation (f1 … f8): equal foundations are
interchangeable, so the leftmost is what a player expects.

``auto_move(state)`` is the player setting "move cards up automatically" (off by default;
the server calls it after each action and applies what it returns, one at a time).  It
moves only cards no other card could ever be built on any more: a card of relative rank
``k`` (``k`` steps above the base) goes up when all eight cards of relative rank ``k − 1``
are already on the foundations, so every foundation is at least that high and nothing
could go down onto the card in the row or the waste.  Base-rank cards always go up (an
empty foundation is never needed for anything else).  Sources are tried in the order
row, waste, h1 … h6.
"""

from __future__ import annotations

from spillebord.core.errors import NotationError
from spillebord.games.studenter.rules import FOUNDATION_NAMES, FOUNDATIONS, HELPER_NAMES
from spillebord.games.studenter.state import DRAW, REDEAL, StudenterState

TARGETS = ("row", "waste", *HELPER_NAMES, "stock")


def click(state: StudenterState, target: str) -> list[str]:
    if target not in TARGETS:
        raise NotationError(f"cannot click {target!r}: click row, waste, h1 … h6 or stock")
    if state.to_move is None:
        return []
    if target == "stock":
        if state.stock:
            return [DRAW]
        return [REDEAL] if state.can_redeal() else []
    card = dict(state.sources()).get(target)
    if card is None:
        return []
    fits = state.foundations_taking(card)
    if fits:
        return [f"{target}>{FOUNDATION_NAMES[fits[0]]}"]
    if target != "row" and f"{target}>row" in state.legal_actions():
        return [f"{target}>row"]
    return []


def _is_safe(state: StudenterState, card: str) -> bool:
    fits = state.foundations_taking(card)
    if not fits:
        return False
    level = len(state.foundations[fits[0]])
    if level == 0:
        return True
    # Foundations holding at least ``level`` cards hold every card of relative rank
    # level − 1 that is up; all eight are up exactly when every foundation is that high.
    return sum(len(p) >= level for p in state.foundations) == FOUNDATIONS


def auto_move(state: StudenterState) -> str | None:
    """The next automatic move to a foundation, or None."""
    if state.to_move is None:
        return None
    for place, card in state.sources():
        if _is_safe(state, card):
            return f"{place}>{FOUNDATION_NAMES[state.foundations_taking(card)[0]]}"
    return None


def auto_moves(state: StudenterState) -> list[str]:
    """Every automatic move in order, each applied before the next is chosen."""
    out: list[str] = []
    while (action := auto_move(state)) is not None:
        out.append(action)
        nxt = state.apply(action)
        assert isinstance(nxt, StudenterState)
        state = nxt
    return out
