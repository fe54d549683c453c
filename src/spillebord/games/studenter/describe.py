"""Facts about a Studenterkabalen action for pages that word it in the player's language.

An action text (``row>f1``, ``h3>row``, ``draw``) names places, not cards; the card a
place offers changes with every move, so a page that looked at the board after the move
named the wrong card.  The server words each move once, from the state before it
(docs/protocol.md, "Move facts")::

    {"card": "2C", "from": "row", "to": "f1"}

``card`` is the card moved; for ``draw`` the card turned (known only from ``after``,
else null: the stock is hidden).  ``redeal`` and ``resign`` need no facts (None).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON

if TYPE_CHECKING:
    from spillebord.games.studenter.state import StudenterState


def describe(before: StudenterState, action: str, after: StudenterState | None) -> JSON | None:
    from spillebord.games.studenter.state import DRAW, LEFT

    if action == DRAW:
        card = after.waste[-1] if after is not None and after.waste else None
        return {"card": card, "from": "stock", "to": "waste"}
    if action == LEFT:
        return {"card": before.row[0] if before.row else None, "from": "left", "to": "row"}
    source, sep, target = action.partition(">")
    if not sep:
        return None
    card = dict(before.sources()).get(source)
    return {"card": card, "from": source, "to": target}
