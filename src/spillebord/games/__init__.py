"""The games layer: one package per game, registered here by key.

``games.load(key)`` gives the game object; ``games.keys()`` the registered keys in the
order of the rule book.
"""

from spillebord.core.protocol import Game
from spillebord.core.registry import keys, load, register

# One line per game package (each game's helper enables its own line when it lands).
register("studenter", "spillebord.games.studenter:GAME")
register("posthus", "spillebord.games.posthus:GAME")
register("gammel_jomfru", "spillebord.games.gammel_jomfru:GAME")
register("kugler", "spillebord.games.kugler:GAME")


def all_games() -> list[Game]:
    return [load(k) for k in keys()]


__all__ = ["Game", "all_games", "keys", "load", "register"]
