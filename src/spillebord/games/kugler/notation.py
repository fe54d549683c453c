"""Position text of Kugler og Jokere: the rule book's JSON plus documented extra keys.

Rule book keys: ``seats``, ``turn``, ``marbles`` (every seat's 5 locations ``s<p>``,
``t<i>``, ``h<p>.<k>``) and ``hands`` (at least the seat to move).  Extra keys written by
``format_position`` so that a position is a complete state: ``draw`` (the draw pile in
drawing order, first = next drawn), ``discard`` (bottom to top), ``deal`` (feeds later
reshuffles), ``turns`` (turns played, for the game-length limit), ``reshuffles`` and
``last`` (the latest ``[seat, action]`` pairs).  A position without ``draw`` is filled
from the deal number: the cards not named anywhere are shuffled by the deal's ``deal``
stream (sorted first), dealt 5 to each seat whose hand is missing (seat order), and the
rest form the draw pile.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from spillebord.core import positions
from spillebord.core.errors import NotationError
from spillebord.core.rng import shuffled
from spillebord.games.kugler.board import EMPTY, MARBLES, START, geometry
from spillebord.games.kugler.state import DECK, KuglerState

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

SEAT_COUNTS = (4, 6, 8)
KEYS = ("seats", "turn", "marbles", "hands", "draw", "discard", "deal", "turns",
        "reshuffles", "last")
DECK_COUNT = Counter(DECK)


def format_position(state: KuglerState) -> str:
    n = state.seats
    data = {
        "seats": n,
        "turn": state.turn,
        "marbles": {str(s): state.marbles(s) for s in range(n)},
        "hands": {str(s): list(state.hands[s]) for s in range(n)},
        "draw": list(state.draw),
        "discard": list(state.discard),
        "deal": state.deal,
        "turns": state.turns,
        "reshuffles": state.reshuffles,
        "last": [[s, t] for s, t in state.last],
    }
    return json.dumps(data)


_int = positions.integer
CARDS = frozenset(DECK)


def _cards(value: Any, where: str) -> list[str]:
    return list(positions.cards(value, where, CARDS))


def _board(marbles: Any, n: int) -> tuple[int, ...]:
    geo = geometry(n)
    if not isinstance(marbles, dict):
        raise NotationError("'marbles' must map each seat to its 5 marble locations")
    for key in marbles:
        if key not in {str(s) for s in range(n)}:
            raise NotationError(f"'marbles' has no seat {key!r} at a {n}-seat table")
    board = [EMPTY] * geo.size
    for s in range(n):
        locs = marbles.get(str(s))
        if locs is None:
            raise NotationError(f"'marbles' lacks seat {s}")
        if not isinstance(locs, list) or len(locs) != MARBLES:
            got = len(locs) if isinstance(locs, list) else "no list"
            raise NotationError(f"seat {s} must have exactly 5 marbles, not {got}")
        for text in locs:
            if not isinstance(text, str):
                raise NotationError(f"seat {s}: {text!r} is not a place")
            loc, owner = geo.parse_location(text)
            if owner is not None and owner != s:
                raise NotationError(f"seat {s}'s marble cannot be on {text}: not its own")
            if loc == START:
                continue
            if board[loc] != EMPTY:
                raise NotationError(f"two marbles on {text}")
            board[loc] = s
    return tuple(board)


def parse_position(game: Game, text: str, flags: dict[str, bool]) -> KuglerState:
    data = positions.load_object(text, "kugler", KEYS)
    n = data.get("seats")
    if n not in SEAT_COUNTS or isinstance(n, bool):
        raise NotationError(f"'seats' must be 4, 6 or 8, not {n!r}")
    turn = _int(data, "turn", None, 0, n - 1)
    deal = _int(data, "deal", 0, 0)
    turns = _int(data, "turns", 0, 0)
    reshuffles = _int(data, "reshuffles", 0, 0)
    board = _board(data.get("marbles"), n)
    hands_in = data.get("hands")
    if not isinstance(hands_in, dict):
        raise NotationError("'hands' must map seats to their cards")
    hands: dict[int, list[str]] = {}
    for key, value in hands_in.items():
        if key not in {str(s) for s in range(n)}:
            raise NotationError(f"'hands' has no seat {key!r} at a {n}-seat table")
        cards = _cards(value, f"seat {key}'s hand")
        if len(cards) != 5:
            raise NotationError(f"seat {key}'s hand must hold 5 cards, not {len(cards)}")
        hands[int(key)] = cards
    if turn not in hands:
        raise NotationError(f"the hand of seat {turn}, the seat to move, is missing")
    discard = _cards(data.get("discard", []), "'discard'")
    named = Counter(c for h in hands.values() for c in h) + Counter(discard)
    draw_given = "draw" in data
    draw = _cards(data["draw"], "'draw'") if draw_given else []
    named += Counter(draw)
    for code, count in named.items():
        if count > DECK_COUNT[code]:
            raise NotationError(
                f"{code} appears {count} times; the deck holds {DECK_COUNT[code]}"
            )
    rest = sorted((Counter(DECK) - named).elements())
    if draw_given:
        if len(hands) != n or rest:
            raise NotationError("with 'draw' given, every hand must be given and the "
                                "hands, draw and discard must hold the whole deck")
    else:
        rest = shuffled(rest, "kugler", n, deal)
        for s in range(n):
            if s not in hands:
                hands[s], rest = rest[:5], rest[5:]
        draw = rest
    last_in = data.get("last", [])
    if not isinstance(last_in, list) or not all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], int)
        and not isinstance(p[0], bool) and 0 <= p[0] < n and isinstance(p[1], str)
        for p in last_in
    ):
        raise NotationError("'last' must be a list of [seat, action] pairs")
    last = tuple((int(p[0]), str(p[1])) for p in last_in)
    return KuglerState(game, n, deal, flags, board,
                       tuple(tuple(sorted(hands[s])) for s in range(n)), tuple(draw),
                       tuple(discard), turn, turns, reshuffles, last)
