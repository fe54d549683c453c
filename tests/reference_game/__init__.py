"""Højt kort (High card): the minimal reference game of docs/adding-a-game.md.

It is not registered for players; the conformance suite runs it like a registered game,
so the guide stays true.  ``GAME`` is the game object, as in every game package.
"""

from tests.reference_game.game import GAME

__all__ = ["GAME"]
