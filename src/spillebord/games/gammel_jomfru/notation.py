"""The position notation of Gammel Jomfru (rule book, "Position (JSON)").

``{"seats": 3, "turn": 0, "down": {"0": ["KH", ...], ...}, "up": {"0": ["5C", ...], ...},
"centre": [["AS", "KS"], ...], "turned": null, "out": []}`` — ``down`` in turning order
(first = next card turned), ``up`` and centre piles bottom to top, ``turned`` the card in
hand waiting to be placed, ``out`` the seats already out in order.

Extra keys (all optional, written by ``format_position``):

- ``deal``: the deal number (rule book, "Notation shared by all games"; default 0) —
  nothing is shuffled after the deal, so it decides nothing later, but a parsed
  position keeps it;
- ``turns``: completed turns so far (default 0); ``limit``: the turn limit (default
  1,000 completed turns, rule 6);
- ``recycled``: seats whose face-down pile is their turned-over face-up pile (rule 4;
  default none) — those cards are public knowledge and ``resample`` keeps them.

Missing seats in ``down``/``up`` mean empty piles.  Refused with a one-line
``NotationError`` naming the place: not JSON, unknown keys, bad seats, cards that are not
exactly the 52 (or one twice), a centre pile that does not start with an ace and go down
in suit, an ace on a face-up or recycled pile (aces always go to the centre), a seat out
while holding cards (or holding none while not out), a ``turned`` card when no turn is in
progress (the game is over), a turn for a seat that is out.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from spillebord.core import positions
from spillebord.core.errors import NotationError
from spillebord.games.gammel_jomfru.rules import CENTRE_NEXT, DECK, DECK_SET, default_turn_limit
from spillebord.games.gammel_jomfru.state import JomfruState

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

KEYS = ("seats", "turn", "down", "up", "centre", "turned", "out", "turns", "limit",
        "recycled", "deal")


def format_position(state: JomfruState) -> str:
    n = state.seats
    data: dict[str, Any] = {
        "seats": n,
        "turn": state.turn,
        "down": {str(s): list(state.down[s]) for s in range(n)},
        "up": {str(s): list(state.up[s]) for s in range(n)},
        "centre": [list(p) for p in state.centre],
        "turned": state.turned,
        "out": list(state.out),
        "turns": state.turns,
        "limit": state.limit,
        "recycled": [s for s in range(n) if state.recycled[s]],
        "deal": state.deal,
    }
    return json.dumps(data)


def parse_position(game: Game, text: str, flags: dict[str, bool]) -> JomfruState:
    data = positions.load_object(text, "gammel_jomfru", KEYS)
    n = positions.integer(data, "seats", None, 2, 8)
    turn = positions.integer(data, "turn", 0, 0, n - 1)
    down = positions.seat_piles(data, "down", n, DECK_SET)
    up = positions.seat_piles(data, "up", n, DECK_SET)
    centre_raw = data.get("centre", [])
    if not isinstance(centre_raw, list) or len(centre_raw) > 4:
        raise NotationError("'centre' is a list of at most 4 piles")
    centre = tuple(positions.cards(p, f"centre pile {i + 1}", DECK_SET)
                   for i, p in enumerate(centre_raw))
    turned_raw = data.get("turned")
    turned = None if turned_raw is None else positions.card(turned_raw, "turned", DECK_SET)
    out = positions.seat_list(data, "out", n)
    recycled_seats = positions.seat_list(data, "recycled", n)
    limit = positions.integer(data, "limit", default_turn_limit(n), 1, 10**9)
    turns = positions.integer(data, "turns", 0, 0, limit)
    deal = positions.integer(data, "deal", 0, 0)

    for i, pile in enumerate(centre):
        if not pile or pile[0][0] != "A":
            raise NotationError(f"centre pile {i + 1} must start with an ace")
        for below, card in pairwise(pile):
            if CENTRE_NEXT[below] != card:
                raise NotationError(f"centre pile {i + 1} out of order: {card} on {below}")
    for s in range(n):
        if any(c[0] == "A" for c in up[s]):
            raise NotationError(f"up {s}: an ace never lies on a face-up pile (rule 2)")
        if s in recycled_seats and any(c[0] == "A" for c in down[s]):
            raise NotationError(f"down {s}: a recycled pile cannot hold an ace (rule 2)")
    positions.check_deck([*((f"down {s}", p) for s, p in enumerate(down)),
                          *((f"up {s}", p) for s, p in enumerate(up)),
                          *((f"centre pile {i + 1}", p) for i, p in enumerate(centre)),
                          ("turned", (turned,) if turned else ())], DECK)
    for s in range(n):
        held = bool(down[s] or up[s] or (turned is not None and s == turn))
        if s in out and held:
            raise NotationError(f"seat {s} is out but holds cards")
        if s not in out and not held:
            raise NotationError(f"seat {s} holds no cards but is not listed as out")
    if len(out) >= n:
        raise NotationError("'out' cannot hold every seat")
    if turn in out:
        raise NotationError(f"'turn': seat {turn} is out")
    over = len(out) >= n - 1 or turns >= limit
    if turned is not None and over:
        raise NotationError("'turned' must be null: no turn is in progress (game over)")
    recycled = tuple(s in recycled_seats for s in range(n))
    return JomfruState(game, n, deal, flags, turn, down, up, centre, turned, out, turns, limit,
                       recycled)

