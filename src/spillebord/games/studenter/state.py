"""The immutable Studenterkabalen state: legal actions, applying them, the outcome and
the resample of the hidden stock.

Rule-book rulings covered: 2 (foundations), 3 (only the row's rightmost card moves),
4 (the row's end takes cards from helpers and waste only; an empty row takes nothing),
5 (the waste takes the row's end only; an empty waste takes nothing), 6 (the leftmost
row card once per game), 7 (helpers refill at once from the stock, h1 … h6, never from
the waste), 8 (draw; turn the waste over twice, order kept; helpers refill after a
turn-over), 9 (won with all 104 cards up, bonus 3/2/1 by pass; lost when only resigning
is left, or on resigning).

Hidden information: in pass 1 the stock's order is unknown to the player.  From pass 2
on every stock card has been seen face up on the waste in an order the rule book keeps,
so an attentive player knows the stock; ``resample`` then changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import fresh_deal
from spillebord.games.studenter.rules import (
    FOUNDATION_NAMES,
    HELPER_NAMES,
    PASSES,
    TOTAL_CARDS,
    foundation_takes,
    goes_down_on,
)

RESIGN = "resign"
DRAW = "draw"
REDEAL = "redeal"
LEFT = "left>row"


def refill(helpers: tuple[str | None, ...], stock: tuple[str, ...]
           ) -> tuple[tuple[str | None, ...], tuple[str, ...]]:
    """Rule 7: empty helpers take the next stock cards, h1 first, while the stock lasts."""
    if None not in helpers or not stock:
        return helpers, stock
    out = list(helpers)
    rest = list(stock)
    for i, card in enumerate(out):
        if card is None and rest:
            out[i] = rest.pop(0)
    return tuple(out), tuple(rest)


@dataclass(frozen=True, eq=False, slots=True)  # equality and hash: State's (position text)
class StudenterState(State):
    """One position.  ``row`` left to right, foundations and waste bottom to top,
    ``stock`` in drawing order (first = next card drawn), ``pass_no`` 1 … 3."""

    base: int
    row: tuple[str, ...]
    foundations: tuple[tuple[str, ...], ...]
    helpers: tuple[str | None, ...]
    stock: tuple[str, ...]
    waste: tuple[str, ...]
    pass_no: int = 1
    left_used: bool = False
    resigned: bool = False
    deal: int = field(default=0, compare=False)
    flags: Mapping[str, bool] = field(default_factory=dict, compare=False)
    seats: int = 1

    # -- queries ----------------------------------------------------------------------

    def sources(self) -> list[tuple[str, str]]:
        """The movable cards (rule 3: the row's end only), as (place, card)."""
        out: list[tuple[str, str]] = []
        if self.row:
            out.append(("row", self.row[-1]))
        if self.waste:
            out.append(("waste", self.waste[-1]))
        for name, card in zip(HELPER_NAMES, self.helpers, strict=True):
            if card is not None:
                out.append((name, card))
        return out

    def foundations_taking(self, card: str) -> list[int]:
        """Indexes of the foundations that take ``card`` (rule 2)."""
        return [i for i, pile in enumerate(self.foundations)
                if foundation_takes(pile, card, self.base)]

    def can_redeal(self) -> bool:
        return not self.stock and bool(self.waste) and self.pass_no < PASSES

    def can_move_left(self) -> bool:
        return (not self.left_used and len(self.row) >= 2
                and goes_down_on(self.row[0], self.row[-1]))

    @property
    def on_foundations(self) -> int:
        return sum(len(p) for p in self.foundations)

    @property
    def is_won(self) -> bool:
        return self.on_foundations == TOTAL_CARDS

    @cached_property
    def _moves(self) -> tuple[str, ...]:
        """Every legal action except resigning, sorted."""
        if self.resigned or self.is_won:
            return ()
        moves: list[str] = []
        row_end = self.row[-1] if self.row else None
        waste_top = self.waste[-1] if self.waste else None
        for place, card in self.sources():
            moves.extend(f"{place}>{FOUNDATION_NAMES[i]}"
                         for i in self.foundations_taking(card))
            if place == "row":
                if waste_top is not None and goes_down_on(card, waste_top):
                    moves.append("row>waste")
            elif row_end is not None and goes_down_on(card, row_end):
                moves.append(f"{place}>row")
        if self.stock:
            moves.append(DRAW)
        if self.can_redeal():
            moves.append(REDEAL)
        if self.can_move_left():
            moves.append(LEFT)
        return tuple(sorted(moves))

    # -- protocol ---------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return 0 if self._moves else None

    def legal_actions(self) -> list[str]:
        if not self._moves:
            return []
        return sorted([*self._moves, RESIGN])

    @property
    def outcome(self) -> Outcome | None:
        if self._moves:
            return None
        if self.is_won:
            return Outcome(winners=(0,), ranking=((0,),), reason="won",
                           bonus=PASSES + 1 - self.pass_no)
        reason = "resigned" if self.resigned else "stuck"
        return Outcome(winners=(), ranking=((0,),), reason=reason, bonus=0, losers=(0,))

    def _apply(self, action: object) -> StudenterState:
        text = str(action)
        if text == RESIGN:
            return replace(self, resigned=True)
        if text == DRAW:
            return replace(self, stock=self.stock[1:], waste=(*self.waste, self.stock[0]))
        if text == REDEAL:
            helpers, stock = refill(self.helpers, self.waste)
            return replace(self, stock=stock, waste=(), helpers=helpers,
                           pass_no=self.pass_no + 1)
        if text == LEFT:
            return replace(self, row=(*self.row[1:], self.row[0]), left_used=True)
        source, _, target = text.partition(">")
        return self._move(source, target)

    def _move(self, source: str, target: str) -> StudenterState:
        row, waste = list(self.row), list(self.waste)
        helpers = list(self.helpers)
        if source == "row":
            card = row.pop()
        elif source == "waste":
            card = waste.pop()
        else:
            h = HELPER_NAMES.index(source)
            held = helpers[h]
            assert held is not None
            card, helpers[h] = held, None
        foundations = self.foundations
        if target == "row":
            row.append(card)
        elif target == "waste":
            waste.append(card)
        else:
            f = FOUNDATION_NAMES.index(target)
            piles = list(foundations)
            piles[f] = (*piles[f], card)
            foundations = tuple(piles)
        new_helpers, stock = refill(tuple(helpers), self.stock)
        return replace(self, row=tuple(row), waste=tuple(waste), helpers=new_helpers,
                       stock=stock, foundations=foundations)

    def view(self, seat: int | None) -> JSON:
        from spillebord.games.studenter.view import view

        return view(self)

    def resample(self, seat: int | None, rng: random.Random) -> StudenterState:
        """Pass 1: the stock's cards in a fresh order (drawn from the sorted cards, so
        the result depends only on what the player sees and on ``rng``).  Later passes:
        the stock is the old waste, seen in order, so nothing is hidden."""
        if self.pass_no != 1 or len(self.stock) < 2 or self.to_move is None:
            return replace(self, deal=fresh_deal(rng))
        cards = sorted(self.stock)
        rng.shuffle(cards)
        # the true deal number would rebuild the stock's order
        return replace(self, stock=tuple(cards), deal=fresh_deal(rng))
