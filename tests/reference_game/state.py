"""The state of Højt kort (High card), the reference game of docs/adding-a-game.md.

Rules: 2–4 seats and the 20 cards 9, T, J, Q, K of the four suits.  Each seat holds 3
cards; the rest is the face-down draw pile.  In turn, each seat plays a card face up to
the trick, then draws the top card of the draw pile; an empty draw pile is first refilled
from the discards (the cards of finished tricks), sorted and shuffled by the deal
number's stream ``reshuffle/<k>``.  When every seat has played, the highest card wins
the trick (rank, then suit C < D < H < S), its cards go to the discards and the winner
leads the next trick.  After ``TRICKS`` tricks the seats rank by tricks won.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON, Outcome, State
from spillebord.core.rng import fresh_deal, shuffled

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

RANKS = "9TJQK"
DECK = tuple(r + s for s in "CDHS" for r in RANKS)
HAND = 3
TRICKS = 8
Pile = tuple[str, ...]


def strength(card: str) -> tuple[int, str]:
    return RANKS.index(card[0]), card[1]


class HighCardState(State):
    """Immutable: every field is a scalar or a tuple."""

    def __init__(self, game: Game, seats: int, deal: int, hands: tuple[Pile, ...],
                 draw: Pile, table: Pile, discard: Pile, leader: int,
                 tricks: tuple[int, ...], reshuffles: int) -> None:
        self.game = game
        self.seats = seats
        self.deal = deal
        self.flags: Mapping[str, bool] = {}
        self.hands = hands            # each sorted
        self.draw = draw              # next card first
        self.table = table            # this trick, in playing order from the leader
        self.discard = discard        # finished tricks, oldest first
        self.leader = leader
        self.tricks = tricks          # tricks won per seat
        self.reshuffles = reshuffles  # how far the reshuffle streams have run

    @property
    def to_move(self) -> int | None:
        if sum(self.tricks) >= TRICKS:
            return None
        return (self.leader + len(self.table)) % self.seats

    def legal_actions(self) -> list[str]:
        seat = self.to_move
        return [] if seat is None else sorted(self.hands[seat])

    def _apply(self, action: object) -> HighCardState:
        played = str(action)
        seat = (self.leader + len(self.table)) % self.seats
        hand = [c for c in self.hands[seat] if c != played]
        draw, discard, reshuffles = self.draw, self.discard, self.reshuffles
        if not draw and discard:  # refill from the discards, by the deal's next stream
            reshuffles += 1
            draw = tuple(shuffled(sorted(discard), "hojt_kort", self.seats, self.deal,
                                  f"reshuffle/{reshuffles}"))
            discard = ()
        if draw:
            hand.append(draw[0])
            draw = draw[1:]
        hands = (*self.hands[:seat], tuple(sorted(hand)), *self.hands[seat + 1:])
        table, leader, tricks = (*self.table, played), self.leader, self.tricks
        if len(table) == self.seats:  # the trick is complete
            best = max(range(self.seats), key=lambda i: strength(table[i]))
            leader = (self.leader + best) % self.seats
            tricks = (*tricks[:leader], tricks[leader] + 1, *tricks[leader + 1:])
            discard, table = (*discard, *table), ()
        return type(self)(self.game, self.seats, self.deal, hands, draw, table, discard,
                          leader, tricks, reshuffles)

    def view(self, seat: int | None) -> JSON:
        out: JSON = {
            "seats": self.seats,
            "to_move": self.to_move,
            "hand_sizes": [len(h) for h in self.hands],
            "draw_size": len(self.draw),
            "table": list(self.table),
            "leader": self.leader,
            "discard": list(self.discard),
            "tricks": list(self.tricks),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }
        if seat is not None:
            out["hand"] = list(self.hands[seat])
        return out

    @property
    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        counts = sorted(set(self.tricks), reverse=True)
        ranking = tuple(tuple(s for s in range(self.seats) if self.tricks[s] == c)
                        for c in counts)
        if len(ranking) == 1:  # everybody tied: nobody wins, nobody loses
            return Outcome((), ranking, "tie")
        return Outcome(ranking[0], ranking, "tricks", losers=ranking[-1])

    def resample(self, seat: int | None, rng: random.Random) -> HighCardState:
        """Every hand but ``seat``'s and the draw pile, redrawn from their pooled cards
        (sorted first, so the result depends only on what ``seat`` saw and ``rng``)."""
        others = [s for s in range(self.seats) if s != seat]
        pool = sorted([*self.draw, *(c for s in others for c in self.hands[s])])
        rng.shuffle(pool)
        hands = list(self.hands)
        for s in others:
            hands[s], pool = tuple(sorted(pool[:len(hands[s])])), pool[len(hands[s]):]
        return type(self)(self.game, self.seats, fresh_deal(rng), tuple(hands), tuple(pool),
                          self.table, self.discard, self.leader, self.tricks,
                          self.reshuffles)
