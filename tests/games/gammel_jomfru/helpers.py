"""Build Gammel Jomfru positions in the rule book's JSON for the tests.

``position(...)`` takes the piles a test cares about; every card not named is put at the
end of ``filler``'s face-down pile (turned last), so the position holds exactly the 52.
"""

from __future__ import annotations

import json
from typing import Any

from spillebord.core.cards import one_deck
from spillebord.games.gammel_jomfru import GAME, JomfruState


def position_text(seats: int = 3, turn: int = 0, down: dict[int, list[str]] | None = None,
                  up: dict[int, list[str]] | None = None,
                  centre: list[list[str]] | None = None, turned: str | None = None,
                  out: list[int] | None = None, filler: int | None = None,
                  **extra: Any) -> str:
    down = {k: list(v) for k, v in (down or {}).items()}
    up = dict(up or {})
    centre = list(centre or [])
    named = [c for p in down.values() for c in p] + [c for p in up.values() for c in p]
    named += [c for p in centre for c in p] + ([turned] if turned else [])
    rest = [c for c in one_deck() if c not in named]
    for s in range(seats):  # every seat still playing holds at least one card
        holds = down.get(s) or up.get(s) or (turned is not None and s == turn)
        if s not in (out or []) and not holds and s != filler:
            down[s] = [rest.pop()]
    if filler is None:
        filler = next(s for s in range(seats) if s not in (out or []) and s != turn)
    down[filler] = down.get(filler, []) + rest
    data: dict[str, Any] = {
        "seats": seats, "turn": turn,
        "down": {str(k): v for k, v in down.items()},
        "up": {str(k): v for k, v in up.items()},
        "centre": centre, "turned": turned, "out": list(out or []),
    }
    data.update(extra)
    return json.dumps(data)


def position(seats: int = 3, turn: int = 0, nearest_first: bool = False,
             **kwargs: Any) -> JomfruState:
    text = position_text(seats, turn, **kwargs)
    flags = {"nearest_first": True} if nearest_first else {}
    return GAME.parse_position(text, **flags)


def play(state: JomfruState, *actions: str) -> JomfruState:
    for a in actions:
        nxt = state.apply(a)
        assert isinstance(nxt, JomfruState)
        state = nxt
    return state
