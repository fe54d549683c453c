"""A game's manifest: the one declaration of what a game provides (docs/adding-a-game.md).

Every consumer reads it from the registry (``registry.manifest(key)``) instead of keeping
its own list of games: the server (which games players may open, which renderer a page
loads, the outcome reasons it documents), the bots and solver look-ups, the research
codecs, the analysis jobs, the reference client and browser tests (through
``/api/games``), the glossary test and the docs tables.  The conformance suite
(tests/conformance.py, ``check_manifest``) checks each promise, so a game whose
conformance run is green can be registered.

Targets are import paths, ``"package.module"`` or ``"package.module:ATTRIBUTE"``;
nothing here imports them (core imports no game).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEY = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Manifest:
    """What one game provides.

    - ``key``: lower-case ASCII, in URLs, records and message keys, never on a screen;
    - ``game``: ``"module:ATTRIBUTE"`` of the ``Game`` object;
    - ``reasons``: every ``Outcome.reason`` the game can end with; each has
      ``reason.<key>.<word>`` in both page catalogues (each game words its own);
    - ``ready``: offered to players (the start page and ``POST /api/matches``); an
      unready game is registered for the tools (CLI, conformance, research) only;
    - ``bots``: the module that registers the game's bots (None: only ``random``);
      ``levels``: that module declares levels 1–3;
    - ``solver``: the solver module (``solve``, ``hint``; solitaires also
      ``pick_winnable_deal``); ``solver_clock``: the module whose ``CLOCK`` its time limit
      reads (the analysis jobs switch it between CPU and wall time);
    - ``describe``: ``Game.describe`` gives move facts; ``click``: ``Game.click`` maps
      clicks to actions;
    - ``renderer``: the page module ``web/static/js/games/<renderer>.js`` (None: the
      generic view, which says that the game has no board of its own yet);
    - ``codec``: ``"module:ATTRIBUTE"`` of the research codec, called with the seat count
      for a table game and with nothing for a solitaire;
    - ``rules_page``: ``docs/rules/<key>.md`` exists and is built into
      ``web/static/rules/<key>.da.html`` and ``.en.html``;
    - ``refusals``: the game raises refusals with message keys of its own
      (``<key>.<what>``);
    - ``glossary``: the catalogue key prefix (``"gj"``) whose words docs/glossary.md names
      (None: no terms of its own).
    """

    key: str
    game: str
    reasons: tuple[str, ...]
    ready: bool = False
    bots: str | None = None
    levels: bool = False
    solver: str | None = None
    solver_clock: str | None = None
    describe: bool = False
    click: bool = False
    renderer: str | None = None
    codec: str | None = None
    rules_page: bool = False
    refusals: bool = False
    glossary: str | None = None

    def __post_init__(self) -> None:
        if not KEY.fullmatch(self.key):
            raise ValueError(f"a game key is lower-case ASCII: {self.key!r}")
        if ":" not in self.game:
            raise ValueError(f"{self.key}: game is 'module:ATTRIBUTE', not {self.game!r}")
        if not self.reasons or len(set(self.reasons)) != len(self.reasons):
            raise ValueError(f"{self.key}: name each outcome reason once")
        if self.levels and self.bots is None:
            raise ValueError(f"{self.key}: levels are declared by a bots module")
        if self.solver_clock is not None and self.solver is None:
            raise ValueError(f"{self.key}: a solver clock without a solver")

    def to_json(self) -> dict[str, object]:
        """What ``/api/games`` says of it (docs/protocol.md): the page's renderer and the
        outcome reasons."""
        return {"renderer": self.renderer, "reasons": list(self.reasons)}
