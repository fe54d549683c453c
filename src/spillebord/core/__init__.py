"""The core layer: cards, deal numbers, the game protocol, errors and the registry.

Nothing here does I/O or touches global random state.
"""

from spillebord.core.cards import (
    JOKER,
    RANKS,
    SUITS,
    Card,
    kugler_deck,
    one_deck,
    parse_card,
    piquet_deck,
    stripped_deck,
    two_decks,
)
from spillebord.core.errors import IllegalActionError, NotationError, SpillebordError
from spillebord.core.protocol import FlagSpec, Game, Outcome, State
from spillebord.core.record import GameRecord
from spillebord.core.rng import DEAL_ALGORITHM_VERSION, DealRng, deal_rng

__all__ = [
    "DEAL_ALGORITHM_VERSION",
    "JOKER",
    "RANKS",
    "SUITS",
    "Card",
    "DealRng",
    "FlagSpec",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "NotationError",
    "Outcome",
    "SpillebordError",
    "State",
    "deal_rng",
    "kugler_deck",
    "one_deck",
    "parse_card",
    "piquet_deck",
    "stripped_deck",
    "two_decks",
]
