"""The posthus game object: names, the ``open_gaps`` flag, the first deal, notation and
click-to-move.

First deal (rule 1): a 32-item list — the 28 codes of ``stripped_deck()`` (suits C D H
S, ranks 7–K) followed by 4 gaps — is shuffled by the deal number's stream ``deal`` and
laid out row by row, top to bottom, left to right.

Click-to-move: a card code gives the moves of that card (one gap: the page moves it; two
or more: the page asks which); a gap place such as ``c2`` gives the moves filling it.
"""

from __future__ import annotations

from spillebord.core.protocol import Chance, FlagSpec, Game, GameType, Information, State
from spillebord.core.rng import shuffled
from spillebord.games.posthus import grid as g
from spillebord.games.posthus import notation
from spillebord.games.posthus.state import PosthusState


class PosthusGame(Game):
    key = "posthus"
    name_da = "Posthuskabalen"
    name_en = "Post Office"
    blurb_da = (
        "Læg kortene 7–K i ubrudt række på hver af de fire rækker ved at flytte dem ind "
        "på de tomme pladser. To nye oplæg undervejs."
    )
    blurb_en = (
        "Order the cards 7–K in an unbroken run on each of the four rows by moving them "
        "into the gaps. Two redeals along the way."
    )
    seat_counts = (1,)
    default_seats = 1
    # The reasons its outcomes give (Outcome.reason); each has its own sentence in the
    # page catalogues, ``reason.posthus.<reason>`` (tests/test_outcome_reasons.py).
    outcome_reasons = ("won", "resigned", "stuck")
    # Every card lies face up; the redeals shuffle from the deal number's streams; cards
    # can be moved back and forth between gaps forever: no bound.
    game_type = GameType(Information.PERFECT, Chance.SEEDED, max_length=None)
    flag_specs = (
        FlagSpec(
            "open_gaps",
            False,
            "Åbne huller: en tom plads ved siden af en anden tom plads tager ethvert kort",
            "Open gaps: a gap next to another gap accepts any card",
        ),
    )

    def new(self, deal: int = 0, seats: int | None = None, **flags: bool) -> PosthusState:
        deal = self.check_deal(deal)
        self.check_seats(seats)
        checked = self.check_flags(flags)
        places: list[str | None] = [*g.DECK, *([None] * g.GAPS)]
        grid = tuple(shuffled(places, "posthus", 1, deal, "deal"))
        return PosthusState(self, grid, 1, deal, checked)

    def parse_action(self, state: State, text: str) -> str:
        return notation.parse_action(self.own(state, PosthusState), text)

    def parse_position(self, text: str, **flags: bool) -> PosthusState:
        return notation.parse_position(self, text, self.check_flags(flags))

    def format_position(self, state: State) -> str:
        return notation.format_position(self.own(state, PosthusState))

    def click(self, state: State, target: str) -> list[str]:
        state = self.own(state, PosthusState)
        if state.outcome is not None:
            return []
        target = target.strip()
        place = g.parse_place(target)
        if place is not None:
            if state.grid[place] is not None:
                target = state.grid[place] or ""
            else:
                suffix = " " + target
                return [a for a in state.card_moves if a.endswith(suffix)]
        prefix = target + " "
        return [a for a in state.card_moves if a.startswith(prefix)]


GAME = PosthusGame()
