"""The checks every JSON position parser repeats, in one place: the object and its keys,
bounded integers, card lists, per-seat piles and seat lists, and "the cards are exactly
the deck".  Each raises ``NotationError`` with a one-line reason naming the place.

A game's ``parse_position`` reads its own fields with these and then checks its own
rules (docs/adding-a-game.md, "Notation").
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from spillebord.core.errors import NotationError

Pile = tuple[str, ...]


def load_object(text: str, game: str, keys: Collection[str],
                required: Iterable[str] = ()) -> dict[str, Any]:
    """The JSON object of a position: no key outside ``keys``, every ``required`` key."""
    if not isinstance(text, str):
        raise NotationError(f"a {game} position is JSON text")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f"{exc.msg} at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) \
            else "nested too deeply"
        raise NotationError(f"a {game} position is JSON: {where}") from None
    if not isinstance(data, dict):
        raise NotationError(f"a {game} position is a JSON object")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise NotationError(f"unknown key {unknown[0]!r} in the position "
                            f"(keys: {', '.join(keys)})")
    missing = [k for k in required if k not in data]
    if missing:
        raise NotationError(f"the position lacks {', '.join(map(repr, missing))}")
    return data


def integer(data: Mapping[str, Any], key: str, default: int | None, low: int,
            high: int | None = None) -> int:
    """``data[key]`` (or ``default``): an integer in ``low`` … ``high`` (no bound: None)."""
    value = data.get(key, default)
    if value is None:
        raise NotationError(f"the position needs {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"≥ {low}"
        raise NotationError(f"{key!r} must be an integer {span}, not {value!r}")
    return value


def card(value: Any, where: str, known: Collection[str]) -> str:
    """One card code of the game's deck (``known``)."""
    if not isinstance(value, str) or value not in known:
        raise NotationError(f"{where}: {str(value)[:12]!r} is not a card of this game "
                            "(e.g. 'TH')")
    return value


def cards(value: Any, where: str, known: Collection[str]) -> Pile:
    """A list of card codes of the game's deck."""
    if not isinstance(value, list):
        raise NotationError(f"{where} must be a list of cards")
    return tuple(card(c, f"{where} card {i + 1}", known) for i, c in enumerate(value))


def seat_piles(data: Mapping[str, Any], key: str, seats: int, known: Collection[str],
               default: Mapping[str, Any] | None = None) -> tuple[Pile, ...]:
    """``{"0": [cards], "1": […]}`` → one pile per seat (a missing seat: empty)."""
    value = data.get(key, {} if default is None else default)
    if not isinstance(value, dict):
        raise NotationError(f"{key!r} maps seats (\"0\", \"1\", ...) to lists of cards")
    names = {str(s) for s in range(seats)}
    piles: list[Pile] = [() for _ in range(seats)]
    for k, pile in value.items():
        if k not in names:
            raise NotationError(f"{key!r}: {k!r} is not a seat 0..{seats - 1}")
        piles[int(k)] = cards(pile, f"{key} {k}", known)
    return tuple(piles)


def seat_list(data: Mapping[str, Any], key: str, seats: int) -> tuple[int, ...]:
    """A list of distinct seat numbers (missing: empty)."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise NotationError(f"{key!r} must be a list of seats")
    for s in value:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < seats:
            raise NotationError(f"{key!r}: {s!r} is not a seat 0..{seats - 1}")
    if len(set(value)) != len(value):
        raise NotationError(f"{key!r} names a seat twice")
    return tuple(value)


def check_deck(places: Iterable[tuple[str, Iterable[str]]], deck: Sequence[str]) -> None:
    """The cards in ``places`` (name, cards) are exactly ``deck``: each card as often as
    the deck holds it (once, or twice in a two-deck game)."""
    wanted = Counter(deck)
    seen: Counter[str] = Counter()
    first: dict[str, str] = {}
    for place, pile in places:
        for c in pile:
            seen[c] += 1
            if seen[c] > wanted[c]:
                often = "twice" if seen[c] == 2 else f"{seen[c]} times"
                times = "once" if wanted[c] == 1 else f"{wanted[c]} times"
                raise NotationError(f"{c} appears {often} (also at {first[c]}, now at "
                                    f"{place}); the deck holds it {times}")
            first.setdefault(c, place)
    missing = sorted((wanted - seen).elements(), key=list(wanted).index)
    if missing:
        raise NotationError(f"the cards must be exactly the deck: missing "
                            f"{' '.join(missing[:12])}{' …' if len(missing) > 12 else ''}")
