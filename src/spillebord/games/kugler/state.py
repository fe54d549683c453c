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

import numpy as np

from spillebord.core.cards import kugler_deck
from spillebord.core.errors import IllegalActionError
from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import fresh_deal, shuffled
from spillebord.games.kugler import kernel
from spillebord.games.kugler.board import HOME_SIZE, Geometry, geometry
from spillebord.games.kugler.moves import Board, Move, aliases, fields_of, legal_moves

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
                 board: Board | np.ndarray, hands: tuple[tuple[str, ...], ...],
                 draw: tuple[str, ...], discard: tuple[str, ...], turn: int,
                 turns: int = 0, reshuffles: int = 0,
                 last: tuple[tuple[int, str], ...] = (), finished: int = -1) -> None:
        self.game = game
        self.seats = seats
        self.deal = deal
        self.flags = flags
        self.geo: Geometry = geometry(seats)
        if isinstance(board, np.ndarray):
            self._arr = board
            self._board: Board | None = None
        else:
            self._arr = np.array(board, dtype=np.int8)
            self._board = tuple(board)
        self.hands = hands
        self.draw = draw
        self.discard = discard
        self.turn = turn
        self.turns = turns
        self.reshuffles = reshuffles
        self.last = last
        self._legal: list[Move] | None = None
        self._alias_pairs: list[int] = []
        self._aliases: dict[str, str] | None = None
        self._finished = kernel.finished_mask(self._arr, seats) if finished < 0 else finished
        fin = self._finished
        half = seats // 2
        team_done = fin & fin >> half & ((1 << half) - 1)  # team t: seats t and t + half
        self._outcome = self._judge() if team_done or turns >= ROUND_LIMIT * seats \
            else None

    @property
    def board(self) -> Board:
        """The occupancy tuple of board.py: one entry per field, the seat or EMPTY."""
        b = self._board
        if b is None:
            b = self._board = tuple(self._arr.tolist())
        return b

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
        if not self._finished >> seat & 1:
            return seat
        return self.geo.partner[seat] if self.flags["finished_helps_partner"] else None

    def _judge(self) -> Outcome | None:
        n = self.seats
        half = n // 2
        teams = [(t, t + half) for t in range(half)]
        fin = self._finished
        done = [t for t in teams if all(fin >> s & 1 for s in t)]
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
        moves = self._legal
        if moves is None:
            if self._outcome is not None:
                moves = self._legal = []
            else:
                moves, self._alias_pairs = legal_moves(
                    self._arr, self.geo, self.colour(self.turn), self.hands[self.turn],
                    self.flags["optional_home_entry"], self.flags["strict_discard"],
                )
                self._legal = moves
        return moves

    def lookup(self, text: str) -> Move | None:
        """The legal move written ``text`` (a split 7 in either order), or None."""
        moves = self._moves()
        lo, hi = 0, len(moves)
        while lo < hi:
            mid = (lo + hi) // 2
            if moves[mid].text < text:
                lo = mid + 1
            else:
                hi = mid
        if lo < len(moves) and moves[lo].text == text:
            return moves[lo]
        if self._aliases is None:
            self._aliases = aliases(self.geo, self.colour(self.turn), self.hands[self.turn],
                                    self._alias_pairs)
        listed = self._aliases.get(text)
        return None if listed is None else self.lookup(listed)

    def apply(self, action: Any) -> State:
        """As State.apply; a listed ``Move`` object is found by identity."""
        if self._outcome is None and action.__class__ is Move:
            for m in self._moves():
                if m is action:
                    return self._apply(action)
            listed = self.lookup(action.text)
            if listed is None or listed.text != action.text:
                raise IllegalActionError(f"{action} is not a legal action here",
                                         key="core.not_legal", params={"action": action})
            return self._apply(listed)
        return super().apply(action)

    def _apply(self, action: Any) -> KuglerState:
        move = action if action.__class__ is Move and action.key >= 0 else \
            self.lookup(str(action))
        assert move is not None
        seat = self.turn
        n = self.seats
        board = self._arr
        finished = self._finished
        if move.steps:
            colour = seat if not finished >> seat & 1 else self.colour(seat)
            assert colour is not None
            board = board.copy()
            finished = kernel.apply_into(board, n, colour, move.key)
        card = move.card
        hand = list(self.hands[seat])
        hand.remove(card)
        discard = (*self.discard, card)
        draw = self.draw
        reshuffles = self.reshuffles
        if not draw:  # ruling 1: the card just played stays, the rest is reshuffled
            reshuffles += 1
            draw = tuple(shuffled(sorted(discard[:-1]), "kugler", n, self.deal,
                                  f"reshuffle/{reshuffles}"))
            discard = discard[-1:]
        hand.append(draw[0])
        hand.sort()
        hands = self.hands
        turns = self.turns + 1
        # the next state, built without __init__'s checks (all values are known good)
        nxt = KuglerState.__new__(KuglerState)
        nxt.game = self.game
        nxt.seats = n
        nxt.deal = self.deal
        nxt.flags = self.flags
        nxt.geo = self.geo
        nxt._arr = board
        nxt._board = None if board is not self._arr else self._board
        nxt.hands = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
        nxt.draw = draw[1:]
        nxt.discard = discard
        nxt.turn = (seat + 1) % n
        nxt.turns = turns
        nxt.reshuffles = reshuffles
        nxt.last = (*self.last, (seat, move.text))[-LAST_MOVES:]
        nxt._legal = None
        nxt._alias_pairs = []
        nxt._aliases = None
        nxt._finished = finished
        half = n // 2
        nxt._outcome = nxt._judge() if finished & finished >> half & ((1 << half) - 1) \
            or turns >= ROUND_LIMIT * n else None
        return nxt

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
        # a fresh deal number: the reshuffles to come are drawn afresh, as at the table
        return KuglerState(self.game, self.seats, fresh_deal(rng), self.flags, self._arr,
                           tuple(hands), tuple(pool[at:]), self.discard, self.turn,
                           self.turns, self.reshuffles, self.last, self._finished)

    def marbles(self, seat: int) -> list[str]:
        """Seat's five marble locations as text: start areas first, then fields."""
        on = fields_of(self.board, seat)
        names = self.geo.names
        return [f"s{seat}"] * (5 - len(on)) + [names[f] for f in on]
