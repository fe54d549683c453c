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


def _int(data: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int:
    value = data.get(key, default)
    if value is None:
        raise NotationError(f"position needs {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise NotationError(f"{key!r} must be an integer {low}..{high}, not {value!r}")
    return value


def _card(value: Any, place: str) -> str:
    if not isinstance(value, str) or value not in DECK_SET:
        raise NotationError(f"{place}: {value!r} is not a card of the 52 (e.g. 'TH')")
    return value


def _cards(value: Any, place: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise NotationError(f"{place} must be a list of cards")
    return tuple(_card(c, f"{place} card {i + 1}") for i, c in enumerate(value))


def _seat_piles(data: dict[str, Any], key: str, n: int) -> tuple[tuple[str, ...], ...]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise NotationError(f"{key!r} maps seats (\"0\", \"1\", ...) to lists of cards")
    piles: list[tuple[str, ...]] = [() for _ in range(n)]
    for k, cards in value.items():
        if k not in {str(s) for s in range(n)}:
            raise NotationError(f"{key!r}: {k!r} is not a seat 0..{n - 1}")
        piles[int(k)] = _cards(cards, f"{key} {k}")
    return tuple(piles)


def _seat_list(data: dict[str, Any], key: str, n: int) -> tuple[int, ...]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise NotationError(f"{key!r} must be a list of seats")
    for s in value:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise NotationError(f"{key!r}: {s!r} is not a seat 0..{n - 1}")
    if len(set(value)) != len(value):
        raise NotationError(f"{key!r} names a seat twice")
    return tuple(value)


def parse_position(game: Game, text: str, flags: dict[str, bool]) -> JomfruState:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise NotationError(f"a gammel_jomfru position is JSON: {exc}") from None
    if not isinstance(data, dict):
        raise NotationError("a gammel_jomfru position is a JSON object")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise NotationError(f"unknown position key {unknown[0]!r} (keys: {', '.join(KEYS)})")
    n = _int(data, "seats", None, 2, 8)
    turn = _int(data, "turn", 0, 0, n - 1)
    down = _seat_piles(data, "down", n)
    up = _seat_piles(data, "up", n)
    centre_raw = data.get("centre", [])
    if not isinstance(centre_raw, list) or len(centre_raw) > 4:
        raise NotationError("'centre' is a list of at most 4 piles")
    centre = tuple(_cards(p, f"centre pile {i + 1}") for i, p in enumerate(centre_raw))
    turned_raw = data.get("turned")
    turned = None if turned_raw is None else _card(turned_raw, "turned")
    out = _seat_list(data, "out", n)
    recycled_seats = _seat_list(data, "recycled", n)
    limit = _int(data, "limit", default_turn_limit(n), 1, 10**9)
    turns = _int(data, "turns", 0, 0, limit)
    deal = _int(data, "deal", 0, 0, 2**63)

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
    _check_cards(down, up, centre, turned)
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


def _check_cards(down: tuple[tuple[str, ...], ...], up: tuple[tuple[str, ...], ...],
                 centre: tuple[tuple[str, ...], ...], turned: str | None) -> None:
    seen: dict[str, str] = {}
    places = ([(f"down {s}", p) for s, p in enumerate(down)]
              + [(f"up {s}", p) for s, p in enumerate(up)]
              + [(f"centre pile {i + 1}", p) for i, p in enumerate(centre)]
              + [("turned", (turned,) if turned else ())])
    for place, pile in places:
        for card in pile:
            if card in seen:
                raise NotationError(f"{card} appears twice ({seen[card]} and {place})")
            seen[card] = place
    missing = [c for c in DECK if c not in seen]
    if missing:
        raise NotationError(f"the cards must be exactly the 52: missing {' '.join(missing)}")
