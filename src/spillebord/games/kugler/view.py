"""What one seat sees in Kugler og Jokere (docs/architecture.md: hidden cards never leak).

Public: the board (every seat's marble locations), every hand's size, the top of the
discard pile and its size, the draw pile's size, the turn, the latest moves and the
outcome.  Private: the seat's own hand only.  Never shown: another seat's hand, the
draw pile's order or contents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON

if TYPE_CHECKING:
    from spillebord.games.kugler.state import KuglerState


def view(state: KuglerState, seat: int | None) -> JSON:
    n = state.seats
    to_move = state.to_move
    out: JSON = {
        "game": "kugler",
        "seats": n,
        "seat": seat,
        "to_move": to_move,
        "moves_marbles_of": None if to_move is None else state.colour(to_move),
        "partners": {str(s): state.geo.partner[s] for s in range(n)},
        "marbles": {str(s): state.marbles(s) for s in range(n)},
        "home": {str(s): state.home_count(s) for s in range(n)},
        "hand_sizes": {str(s): len(state.hands[s]) for s in range(n)},
        "discard_top": state.discard[-1] if state.discard else None,
        "discard_size": len(state.discard),
        "draw_size": len(state.draw),
        "reshuffles": state.reshuffles,
        "turns": state.turns,
        "turn_limit": state.turn_limit,
        "last": [{"seat": s, "action": text} for s, text in state.last],
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }
    if seat is not None:
        out["hand"] = list(state.hands[seat])
    return out
