"""Facts about a Gammel Jomfru action for pages that word it in the player's language.

The action texts (``turn``, ``c2``, ``p3``, ``keep``, ``centre``) never name the card;
a log that says "turns a card" or "plays onto a pile" tells a player nothing.  The
server sends these facts with each event (docs/protocol.md, "Move facts"): every card
named here lies face up on the table once the action is played, so they hide nothing.

``describe(before, action, after)``::

    {"card": "8H", "place": "centre" | "pile" | "seat" | "own" | null,
     "pile": 2, "seat": 3, "onto": "9C", "recycled": false, "out": false}

``card`` is the card turned (``turn``; known only from ``after``, else null) or placed;
``pile`` is the centre pile's number as the page shows it (1, 2, … in the order the piles
were started; ``centre`` starts the next one); ``seat`` and ``onto`` the seat and the
face-up card a ``pN`` is played onto; ``recycled`` says the turn first turned the face-up
pile over (rule 4); ``out`` that the player has no cards left after the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON
from spillebord.games.gammel_jomfru.actions import CENTRE_INDEX, PLAYER_INDEX

if TYPE_CHECKING:
    from spillebord.games.gammel_jomfru.state import JomfruState


def describe(before: JomfruState, action: str, after: JomfruState | None) -> JSON | None:
    seat = before.to_move
    if seat is None:
        return None
    out = bool(after is not None and seat in after.out and seat not in before.out)
    facts: JSON = {"card": before.turned, "place": None, "pile": None, "seat": None,
                   "onto": None, "recycled": False, "out": out}
    if action == "turn":
        facts["card"] = after.turned if after is not None else None
        facts["recycled"] = not before.down[seat]
    elif action == "keep":
        facts["place"] = "own"
    elif action == "centre":
        facts.update(place="centre", pile=len(before.centre) + 1)
    elif action in CENTRE_INDEX:
        facts.update(place="pile", pile=CENTRE_INDEX[action] + 1)
    elif action in PLAYER_INDEX:
        p = PLAYER_INDEX[action]
        facts.update(place="seat", seat=p, onto=before.up[p][-1] if before.up[p] else None)
    else:
        return None
    return facts
