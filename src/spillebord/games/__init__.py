"""The games layer: one package per game, each declared here by its manifest
(``spillebord.core.manifest``: what the game provides, and whether it is ready for
players) in the order the start page lists them.

``games.load(key)`` gives the game object; ``games.keys()`` every registered key;
``games.ready_keys()`` the games offered to players; ``games.manifest(key)`` the
declaration every consumer reads.  ``SPILLEBORD_EXTRA_GAMES`` (comma-separated
``module:ATTRIBUTE`` of manifests) registers more games in every process that imports
this package, worker processes included (the tests register the reference game so).
"""

import os

from spillebord.core.manifest import Manifest
from spillebord.core.protocol import Game
from spillebord.core.registry import (
    is_registered,
    keys,
    load,
    manifest,
    manifests,
    ready_keys,
    register,
    target,
    unregister,
)

register(Manifest(
    "studenter", "spillebord.games.studenter:GAME", reasons=("won", "stuck", "resigned"),
    ready=True, solver="spillebord.solvers.studenter",
    solver_clock="spillebord.solvers.studenter.search", click=True, renderer="studenter",
    describe=True,
    codec="spillebord.research.solitaire:StudenterCodec", rules_page=True, refusals=True,
    glossary="studenter"))
register(Manifest(
    "posthus", "spillebord.games.posthus:GAME", reasons=("won", "stuck", "resigned"),
    ready=True, solver="spillebord.solvers.posthus",
    solver_clock="spillebord.solvers.posthus.engine", click=True, renderer="posthus",
    codec="spillebord.research.solitaire:PosthusCodec", rules_page=True, refusals=True,
    glossary="posthus"))
register(Manifest(
    "gammel_jomfru", "spillebord.games.gammel_jomfru:GAME", reasons=("out", "turn_limit"),
    ready=True, bots="spillebord.bots.gammel_jomfru", levels=True, describe=True,
    click=True, renderer="gammel_jomfru", codec="spillebord.research.jomfru:JomfruCodec",
    rules_page=True, refusals=True, glossary="gj"))
register(Manifest(
    "kugler", "spillebord.games.kugler:GAME", reasons=("won", "turn_limit"),
    ready=True, bots="spillebord.bots.kugler", levels=True, describe=True, click=True,
    renderer="kugler", codec="spillebord.research.kugler:KuglerCodec", rules_page=True,
    refusals=True, glossary="kugler"))


def register_extra(spec: str | None = None) -> list[str]:
    """Register the manifests named in ``spec`` (default: ``SPILLEBORD_EXTRA_GAMES``);
    returns their keys."""
    added = []
    for path in (spec if spec is not None else os.environ.get("SPILLEBORD_EXTRA_GAMES", "")
                 ).split(","):
        if path.strip():
            found = target(path.strip())
            if not isinstance(found, Manifest):
                raise TypeError(f"{path} is not a game manifest")
            register(found)
            added.append(found.key)
    return added


register_extra()


def all_games() -> list[Game]:
    return [load(k) for k in keys()]


__all__ = ["Game", "Manifest", "all_games", "is_registered", "keys", "load", "manifest",
           "manifests", "ready_keys", "register", "register_extra", "unregister"]
