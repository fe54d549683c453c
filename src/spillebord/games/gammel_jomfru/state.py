"""The immutable game state of Gammel Jomfru and its transitions.

Rule-book rulings covered (/work/shared/rules/README.md, section gammel_jomfru; our
page docs/rules/gammel_jomfru.md):

- rule 2/3: ``turn`` turns the top face-down card; the turned card is then placed
  (``centre``, ``cN``, ``pN``) and the same player turns again, or — fitting nowhere —
  laid face up on the player's own pile (``keep``) and the turn passes;
- rule 4: turning with an empty face-down pile first turns the face-up pile over,
  unshuffled (the first card laid face up is the first turned);
- rule 5: a player left with no cards is out at once and skipped; the game ends when
  one player still holds cards — the gammel jomfru — and the others rank by going out;
- rule 6: after ``limit`` completed turns the game stops and the player holding the
  most cards loses (ties: the later seat in turn order, i.e. the higher seat number).

Representation (compact, for speed): per seat a tuple of card codes for the face-down
pile in turning order (first = next turned) and for the face-up pile bottom to top;
centre piles bottom to top in the order started.  ``recycled[s]`` says that seat ``s``'s
face-down pile is its turned-over face-up pile: every card in it was seen face up, in
order, by the whole table, so ``resample`` keeps it and redraws only the cards that have
been face down since the deal.  The legal actions live in ``actions.py``, the view in
``view.py``, the position notation in ``notation.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import fresh_deal
from spillebord.games.gammel_jomfru.actions import CENTRE_INDEX, PLAYER_INDEX, legal_actions
from spillebord.games.gammel_jomfru.rules import next_holder, ranking
from spillebord.games.gammel_jomfru.view import build_view

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

Piles = tuple[tuple[str, ...], ...]


_new_object = object.__new__


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1:])


class JomfruState(State):
    """One position of a game; immutable (every field is a tuple or a scalar)."""

    __slots__ = ("_legal", "centre", "deal", "done", "down", "flags", "game", "limit",
                 "nearest_first", "out", "recycled", "seats", "turn", "turned", "turns", "up")

    def __init__(self, game: Game, seats: int, deal: int, flags: Mapping[str, bool],
                 turn: int, down: Piles, up: Piles, centre: Piles, turned: str | None,
                 out: tuple[int, ...], turns: int, limit: int,
                 recycled: tuple[bool, ...]) -> None:
        self.game = game
        self.seats = seats
        self.deal = deal
        self.flags = flags
        self.nearest_first = bool(flags.get("nearest_first", False))
        self.turn = turn
        self.down = down
        self.up = up
        self.centre = centre
        self.turned = turned
        self.out = out
        self.turns = turns
        self.limit = limit
        self.recycled = recycled
        self.done = len(out) >= seats - 1 or turns >= limit
        self._legal: list[str] | None = None

    # -- protocol -------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.done else self.turn

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_actions(self)
        return list(legal)

    def cached_legal(self) -> list[str]:
        """The legal list itself (callers must not mutate it): the engine's fast path."""
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_actions(self)
        return legal

    def _apply(self, action: Any) -> JomfruState:
        t = self.turn
        down, up, centre = self.down, self.up, self.centre
        if action == "turn":
            pile = down[t]
            recycled = self.recycled
            if not pile:  # rule 4: turn the face-up pile over, unshuffled
                pile = up[t]
                up = _set(up, t, ())
                if not recycled[t]:
                    recycled = _set(recycled, t, True)
            return self._next(t, _set(down, t, pile[1:]), up, centre, pile[0], self.out,
                              self.turns, recycled)
        card = self.turned
        assert card is not None
        if action == "keep":  # rule 2: fits nowhere, face up on the own pile; turn passes
            up = _set(up, t, (*up[t], card))
            return self._next(next_holder(t, self.seats, self.out), down, up, centre, None,
                              self.out, self.turns + 1, self.recycled)
        if action == "centre":
            centre = (*centre, (card,))
        elif action[0] == "c":
            i = CENTRE_INDEX[action]
            centre = _set(centre, i, (*centre[i], card))
        else:
            p = PLAYER_INDEX[action]
            up = _set(up, p, (*up[p], card))
        if down[t] or up[t]:  # rule 3: after a successful play the same player goes on
            return self._next(t, down, up, centre, None, self.out, self.turns,
                              self.recycled)
        out = (*self.out, t)  # rule 5: out at once; the turn passes to the next holder
        return self._next(next_holder(t, self.seats, out), down, up, centre, None, out,
                          self.turns + 1, self.recycled)

    # ``State.apply_legal`` (an action from ``legal_actions()``, not checked again)
    # without the extra call: the environments' and bots' hot path.
    apply_legal = _apply

    def _next(self, turn: int, down: Piles, up: Piles, centre: Piles, turned: str | None,
              out: tuple[int, ...], turns: int, recycled: tuple[bool, ...]) -> JomfruState:
        """The successor state: ``__init__``'s fields, the game's constants copied
        (the engine's hot path: no call of ``__init__``, no flag look-up)."""
        new = _new_object(type(self))
        new.game = self.game
        new.seats = seats = self.seats
        new.deal = self.deal
        new.flags = self.flags
        new.nearest_first = self.nearest_first
        new.limit = limit = self.limit
        new.turn = turn
        new.down = down
        new.up = up
        new.centre = centre
        new.turned = turned
        new.out = out
        new.turns = turns
        new.recycled = recycled
        new.done = len(out) >= seats - 1 or turns >= limit
        new._legal = None
        return new

    def cards_held(self, seat: int) -> int:
        """Face-down + face-up cards of ``seat`` (+ the turned card if it is theirs)."""
        held = len(self.down[seat]) + len(self.up[seat])
        if self.turned is not None and seat == self.turn:
            held += 1
        return held

    def view(self, seat: int | None) -> JSON:
        return build_view(self, seat)

    @property
    def outcome(self) -> Outcome | None:
        if not self.done:
            return None
        n = self.seats
        order = ranking(n, self.out, self.cards_held)
        loser = order[-1]
        extra: dict[str, Any] = {}
        if len(self.out) >= n - 1:  # rule 5
            reason = "out"
        else:  # rule 6: most cards loses, ties → the later seat
            reason = "turn_limit"
            extra = {"cards": [self.cards_held(s) for s in range(n)]}
        return Outcome(
            winners=tuple(s for s in range(n) if s != loser),
            ranking=tuple((s,) for s in order),
            reason=reason,
            losers=(loser,),
            extra=extra,
        )

    def resample(self, seat: int | None, rng: random.Random) -> JomfruState:
        """Every face-down card that came from the deal is hidden from everybody (its
        owner too), so ``seat`` does not matter: those cards are pooled, sorted, shuffled
        by ``rng`` and dealt back keeping each pile's size.  Recycled piles were seen
        face up by all and stay as they are."""
        hidden_seats = [s for s in range(self.seats) if not self.recycled[s] and self.down[s]]
        pool = sorted(c for s in hidden_seats for c in self.down[s])
        rng.shuffle(pool)
        down = list(self.down)
        i = 0
        for s in hidden_seats:
            k = len(down[s])
            down[s] = tuple(pool[i:i + k])
            i += k
        new = self._next(self.turn, tuple(down), self.up, self.centre, self.turned,
                         self.out, self.turns, self.recycled)
        new.deal = fresh_deal(rng)  # the true deal number would rebuild the hidden piles
        return new
