"""Builds test positions in the rule book's position JSON: the test names the piles it
cares about and the builder puts every other card of the two decks on the foundations
(as heights given, or greedily) or into the stock."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from spillebord.core.cards import RANKS, two_decks
from spillebord.games.studenter import GAME, StudenterState


def _take(pool: Counter[str], rank: str) -> str:
    for code in sorted(pool):
        if code[0] == rank and pool[code] > 0:
            pool[code] -= 1
            return code
    raise AssertionError(f"no {rank} left for the foundations")


def position_json(
    *, base: str = "8", row: Sequence[str] = (), helpers: Sequence[str | None] = (None,) * 6,
    waste: Sequence[str] = (), stock: Sequence[str] | None = None,
    heights: Sequence[int] | None = None, pass_no: int = 1, left_used: bool = False,
) -> str:
    """The foundations get ``heights`` (default: only the base card on f1); with
    ``stock=None`` every other card goes to the stock, else there must be none left."""
    pool = Counter(two_decks())
    for code in [*row, *waste, *(h for h in helpers if h), *(stock or [])]:
        pool[code] -= 1
        assert pool[code] >= 0, f"too many {code}"
    b = RANKS.index(base)
    piles: list[list[str]] = []
    if heights is None:
        assert stock is None, "give the foundation heights with an explicit stock"
        heights = [1, 0, 0, 0, 0, 0, 0, 0]
    for h in heights:
        piles.append([_take(pool, RANKS[(b + i) % 13]) for i in range(h)])
    rest = sorted(pool.elements())
    if stock is None:
        stock = rest
    else:
        assert not rest, f"cards left over: {rest}"
    return json.dumps({
        "pass": pass_no, "base": base, "row": list(row), "foundations": piles,
        "helpers": list(helpers), "stock": list(stock), "waste": list(waste),
        "left_used": left_used,
    })


def position(**kwargs: object) -> StudenterState:
    return GAME.parse_position(position_json(**kwargs))  # type: ignore[arg-type]
