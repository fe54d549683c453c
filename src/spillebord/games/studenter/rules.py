"""Studenterkabalen's card arithmetic: the base rank, the wrap, what fits where.

Rule-book rulings covered: 2 (foundations build up regardless of suit from the base rank
with the wrap K→A→2, complete at 13 cards, an empty foundation takes only the base rank),
4 and 5 (the row's end and the waste are built on down regardless of suit with the same
wrap).  Everything here is pure arithmetic on card codes, shared by the state, the click
helper and the solver.
"""

from __future__ import annotations

from collections.abc import Sequence

from spillebord.core.cards import RANKS

ROW_SIZE = 19
HELPERS = 6
FOUNDATIONS = 8
TOTAL_CARDS = 104
FULL_PILE = 13
PASSES = 3

HELPER_NAMES = tuple(f"h{i + 1}" for i in range(HELPERS))
FOUNDATION_NAMES = tuple(f"f{i + 1}" for i in range(FOUNDATIONS))


def rank_value(code: str) -> int:
    """1 (ace) … 13 (king)."""
    return RANKS.index(code[0]) + 1


def rank_text(rank: int) -> str:
    return RANKS[rank - 1]


def relative(code: str, base: int) -> int:
    """How far the card's rank is above the base rank, 0 … 12 (the wrap included):
    a foundation holding ``k`` cards takes exactly the cards with relative rank ``k``."""
    return (rank_value(code) - base) % 13


def foundation_takes(pile: Sequence[str], code: str, base: int) -> bool:
    """Rule 2: up regardless of suit from the base rank, closed at 13 cards."""
    return len(pile) < FULL_PILE and relative(code, base) == len(pile)


def goes_down_on(code: str, onto: str) -> bool:
    """Rules 4, 5 and 6: ``code`` is one rank lower than ``onto``, with the wrap
    (an ace on a two, a king on an ace)."""
    return (rank_value(onto) - rank_value(code)) % 13 == 1


def foundation_needs(base: int, count: int) -> int:
    """Rule 2: the rank a foundation holding ``count`` cards takes next (K → A wraps)."""
    return (base - 1 + count) % 13 + 1
