"""The Studenterkabalen game object: names, the deal (ruling 1), notation and clicks.

Deal (ruling 1): the 104 cards of ``two_decks()`` shuffled by deal-number stream ``deal``
(docs/notation.md); the first 19 form the row left to right, the 20th is the base card on
foundation 1, the next 6 go to h1 … h6, and the last 78 are the stock in drawing order.
No later shuffle exists: turn-overs keep the order (ruling 8).
"""

from __future__ import annotations

from spillebord.core.cards import two_decks
from spillebord.core.protocol import JSON, Chance, Game, GameType, Information, State
from spillebord.core.rng import shuffled
from spillebord.games.studenter import click_to_move, notation
from spillebord.games.studenter.describe import describe
from spillebord.games.studenter.rules import FOUNDATIONS, ROW_SIZE, rank_value
from spillebord.games.studenter.state import StudenterState

DECK = tuple(two_decks())  # the cards in their fixed order before the shuffle


class StudenterGame(Game):
    key = "studenter"
    name_da = "Studenterkabalen"
    name_en = "The Students"
    blurb_da = ("To spil kort, 19 studenter på række og otte grundbunker, der bygges op "
                "uanset farve fra grundkortet. Tre gange gennem håndbunken.")
    blurb_en = ("Two decks, a row of 19 students and eight foundations built up regardless "
                "of suit from the base card. Three passes through the stock.")
    seat_counts = (1,)
    default_seats = 1
    flag_specs = ()
    # The stock's order is hidden in pass 1; turn-overs keep the order (nothing is
    # shuffled after the deal); a card can go row > waste > row forever: no bound.
    game_type = GameType(Information.IMPERFECT, Chance.DETERMINISTIC, max_length=None,
                         hidden=("stock",))

    def new(self, deal: int = 0, seats: int | None = None, **flags: bool) -> StudenterState:
        deal = self.check_deal(deal)
        self.check_seats(seats)
        checked = self.check_flags(flags)
        cards = shuffled(DECK, self.key, 1, deal)
        base_card = cards[ROW_SIZE]
        foundations: tuple[tuple[str, ...], ...] = ((base_card,),) + ((),) * (FOUNDATIONS - 1)
        return StudenterState(
            base=rank_value(base_card),
            row=tuple(cards[:ROW_SIZE]),
            foundations=foundations,
            helpers=tuple(cards[ROW_SIZE + 1 : ROW_SIZE + 7]),
            stock=tuple(cards[ROW_SIZE + 7 :]),
            waste=(),
            deal=deal,
            flags=checked,
        )

    def read_action(self, state: State, wanted: str) -> str:
        return notation.parse_action(self.own(state, StudenterState), wanted)

    def parse_position(self, text: str, **flags: bool) -> StudenterState:
        return notation.parse_position(text, **flags)

    def format_position(self, state: State) -> str:
        return notation.format_position(self.own(state, StudenterState))

    def click(self, state: State, target: str) -> list[str]:
        return list(click_to_move.click(self.own(state, StudenterState), target))

    def describe(self, state: State, action: str, after: State | None = None) -> JSON | None:
        """Move facts for pages: the card that moves (games/studenter/describe.py)."""
        return describe(self.own(state, StudenterState), action,
                        None if after is None else self.own(after, StudenterState))

    def auto_move(self, state: State) -> str | None:
        """The player setting "move cards up automatically": the next such move."""
        return click_to_move.auto_move(self.own(state, StudenterState))


GAME = StudenterGame()
StudenterState.game = GAME
