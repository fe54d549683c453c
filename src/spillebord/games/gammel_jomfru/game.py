"""The Gammel Jomfru game object: names, seats, the flag, dealing and notation.

Rule 1 (deal): ``one_deck()`` (C, D, H, S; A … K) is shuffled by the deal number with
``core.rng.shuffled(cards, "gammel_jomfru", seats, deal)`` and dealt one at a time,
starting with seat 0 (left of the dealer): shuffled card ``i`` goes to seat ``i mod
seats``.  The first card a seat receives lies at the bottom of its face-down pile, so a
seat's pile in turning order (first = next turned) is its cards in reverse order of
dealing.  Uneven piles are fine (52 is not a multiple of 3, 5, 6, 7 or 8): the first
``52 mod seats`` seats get one card more.  Seat 0 starts.
"""

from __future__ import annotations

from spillebord.core.errors import NotationError
from spillebord.core.protocol import JSON, Chance, FlagSpec, Game, GameType, Information, State
from spillebord.core.rng import shuffled
from spillebord.games.gammel_jomfru.actions import refusal
from spillebord.games.gammel_jomfru.describe import describe
from spillebord.games.gammel_jomfru.notation import format_position, parse_position
from spillebord.games.gammel_jomfru.rules import DECK, MAX_ACTIONS, default_turn_limit
from spillebord.games.gammel_jomfru.state import JomfruState


def deal_piles(seats: int, deal: int) -> tuple[tuple[str, ...], ...]:
    """Rule 1: each seat's face-down pile in turning order for a deal number."""
    cards = shuffled(list(DECK), "gammel_jomfru", seats, deal)
    return tuple(tuple(reversed(cards[s::seats])) for s in range(seats))


class GammelJomfru(Game):
    key = "gammel_jomfru"
    name_da = "Gammel Jomfru"
    name_en = "Old Maid (turn-up game)"
    blurb_da = ("Vend ét kort ad gangen og kom af med dem alle: på esbunkerne i midten "
                "eller én over/under de andres kort. Den sidste med kort er gammel jomfru.")
    blurb_en = ("Turn one card at a time and get rid of them all: onto the ace piles in "
                "the centre or one above/below the others' cards. The last holding cards "
                "is the old maid.")
    seat_counts = (2, 3, 4, 5, 6, 7, 8)
    default_seats = 4
    # The reasons its outcomes give (Outcome.reason); each has its own sentence in the
    # page catalogues, ``reason.gammel_jomfru.<reason>`` (tests/test_outcome_reasons.py).
    outcome_reasons = ("out", "turn_limit")
    # Face-down piles are hidden from everybody; face-up piles are turned over
    # unshuffled (rule 4); the turn limit bounds a game (rules.MAX_ACTIONS).
    game_type = GameType(Information.IMPERFECT, Chance.DETERMINISTIC,
                         max_length=MAX_ACTIONS, hidden=("down",))
    flag_specs = (
        FlagSpec(
            "nearest_first", False,
            "Kortet skal lægges på en midterbunke, ellers hos den nærmeste spiller til venstre",
            "The card must go to a centre pile, else to the nearest player to the left",
        ),
    )

    def new(self, deal: int = 0, seats: int | None = None, **flags: bool) -> JomfruState:
        deal = self.check_deal(deal)
        n = self.check_seats(seats)
        checked = self.check_flags(flags)
        empty: tuple[tuple[str, ...], ...] = tuple(() for _ in range(n))
        return JomfruState(self, n, deal, checked, 0, deal_piles(n, deal), empty, (), None,
                           (), 0, default_turn_limit(n), (False,) * n)

    def describe(self, state: State, action: str, after: State | None = None) -> JSON | None:
        """Move facts for pages (games/gammel_jomfru/describe.py)."""
        return describe(self.own(state, JomfruState), action,
                        None if after is None else self.own(after, JomfruState))

    def parse_action(self, state: State, text: str) -> str:
        state = self.own(state, JomfruState)
        if not isinstance(text, str):
            raise NotationError(f"an action is text, not {type(text).__name__}")
        legal = state.cached_legal()
        if text in legal:
            return text
        wanted = text.strip()
        if wanted in legal:
            return wanted
        raise refusal(state, wanted)

    def click(self, state: State, target: str) -> list[str]:
        """Click-to-move: ``down`` (the mover's face-down pile) turns a card; the turned
        card (``turned`` or its code) offers every place it fits; ``centre`` the centre
        places; ``c2``, ``p1``, ``keep`` (or ``up``, the mover's own face-up pile) that
        place when legal."""
        state = self.own(state, JomfruState)
        if state.done:
            return []
        legal = state.cached_legal()
        if target in ("down", "turn"):
            return [a for a in legal if a == "turn"]
        if state.turned is not None and target in ("turned", state.turned):
            return [a for a in legal if a != "turn"]
        if target == "centre":
            return [a for a in legal if a == "centre" or a[0] == "c"]
        if target == "up":
            target = "keep"
        return [target] if target in legal else []

    def parse_position(self, text: str, **flags: bool) -> JomfruState:
        if not isinstance(text, str):
            raise NotationError("a position is text")
        return parse_position(self, text, self.check_flags(flags))

    def format_position(self, state: State) -> str:
        return format_position(self.own(state, JomfruState))


GAME = GammelJomfru()
