"""Højt kort (High card): the minimal reference game of docs/adding-a-game.md.

``GAME`` is the game object, as in every game package; ``MANIFEST`` its declaration.
It is not registered for players (``ready`` is false): the conformance suite runs it like
a registered game, and tests/test_reference_game.py registers it, ready, to play it in
the server, the API, the CLI, the reference client and the browser, so the guide stays
true.
"""

import dataclasses

from tests.reference_game.game import GAME

from spillebord.core.manifest import Manifest

MANIFEST = Manifest("hojt_kort", "tests.reference_game:GAME", reasons=("tricks", "tie"))
# The same game offered to players: no renderer of its own (the page's generic view),
# no bots of its own (``random``), no solver, no rules page.
PLAYABLE = dataclasses.replace(MANIFEST, ready=True)

__all__ = ["GAME", "MANIFEST", "PLAYABLE"]
