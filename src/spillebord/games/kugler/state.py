"""The state of a game of Kugler og Jokere: board, hands, draw pile, discards, turn.

Rulings covered (rule book kugler): 1 (five cards a hand, play one and draw one; an
empty draw pile is refilled from the discards except the last played card, shuffled by
the deal number's stream ``reshuffle/<k>`` over the discards in sorted order; seat 0
begins, play goes clockwise), 8 (a finished player moves the partner's marbles when
``finished_helps_partner`` is on, else may only discard; whose marbles a card moves is
fixed at the start of the turn) and 9 (a team wins when both partners have all five
marbles home).  Game-length limit (the rule book is silent): after ``ROUND_LIMIT``
rounds (``ROUND_LIMIT × seats`` turns) the game stops and the team with the most marbles
home wins; equal most marbles: no winner.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from spillebord.core.cards import kugler_deck
from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import shuffled
from spillebord.games.kugler.board import HOME_SIZE, Geometry, geometry
from spillebord.games.kugler.moves import (
    Board,
    Move,
    apply_steps,
    fields_of,
    is_finished,
    legal_moves,
)

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

ROUND_LIMIT = 300
LAST_MOVES = 8
DECK = tuple(sorted(kugler_deck()))


class KuglerState(State):
    """Immutable.  ``board`` is the occupancy tuple of board.py; ``hands`` sorted card
    codes per seat; ``draw`` in drawing order (first = next drawn); ``discard`` bottom
    to top; ``turn`` the seat whose turn it is; ``turns`` turns played so far;
    ``reshuffles`` how many times the discards were reshuffled; ``last`` the latest
    (seat, action text) pairs, oldest first."""

    def __init__(self, game: Game, seats: int, deal: int, flags: Mapping[str, bool],
                 board: Board, hands: tuple[tuple[str, ...], ...], draw: tuple[str, ...],
                 discard: tuple[str, ...], turn: int, turns: int = 0, reshuffles: int = 0,
                 last: tuple[tuple[int, str], ...] = ()) -> None:
        self.game = game
        self.seats = seats
        self.deal = deal
        self.flags = flags
        self.geo: Geometry = geometry(seats)
        self.board = board
        self.hands = hands
        self.draw = draw
        self.discard = discard
        self.turn = turn
        self.turns = turns
        self.reshuffles = reshuffles
        self.last = last
        self._legal: list[Move] | None = None
        self._aliases: dict[str, str] = {}
        self._outcome = self._judge()

    # -- rules -----------------------------------------------------------------------

    @property
    def turn_limit(self) -> int:
        return ROUND_LIMIT * self.seats

    def home_count(self, seat: int) -> int:
        hb = self.geo.home_base[seat]
        return HOME_SIZE - self.board[hb : hb + HOME_SIZE].count(-1)

    def colour(self, seat: int) -> int | None:
        """Whose marbles ``seat`` moves this turn (ruling 8): its own, the partner's
        once finished (flag ``finished_helps_partner``), or None (discard only)."""
        if not is_finished(self.board, self.geo, seat):
            return seat
        return self.geo.partner[seat] if self.flags["finished_helps_partner"] else None

    def _judge(self) -> Outcome | None:
        geo, n = self.geo, self.seats
        half = n // 2
        teams = [(t, t + half) for t in range(half)]
        done = [t for t in teams if all(is_finished(self.board, geo, s) for s in t)]
        if not done and self.turns < self.turn_limit:
            return None
        home = {t: self.home_count(t[0]) + self.home_count(t[1]) for t in teams}
        rest = [t for t in teams if t not in done]
        groups: list[tuple[int, ...]] = [] if not done else [done[0]]
        for count in sorted({home[t] for t in rest}, reverse=True):
            groups.append(tuple(sorted(s for t in rest if home[t] == count for s in t)))
        if done:
            winners: tuple[int, ...] = done[0]
            reason = "won"
        else:
            top = [t for t in teams if home[t] == max(home.values())]
            winners = top[0] if len(top) == 1 else ()
            reason = "turn_limit"
        losers = tuple(s for s in range(n) if s not in winners) if winners else ()
        extra = {"marbles_home": {str(t[0]) + "+" + str(t[1]): home[t] for t in teams}}
        return Outcome(winners=tuple(sorted(winners)), ranking=tuple(groups), reason=reason,
                       losers=losers, extra=extra)

    # -- protocol --------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self._outcome is not None else self.turn

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> list[Move]:
        return list(self._moves())

    def _moves(self) -> list[Move]:
        if self._legal is None:
            if self._outcome is not None:
                self._legal = []
            else:
                self._legal, self._aliases = legal_moves(
                    self.board, self.geo, self.colour(self.turn), self.hands[self.turn],
                    self.flags["optional_home_entry"], self.flags["strict_discard"],
                )
        return self._legal

    def lookup(self, text: str) -> Move | None:
        """The legal move written ``text`` (a split 7 in either order), or None."""
        moves = self._moves()
        text = self._aliases.get(text, text)
        lo, hi = 0, len(moves)
        while lo < hi:
            mid = (lo + hi) // 2
            if moves[mid].text < text:
                lo = mid + 1
            else:
                hi = mid
        return moves[lo] if lo < len(moves) and moves[lo].text == text else None

    def _apply(self, action: Any) -> KuglerState:
        move = self.lookup(str(action))
        assert move is not None
        seat = self.turn
        board = self.board
        if move.steps:
            colour = self.colour(seat)
            assert colour is not None
            board = apply_steps(board, self.geo, colour, move.steps)
        hand = list(self.hands[seat])
        hand.remove(move.card)
        discard = (*self.discard, move.card)
        draw = self.draw
        reshuffles = self.reshuffles
        if not draw:  # ruling 1: the card just played stays, the rest is reshuffled
            reshuffles += 1
            draw = tuple(shuffled(sorted(discard[:-1]), "kugler", self.seats, self.deal,
                                  f"reshuffle/{reshuffles}"))
            discard = discard[-1:]
        hand.append(draw[0])
        hand.sort()
        hands = (*self.hands[:seat], tuple(hand), *self.hands[seat + 1 :])
        last = (*self.last, (seat, move.text))[-LAST_MOVES:]
        return KuglerState(self.game, self.seats, self.deal, self.flags, board, hands,
                           draw[1:], discard, (seat + 1) % self.seats, self.turns + 1,
                           reshuffles, last)

    def view(self, seat: int | None) -> JSON:
        from spillebord.games.kugler.view import view

        return view(self, seat)

    def resample(self, seat: int | None, rng: random.Random) -> KuglerState:
        """Redraw every hand but ``seat``'s and the draw pile from the cards ``seat`` has
        not seen (deck − own hand − discards), keeping every size."""
        unseen = Counter(DECK)
        unseen.subtract(self.discard)
        if seat is not None:
            unseen.subtract(self.hands[seat])
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        hands: list[tuple[str, ...]] = []
        at = 0
        for s in range(self.seats):
            if s == seat:
                hands.append(self.hands[s])
                continue
            size = len(self.hands[s])
            hands.append(tuple(sorted(pool[at : at + size])))
            at += size
        return KuglerState(self.game, self.seats, self.deal, self.flags, self.board,
                           tuple(hands), tuple(pool[at:]), self.discard, self.turn,
                           self.turns, self.reshuffles, self.last)

    def marbles(self, seat: int) -> list[str]:
        """Seat's five marble locations as text: start areas first, then fields."""
        on = fields_of(self.board, seat)
        names = self.geo.names
        return [f"s{seat}"] * (5 - len(on)) + [names[f] for f in on]
