"""Studenterkabalen (``studenter``): the two-deck building solitaire of rule-book section
studenter — a row of 19 "students", 8 foundations up regardless of suit from a base rank
with the wrap, 6 helper piles, three passes through the stock.

Modules: ``rules`` (card arithmetic), ``state`` (actions, outcome, resample), ``view``,
``notation`` (position JSON, action texts, reasons), ``click_to_move`` (ruling 10, auto-move),
``game`` (the deal and the ``GAME`` object).
"""

from spillebord.games.studenter.click_to_move import auto_move, auto_moves, click
from spillebord.games.studenter.game import GAME, StudenterGame
from spillebord.games.studenter.state import StudenterState

__all__ = ["GAME", "StudenterGame", "StudenterState", "auto_move", "auto_moves", "click"]
