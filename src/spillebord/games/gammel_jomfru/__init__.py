"""Gammel Jomfru (003): the Danish turn-up game for 2–8 players.

``GAME`` is the registered game object; see ``game.py`` (deal, rule 1), ``rules.py``
(card arithmetic, rules 1, 2, 6), ``actions.py`` (legal actions, rules 2, 3),
``state.py`` (transitions, rules 3–6), ``view.py`` (what a seat sees) and
``notation.py`` (the position JSON).  Rules page: docs/rules/gammel_jomfru.md.
"""

from spillebord.games.gammel_jomfru.game import GAME, GammelJomfru, deal_piles
from spillebord.games.gammel_jomfru.state import JomfruState

__all__ = ["GAME", "GammelJomfru", "JomfruState", "deal_piles"]
