"""The posthus state: the grid, the round (1–3), and whether the player resigned.

Rule-book rulings covered here (posthus, rules 2, 4 and 5):

- any card in the grid may move into a gap that accepts it (``grid.accepted_cards``);
- redeal at most twice per game (3 rounds), at any time the player chooses; a redeal
  gathers every card not in a run, shuffles them with the deal number's stream
  ``redeal/1`` or ``redeal/2`` (the gathered cards start from deck order C D H S, 7–K),
  and deals them back row by row leaving one gap right after each row's run;
- won when every row holds a complete run 7–K; bonus 3, 2, 1 for a win in round 1, 2, 3;
- lost when no card move and no redeal is left (``stuck``), or on resigning.

Actions are plain strings: ``"8H c2"``, ``"redeal"``, ``"resign"``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import fresh_deal, shuffled
from spillebord.games.posthus import grid as g

if TYPE_CHECKING:
    from spillebord.games.posthus.game import PosthusGame

REDEAL = "redeal"
RESIGN = "resign"
ROUNDS = 3
_ALL_RUNS = (7, 7, 7, 7)
T = TypeVar("T")


class _cached(Generic[T]):
    """``functools.cached_property`` without its lock (3.11 takes one on every first
    access): the value lands in the instance's ``__dict__``, which then wins."""

    def __init__(self, fn: Callable[[PosthusState], T]) -> None:
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj: PosthusState, objtype: type | None = None) -> T:
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


class PosthusState(State):
    """An immutable posthus position.  ``deal`` feeds the redeal shuffles."""

    def __init__(
        self,
        game: PosthusGame,
        grid: g.Grid,
        round_: int = 1,
        deal: int = 0,
        flags: Mapping[str, bool] | None = None,
        resigned: bool = False,
    ) -> None:
        self.game = game
        self.grid = grid
        self.round = round_
        self.deal = deal
        self.flags = dict(flags or {"open_gaps": False})
        self.resigned = resigned
        self.seats = 1

    @property
    def open_gaps(self) -> bool:
        return bool(self.flags.get("open_gaps", False))

    @property
    def redeals_left(self) -> int:
        return ROUNDS - self.round

    @property
    def bonus(self) -> int:
        """What a win in the current round counts: 3, 2 or 1."""
        return ROUNDS + 1 - self.round

    @_cached
    def runs(self) -> tuple[int, ...]:
        return g.run_lengths(self.grid)

    @_cached
    def card_moves(self) -> list[str]:
        return sorted(g.moves(self.grid, self.open_gaps))

    @_cached
    def is_won(self) -> bool:
        return self.runs == _ALL_RUNS

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else 0

    @_cached
    def outcome(self) -> Outcome | None:
        if self.is_won:
            return Outcome((0,), ((0,),), "won", bonus=self.bonus)
        if self.resigned:
            return Outcome((), ((0,),), "resigned", losers=(0,))
        if not self.card_moves and self.redeals_left == 0:
            return Outcome((), ((0,),), "stuck", losers=(0,))
        return None

    def legal_actions(self) -> list[str]:
        if self.outcome is not None:
            return []
        extra = [REDEAL] if self.redeals_left > 0 else []
        # Card moves start with a rank digit or letter in upper case, so they sort
        # before the lower-case words "redeal" and "resign".
        return [*self.card_moves, *extra, RESIGN]

    def _apply(self, action: Any) -> PosthusState:
        text = str(action)
        if text == RESIGN:
            return self._with(self.grid, self.round, resigned=True)
        if text == REDEAL:
            cards = shuffled(g.gathered_cards(self.grid), "posthus", 1, self.deal,
                             f"redeal/{self.round}")
            return self._with(g.redeal_grid(self.grid, cards), self.round + 1)
        card, _, place = text.partition(" ")
        target = g.PLACE_INDEX[place]
        cells = list(self.grid)
        cells[cells.index(card)] = None
        cells[target] = card
        return self._with(tuple(cells), self.round)

    def _with(self, grid: g.Grid, round_: int, resigned: bool = False) -> PosthusState:
        # The successor shares the flags dict (never mutated) instead of copying it.
        new = PosthusState.__new__(PosthusState)
        new.__dict__.update(game=self.game, grid=grid, round=round_,
                            deal=self.deal, flags=self.flags, resigned=resigned, seats=1)
        return new

    def resample(self, seat: int | None, rng: random.Random) -> PosthusState:
        """Every card lies face up, but the redeals to come are shuffled from the deal
        number, which the player does not know: the same position with a deal number
        drawn from ``rng``, so the redeals are drawn afresh."""
        new = self._with(self.grid, self.round, self.resigned)
        new.deal = fresh_deal(rng)
        return new

    def gaps(self) -> list[int]:
        grid = self.grid
        return [i for i in range(g.PLACES) if grid[i] is None]

    def view(self, seat: int | None) -> JSON:
        from spillebord.games.posthus.view import state_view

        return state_view(self)

    def __repr__(self) -> str:
        return f"posthus.parse_position({self.game.format_position(self)!r})"
