"""Studenterkabalen's position JSON and action texts, with reasons a player understands.

Position (rule book): ``{"pass": 1, "base": "8", "row": [...], "foundations": [[...], ...
8 piles], "helpers": [6 cards or null], "stock": [...], "waste": [...],
"left_used": false}`` — ``row`` left to right, foundations and waste bottom to top,
``stock`` in drawing order.  Extra keys: ``"deal"`` (the deal number, rule book
"Notation shared by all games"; optional on input, default 0, always written — no
shuffle follows the deal, so it decides nothing later, but a parsed position keeps it),
and ``"resigned": true``, only after resigning (so a finished game's position reads back
finished).

Checks: 104 cards in all, each code exactly twice (two decks); a known base rank; exactly 8
foundations, each following the base and the wrap (ruling 2) and at most 13 cards; exactly
6 helpers, none empty while the stock has cards (ruling 7); pass 1 … 3.
"""

from __future__ import annotations

import json
from typing import Any

from spillebord.core import positions
from spillebord.core.cards import RANKS, one_deck, two_decks
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.core.errors import refuse as no
from spillebord.games.studenter.rules import (
    FOUNDATION_NAMES,
    FOUNDATIONS,
    FULL_PILE,
    HELPER_NAMES,
    HELPERS,
    PASSES,
    TOTAL_CARDS,
    foundation_needs,
    foundation_takes,
    goes_down_on,
    rank_text,
    rank_value,
)
from spillebord.games.studenter.state import DRAW, LEFT, REDEAL, RESIGN, StudenterState

KEYS = ("pass", "base", "row", "foundations", "helpers", "stock", "waste", "left_used")


def format_position(state: StudenterState) -> str:
    data: dict[str, Any] = {
        "pass": state.pass_no,
        "base": rank_text(state.base),
        "row": list(state.row),
        "foundations": [list(p) for p in state.foundations],
        "helpers": list(state.helpers),
        "stock": list(state.stock),
        "waste": list(state.waste),
        "left_used": state.left_used,
        "deal": state.deal,
    }
    if state.resigned:
        data["resigned"] = True
    return json.dumps(data)


CARDS = frozenset(one_deck())


def _cards(value: Any, where: str) -> tuple[str, ...]:
    return positions.cards(value, where, CARDS)


def parse_position(text: str, **flags: bool) -> StudenterState:
    data = positions.load_object(text, "studenter", (*KEYS, "deal", "resigned"),
                                 required=KEYS)
    pass_no = data["pass"]
    if type(pass_no) is not int or pass_no not in range(1, PASSES + 1):
        raise NotationError(f"pass must be 1, 2 or 3, not {pass_no!r}")
    base_text = data["base"]
    if not isinstance(base_text, str) or len(base_text) != 1 or base_text not in RANKS:
        raise NotationError(f"unknown base rank {base_text!r} (use one of {RANKS})")
    base = rank_value(base_text + "C")
    row = _cards(data["row"], "row")
    stock = _cards(data["stock"], "stock")
    waste = _cards(data["waste"], "waste")
    piles = data["foundations"]
    if not isinstance(piles, list):
        raise NotationError("foundations must be a list of 8 piles")
    if len(piles) != FOUNDATIONS:
        raise NotationError(f"there are exactly 8 foundations, not {len(piles)}")
    foundations: list[tuple[str, ...]] = []
    for name, raw in zip(FOUNDATION_NAMES, piles, strict=True):
        pile = _cards(raw, name)
        if len(pile) > FULL_PILE:
            raise NotationError(f"{name} holds {len(pile)} cards; a foundation holds 13")
        for i, card in enumerate(pile):
            if not foundation_takes(pile[:i], card, base):
                want = rank_text(foundation_needs(base, i))
                raise NotationError(f"{name} does not follow the base {base_text} and the "
                                    f"wrap: card {i + 1} is {card}, expected a {want}")
        foundations.append(pile)
    raw_helpers = data["helpers"]
    if not isinstance(raw_helpers, list):
        raise NotationError("helpers must be a list of 6 cards or null")
    if len(raw_helpers) != HELPERS:
        raise NotationError(f"there are exactly 6 helpers, not {len(raw_helpers)}")
    helpers: list[str | None] = []
    for name, item in zip(HELPER_NAMES, raw_helpers, strict=True):
        if item is None:
            if stock:
                raise NotationError(f"{name} is empty while the stock has cards "
                                    "(rule 7 refills it at once)")
            helpers.append(None)
        else:
            helpers.append(_cards([item], name)[0])
    left_used = data["left_used"]
    resigned = data.get("resigned", False)
    if not isinstance(left_used, bool) or not isinstance(resigned, bool):
        raise NotationError("left_used and resigned must be true or false")
    everything = [*row, *stock, *waste, *(c for c in helpers if c is not None),
                  *(c for p in foundations for c in p)]
    if len(everything) != TOTAL_CARDS:
        raise NotationError(f"the position holds {len(everything)} cards, not 104")
    positions.check_deck([("row", row), ("stock", stock), ("waste", waste),
                          ("helpers", [c for c in helpers if c is not None]),
                          *zip(FOUNDATION_NAMES, foundations, strict=True)], two_decks())
    deal = positions.integer(data, "deal", 0, 0)
    from spillebord.games.studenter.game import GAME

    return StudenterState(base=base, row=row, foundations=tuple(foundations),
                          helpers=tuple(helpers), stock=stock, waste=waste,
                          pass_no=pass_no, left_used=left_used, resigned=resigned,
                          deal=deal, flags=GAME.check_flags(flags))


