"""What one seat (or a spectator) sees of a Gammel Jomfru table.

Everything face up is public: every face-up pile (bottom to top), every centre pile, the
turned card (it lies face up on the table while it waits to be placed), who is out and
in which order, the turn counter and the turn limit (rule 6).  Of the face-down piles
only their sizes are public — no one sees a face-down card, not even their own
(rule-book text: "Det er ikke tilladt at se kortene i den nedadvendte bunke").

``recycled`` lists the seats whose face-down pile is their turned-over face-up pile
(rule 4).  Its cards were seen by everyone, but the view does not repeat them: a player
who wants them must remember them, as at a real table.  The view is the same for every
seat; ``seat`` only labels it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON

if TYPE_CHECKING:
    from spillebord.games.gammel_jomfru.state import JomfruState


def build_view(state: JomfruState, seat: int | None) -> JSON:
    n = state.seats
    view: JSON = {
        "game": "gammel_jomfru",
        "seats": n,
        "seat": seat,
        "turn": state.turn,
        "to_move": state.to_move,
        "down_counts": [len(state.down[s]) for s in range(n)],
        "up": [list(state.up[s]) for s in range(n)],
        "centre": [list(pile) for pile in state.centre],
        "turned": state.turned,
        "out": list(state.out),
        "recycled": [s for s in range(n) if state.recycled[s]],
        "held": [state.cards_held(s) for s in range(n)],
        "turns": state.turns,
        "turn_limit": state.limit,
        "flags": dict(sorted(state.flags.items())),
    }
    outcome = state.outcome
    if outcome is not None:
        view["outcome"] = outcome.to_json()
    return view
