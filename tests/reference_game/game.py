"""The Højt kort game object: names, seats, the declared game type, the deal and the
position notation (JSON, read with the core toolkit ``spillebord.core.positions``).

Position: ``{"seats": 3, "deal": 7, "reshuffles": 0, "leader": 0, "hands": {"0": ["9C",
…], …}, "draw": […], "table": […], "discard": […], "tricks": [0, 0, 0]}`` — ``draw`` next
card first; ``deal`` and ``reshuffles`` decide every later shuffle, so a parsed position
continues exactly like the original.
"""

from __future__ import annotations

import json

from tests.reference_game.state import DECK, HAND, TRICKS, HighCardState

from spillebord.core import positions
from spillebord.core.errors import NotationError
from spillebord.core.protocol import Chance, Game, GameType, Information, State
from spillebord.core.rng import shuffled

KEYS = ("seats", "deal", "reshuffles", "leader", "hands", "draw", "table", "discard",
        "tricks")


class HighCard(Game):
    key = "hojt_kort"
    name_da = "Højt kort"
    name_en = "High card"
    blurb_da = "Spil et kort ad gangen; det højeste tager stikket."
    blurb_en = "Play one card at a time; the highest takes the trick."
    seat_counts = (2, 3, 4)
    default_seats = 2
    state_class = HighCardState  # the tests' broken variants put a subclass here
    game_type = GameType(Information.IMPERFECT, Chance.SEEDED,
                         max_length=TRICKS * max(seat_counts), hidden=("hands", "draw"))

    def new(self, deal: int = 0, seats: int | None = None, **flags: bool) -> HighCardState:
        deal = self.check_deal(deal)
        n = self.check_seats(seats)
        self.check_flags(flags)
        cards = shuffled(DECK, self.key, n, deal)
        hands = tuple(tuple(sorted(cards[s * HAND:(s + 1) * HAND])) for s in range(n))
        return self.state_class(self, n, deal, hands, tuple(cards[n * HAND:]), (), (), 0,
                             (0,) * n, 0)

    def format_position(self, state: State) -> str:
        s = self.own(state, HighCardState)
        return json.dumps({
            "seats": s.seats, "deal": s.deal, "reshuffles": s.reshuffles,
            "leader": s.leader, "hands": {str(i): list(h) for i, h in enumerate(s.hands)},
            "draw": list(s.draw), "table": list(s.table), "discard": list(s.discard),
            "tricks": list(s.tricks),
        })

    def parse_position(self, text: str, **flags: bool) -> HighCardState:
        self.check_flags(flags)
        data = positions.load_object(text, self.key, KEYS, required=("seats", "hands"))
        n = positions.integer(data, "seats", None, 2, 4)
        hands = positions.seat_piles(data, "hands", n, DECK)
        draw = positions.cards(data.get("draw", []), "draw", DECK)
        table = positions.cards(data.get("table", []), "table", DECK)
        discard = positions.cards(data.get("discard", []), "discard", DECK)
        positions.check_deck([*((f"hand {i}", h) for i, h in enumerate(hands)),
                              ("draw", draw), ("table", table), ("discard", discard)], DECK)
        tricks_raw = data.get("tricks", [0] * n)
        if not isinstance(tricks_raw, list) or len(tricks_raw) != n:
            raise NotationError(f"'tricks' lists the tricks won by each of the {n} seats")
        tricks = tuple(positions.integer({"tricks": t}, "tricks", None, 0, TRICKS)
                       for t in tricks_raw)
        if sum(tricks) > TRICKS or len(table) >= n:
            raise NotationError("at most 8 tricks, and a trick on the table is unfinished")
        return self.state_class(self, n, positions.integer(data, "deal", 0, 0),
                             tuple(tuple(sorted(h)) for h in hands), draw, table, discard,
                             positions.integer(data, "leader", 0, 0, n - 1), tricks,
                             positions.integer(data, "reshuffles", 0, 0))


GAME = HighCard()