def _place(name: str) -> str:
    return {"row": "the row", "waste": "the waste"}.get(name, name)


def explain_illegal(state: StudenterState, text: str) -> IllegalActionError:
    """Why ``text`` is not legal here: the error with a one-line reason for the player
    and its message key (see spillebord.core.errors)."""
    if text == DRAW:
        if state.can_redeal():
            return no("the stock is empty: turn the waste over (redeal) to draw again",
                      key="studenter.stock_empty_redeal")
        return no("the stock is empty", key="studenter.stock_empty")
    if text == REDEAL:
        if state.stock:
            return no("the waste can be turned over only when the stock is empty",
                      key="studenter.redeal_stock_left")
        if not state.waste:
            return no("the waste is empty: there is nothing to turn over",
                      key="studenter.redeal_waste_empty")
        return no("the waste has been turned over twice already (3 passes)",
                  key="studenter.redeal_none_left")
    if text == LEFT:
        if state.left_used:
            return no("the leftmost card has been moved once already",
                      key="studenter.left_used")
        if len(state.row) < 2:
            return no("the row needs at least 2 cards for that", key="studenter.left_short")
        return no(f"the leftmost card {state.row[0]} is not one lower than the row's end "
                  f"{state.row[-1]}", key="studenter.left_not_lower",
                  card=state.row[0], end=state.row[-1], cards=("card", "end"))
    source, sep, target = text.partition(">")
    places = ("row", "waste", *HELPER_NAMES)
    if not sep or source not in places or target not in ("row", "waste", *FOUNDATION_NAMES):
        shown = text if len(text) <= 20 else text[:20] + "…"
        return no(f"{shown!r} is not a studenter action (e.g. draw, redeal, row>f3, "
                  "waste>row, h2>f5, left>row, resign)", key="studenter.not_action",
                  text=shown)
    card = dict(state.sources()).get(source)
    if card is None:
        if source == "row":
            return no(f"{_place(source)} is empty", key="studenter.row_empty")
        if source == "waste":
            return no(f"{_place(source)} is empty", key="studenter.waste_empty")
        return no(f"{source} is empty", key="studenter.helper_empty", place=source,
                  places=("place",))
    if target.startswith("f"):
        pile = state.foundations[FOUNDATION_NAMES.index(target)]
        if len(pile) >= FULL_PILE:
            return no(f"{target} is complete and takes nothing",
                      key="studenter.foundation_full", place=target,
                      places=("place",))
        if not pile:
            return no(f"{target} is empty and takes only a {rank_text(state.base)}",
                      key="studenter.foundation_base", place=target,
                      rank=rank_text(state.base), ranks=("rank",), places=("place",))
        want = rank_text(foundation_needs(state.base, len(pile)))
        return no(f"{card} does not fit on {target}: it needs a {want}",
                  key="studenter.foundation_needs", card=card, place=target, rank=want,
                  cards=("card",), ranks=("rank",), places=("place",))
    if target == "waste":
        if source != "row":
            return no("the waste takes only the row's rightmost card",
                      key="studenter.waste_only_row")
        if not state.waste:
            return no("an empty waste takes nothing", key="studenter.waste_empty_takes")
        return no(f"{card} is not one lower than the waste's top {state.waste[-1]}",
                  key="studenter.waste_not_lower", card=card, top=state.waste[-1],
                  cards=("card", "top"))
    if source == "row":
        return no("a card from the row cannot go back onto the row",
                  key="studenter.row_to_row")
    if not state.row:
        return no("an empty row takes nothing", key="studenter.row_empty_takes")
    if not goes_down_on(card, state.row[-1]):
        return no(f"{card} is not one lower than the row's end {state.row[-1]}",
                  key="studenter.row_not_lower", card=card, end=state.row[-1],
                  cards=("card", "end"))
    return no(f"{text} is not legal here",  # pragma: no cover - every case is named above
              key="core.not_legal", action=text)


def parse_action(state: StudenterState, wanted: str) -> str:
    """The legal action written ``wanted`` (normalised by ``Game.parse_action``)."""
    if state.to_move is None:
        raise IllegalActionError("the game is over", key="core.game_over")
    if wanted == RESIGN or wanted in state.legal_actions():
        return wanted
    raise explain_illegal(state, wanted)
