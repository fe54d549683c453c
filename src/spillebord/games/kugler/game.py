"""The ``kugler`` game object: metadata, flags, the deal and the notation entry points.

The deal (rule book kugler, ruling 1): ``kugler_deck()`` (134 cards) shuffled by the
deal number's ``deal`` stream; the shuffled card i (i < 5·seats) goes to seat i mod seats
(one at a time round the table, seat 0 first); the rest is the draw pile, next card
first.  All marbles start in their start areas; seat 0 moves first.
"""

from __future__ import annotations

from spillebord.core.cards import kugler_deck
from spillebord.core.errors import IllegalActionError
from spillebord.core.protocol import (
    JSON,
    Chance,
    FlagSpec,
    Game,
    GameType,
    Information,
    State,
)
from spillebord.core.rng import shuffled
from spillebord.games.kugler.board import EMPTY, geometry
from spillebord.games.kugler.describe import describe
from spillebord.games.kugler.explain import explain
from spillebord.games.kugler.moves import Move
from spillebord.games.kugler.notation import format_position, parse_position
from spillebord.games.kugler.state import ROUND_LIMIT, KuglerState


class KuglerGame(Game):
    key = "kugler"
    name_da = "Kugler og Jokere"
    name_en = "Marbles and Jokers"
    blurb_da = ("Makkerspil for 4, 6 eller 8: spil et kort, flyt en kugle, og få holdets "
                "ti kugler hjem før de andre.")
    blurb_en = ("A partnership race for 4, 6 or 8: play a card, move a marble, and bring "
                "your team's ten marbles home first.")
    seat_counts = (4, 6, 8)
    default_seats = 4
    # The reasons its outcomes give (Outcome.reason); each has its own sentence in the
    # page catalogues, ``reason.kugler.<reason>`` (tests/test_outcome_reasons.py).
    outcome_reasons = ("won", "turn_limit")
    # Hands and the draw pile are hidden; the discards are reshuffled from the deal
    # number's streams; one action per turn, ROUND_LIMIT rounds at most.
    game_type = GameType(Information.IMPERFECT, Chance.SEEDED,
                         max_length=ROUND_LIMIT * max(seat_counts), hidden=("hands", "draw"))
    flag_specs = (
        FlagSpec("optional_home_entry", False,
                 "En kugle må køre forbi sit hjem og en omgang til",
                 "A marble may pass its home and go round again"),
        FlagSpec("strict_discard", False,
                 "Kassér kun, når intet kort på hånden kan bruges",
                 "Discard only when no card in the hand can be used"),
        FlagSpec("finished_helps_partner", True,
                 "Færdig spiller flytter makkerens kugler",
                 "A finished player moves the partner's marbles"),
    )

    def teams(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """Partners sit opposite (ruling 1)."""
        half = seats // 2
        return tuple((t, t + half) for t in range(half))

    def new(self, deal: int = 0, seats: int | None = None, **flags: bool) -> KuglerState:
        deal = self.check_deal(deal)
        n = self.check_seats(seats)
        checked = self.check_flags(flags)
        cards = shuffled(kugler_deck(), "kugler", n, deal)
        hands = tuple(tuple(sorted(cards[s : 5 * n : n])) for s in range(n))
        board = (EMPTY,) * geometry(n).size
        return KuglerState(self, n, deal, checked, board, hands, tuple(cards[5 * n :]), (),
                           0)

    def parse_action(self, state: State, text: str) -> Move:
        state = self.own(state, KuglerState)
        if state.to_move is None:
            raise IllegalActionError("the game is over", key="core.game_over")
        wanted = " ".join(text.split())
        move = state.lookup(wanted)
        if move is None:
            raise explain(state, wanted)
        return move

    def parse_position(self, text: str, **flags: bool) -> KuglerState:
        return parse_position(self, text, self.check_flags(flags))

    def format_position(self, state: State) -> str:
        return format_position(self.own(state, KuglerState))

    def describe(self, state: State, action: str, after: State | None = None) -> JSON | None:
        """Move facts for pages (games/kugler/describe.py)."""
        return describe(self.own(state, KuglerState), action)

    def click(self, state: State, target: str) -> list[Move]:
        """A click on a marble's place (``t12``, ``h0.2``, ``s0``) or a card (``5H``)
        offers the legal moves starting there or using that card."""
        moves = self.own(state, KuglerState).legal_actions()
        if len(target) == 2 and target[1] in "CDHSK" and target[0] in "A23456789TJQK":
            return [m for m in moves if m.card == target]
        return [m for m in moves if f" {target}-" in f" {m.text}"]


GAME = KuglerGame()
