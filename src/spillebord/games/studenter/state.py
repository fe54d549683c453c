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
from dataclasses import dataclass, field, fields, replace

from spillebord.core.cards import two_decks
from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import fresh_deal
from spillebord.games.studenter.rules import (
    FOUNDATION_NAMES,
    FULL_PILE,
    HELPER_NAMES,
    PASSES,
    TOTAL_CARDS,
    foundation_takes,
    goes_down_on,
    rank_value,
)

RESIGN = "resign"
DRAW = "draw"
REDEAL = "redeal"
LEFT = "left>row"

# The hot path's tables (performance only: the rules stay rules.py's): a card's rank,
# and for a source and a foundation or a target the action's text, made once.
RANK = {code: rank_value(code) for code in set(two_decks())}
_TO_FOUNDATION = {place: tuple(f"{place}>{f}" for f in FOUNDATION_NAMES)
                  for place in ("row", "waste", *HELPER_NAMES)}
_TO_ROW = {place: f"{place}>row" for place in ("waste", *HELPER_NAMES)}
_SOURCES = ("waste", *HELPER_NAMES)
_FIELDS: tuple[str, ...] = ()  # the dataclass's fields, set below the class


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


def _wants(foundations: tuple[tuple[str, ...], ...]) -> dict[int, list[int]]:
    """Rule 2 as a table: the relative rank a foundation takes next → the foundations
    taking it (full foundations take nothing; empty table: all full)."""
    wants: dict[int, list[int]] = {}
    for i, pile in enumerate(foundations):
        k = len(pile)
        if k < FULL_PILE:
            wants.setdefault(k, []).append(i)
    return wants


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

    @property
    def _moves(self) -> tuple[str, ...]:
        """Every legal action except resigning, sorted; made once per state (kept in
        the instance's ``__dict__``: ``cached_property`` takes a lock a call)."""
        found: tuple[str, ...] | None = self.__dict__.get("_moves_")
        if found is None:
            found = self.__dict__["_moves_"] = self._list_moves()
        return found

    def _list_moves(self) -> tuple[str, ...]:
        """Every legal action except resigning, sorted (rules 2–8 as ``sources``,
        ``foundations_taking``, ``goes_down_on``, ``can_redeal`` and ``can_move_left``
        say, on ranks looked up once: tests/games/studenter/test_fast_moves.py checks it
        equal to them)."""
        if self.resigned:
            return ()
        rank = RANK
        base = self.base
        wants = self.__dict__.get("_wants_")
        if wants is None:
            wants = self.__dict__["_wants_"] = _wants(self.foundations)
        if not wants:  # every foundation is full: won
            return ()
        moves: list[str] = []
        row, waste = self.row, self.waste
        row_end = rank[row[-1]] if row else 0
        waste_top = rank[waste[-1]] if waste else 0
        if row:
            fits = wants.get((row_end - base) % 13)
            if fits:
                names = _TO_FOUNDATION["row"]
                moves.extend(names[i] for i in fits)
            if waste_top and (waste_top - row_end) % 13 == 1:
                moves.append("row>waste")
        for place, card in zip(_SOURCES, (waste[-1] if waste else None, *self.helpers),
                               strict=True):
            if card is None:
                continue
            r = rank[card]
            fits = wants.get((r - base) % 13)
            if fits:
                names = _TO_FOUNDATION[place]
                moves.extend(names[i] for i in fits)
            if row_end and (row_end - r) % 13 == 1:
                moves.append(_TO_ROW[place])
        if self.stock:
            moves.append(DRAW)
        elif waste and self.pass_no < PASSES:
            moves.append(REDEAL)
        if not self.left_used and len(row) >= 2 and (row_end - rank[row[0]]) % 13 == 1:
            moves.append(LEFT)
        moves.sort()
        return tuple(moves)

    # -- protocol ---------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return 0 if self._moves else None

    def legal_actions(self) -> list[str]:
        found: tuple[str, ...] | None = self.__dict__.get("_legal_")
        if found is None:
            moves = self._moves
            found = self.__dict__["_legal_"] = tuple(sorted((*moves, RESIGN))) if moves else ()
        return list(found)

    @property
    def outcome(self) -> Outcome | None:
        if self._moves:
            return None
        if self.is_won:
            return Outcome(winners=(0,), ranking=((0,),), reason="won",
                           bonus=PASSES + 1 - self.pass_no)
        reason = "resigned" if self.resigned else "stuck"
        return Outcome(winners=(), ranking=((0,),), reason=reason, bonus=0, losers=(0,))

    def _with(self, **changes: object) -> StudenterState:
        """``dataclasses.replace`` without ``__init__`` (the hot path: every value is
        already checked), as the other engines build their successors."""
        new = object.__new__(StudenterState)
        put = object.__setattr__
        for name in _FIELDS:
            put(new, name, getattr(self, name))
        for name, value in changes.items():
            put(new, name, value)
        if "foundations" not in changes:  # the same piles: the same wants
            wants = self.__dict__.get("_wants_")
            if wants is not None:
                new.__dict__["_wants_"] = wants
        return new

    def _apply(self, action: object) -> StudenterState:
        text = action if action.__class__ is str else str(action)
        if text == DRAW:
            stock = self.stock
            return self._with(stock=stock[1:], waste=(*self.waste, stock[0]))
        if text == RESIGN:
            return self._with(resigned=True)
        if text == REDEAL:
            helpers, stock = refill(self.helpers, self.waste)
            return self._with(stock=stock, waste=(), helpers=helpers,
                              pass_no=self.pass_no + 1)
        if text == LEFT:
            return self._with(row=(*self.row[1:], self.row[0]), left_used=True)
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
        return self._with(row=tuple(row), waste=tuple(waste), helpers=new_helpers,
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


_FIELDS = tuple(f.name for f in fields(StudenterState))
