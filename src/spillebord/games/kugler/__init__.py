"""Kugler og Jokere (rule book key ``kugler``): the partnership marble race for 4, 6 or 8.

Modules: ``board`` (geometry), ``moves`` (legal moves), ``state`` (turns, cards, outcome),
``view`` (per-seat views), ``notation`` (position JSON), ``explain`` (reasons for refused
actions), ``game`` (the ``GAME`` object).  Rules page: docs/rules/kugler.md.
"""

from spillebord.games.kugler.game import GAME, KuglerGame
from spillebord.games.kugler.moves import Move
from spillebord.games.kugler.state import KuglerState

__all__ = ["GAME", "KuglerGame", "KuglerState", "Move"]
