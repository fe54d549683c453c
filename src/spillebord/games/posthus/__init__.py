"""Posthuskabalen (Post Office): the Montana-family solitaire of rule-book section
posthus.  ``GAME`` is the game object; see grid.py (gap rules, runs), state.py (moves,
redeals, outcome), notation.py (position and action text), view.py, game.py."""

from spillebord.games.posthus.game import GAME, PosthusGame
from spillebord.games.posthus.state import PosthusState

__all__ = ["GAME", "PosthusGame", "PosthusState"]
