"""The conformance checks of a game's manifest (``spillebord.core.manifest``): each
promise the manifest makes is kept, so a game whose conformance run is green can be
registered and every consumer that reads the manifest finds what it was promised.
tests/test_conformance.py runs ``check_manifest`` on every registered game and on the
reference game; tests/test_conformance_catches.py shows that it fails for manifests that
promise too much or too little.  A failed check raises AssertionError naming the promise.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
from pathlib import Path

from tests.reasons import LANGS, ROOT, catalogue

from spillebord import bots, games, solvers
from spillebord.core.manifest import Manifest
from spillebord.core.protocol import Game, State
from spillebord.core.registry import target

STATIC = ROOT / "src" / "spillebord" / "web" / "static"
GLOSSARY = ROOT / "docs" / "glossary.md"
DEALS = (1, 2, 3)
# The codecs live in spillebord.research, which needs the research extra.
RESEARCH_EXTRA = ("numpy", "gymnasium", "pettingzoo")
STATES = 40  # states of a playout whose first actions ``describe`` is asked about


def game_of(manifest: Manifest) -> Game:
    game = target(manifest.game)
    assert isinstance(game, Game), f"{manifest.game} is not a Game object"
    assert game.key == manifest.key, f"the game's key {game.key!r} is not {manifest.key!r}"
    return game


def lines(game: Game) -> list[list[State]]:
    """The states of random playouts to the end (a few deals, fewest and most seats)."""
    out = []
    for seats in sorted({min(game.seat_counts), max(game.seat_counts)}):
        for deal in DEALS:
            rng = random.Random(deal * 31 + seats)
            state, line = game.new(deal=deal, seats=seats), []
            while True:
                line.append(state)
                legal = state.legal_actions()
                if not legal:
                    break
                calm = [a for a in legal if str(a) != "resign"]
                state = state.apply_legal(rng.choice(calm or legal))
            out.append(line)
    return out


def check_reasons(manifest: Manifest, game: Game) -> None:
    """Every outcome's reason is declared, and each declared reason is worded in both
    catalogues, in the game's own words (``reason.<game>.<word>``)."""
    for line in lines(game):
        outcome = line[-1].outcome
        assert outcome is not None
        assert outcome.reason in manifest.reasons, (
            f"outcome reason {outcome.reason!r} is not declared in the manifest")
    for lang in LANGS:
        missing = [r for r in manifest.reasons
                   if not catalogue(lang).get(f"reason.{manifest.key}.{r}")]
        assert not missing, f"{lang}.json lacks reason.{manifest.key}.{missing[0]}"


def overrides(game: Game, name: str) -> bool:
    return getattr(type(game), name) is not getattr(Game, name)


def check_describe_and_click(manifest: Manifest, game: Game) -> None:
    """``describe`` gives move facts exactly when promised; ``click`` is implemented
    exactly when promised."""
    line = lines(game)[0][:STATES]
    given = any(game.describe(s, str(a)) is not None
                for s in line for a in s.legal_actions()[:3])
    assert given == manifest.describe, (
        "describe gives move facts, undeclared" if given else
        "the manifest promises describe, but it gives no move facts")
    assert overrides(game, "click") == manifest.click, (
        "click-to-move " + ("is promised but not implemented" if manifest.click
                            else "is implemented but not declared"))


def check_bots(manifest: Manifest) -> None:
    """The bots module registers bots of its own (named in both catalogues); levels 1–3
    exactly when declared, each played by a registered bot other than ``random``."""
    names = bots.names(manifest.key)
    if manifest.bots is None:
        assert names == ["random"], f"bots without a bots module: {names}"
    else:
        importlib.import_module(manifest.bots)
        assert len(names) > 1, f"{manifest.bots} registers no bot for {manifest.key}"
    for name in names:
        assert isinstance(bots.load(manifest.key, name), bots.Bot)
        for lang in LANGS:
            label = catalogue(lang).get(f"bot.{name}", "")
            assert label.strip(), f"{lang}.json lacks bot.{name}"
            assert name not in label.lower(), f"bot.{name} shows the bot's key"
    table = bots.levels(manifest.key)
    if not manifest.levels:
        assert table == {}, "levels are declared by the bots but not in the manifest"
        return
    assert sorted(table) == [1, 2, 3], "the manifest promises levels 1-3"
    assert bots.default_level(manifest.key) in table
    for n, level in table.items():
        assert level.bot in names and level.bot != "random", f"level {n}: {level.bot}"
        assert isinstance(bots.load(manifest.key, level.bot, level=n), bots.Bot)


def check_solver(manifest: Manifest, game: Game) -> None:
    """The solver module offers ``solve`` and ``hint`` (a solitaire's also
    ``pick_winnable_deal``), and its clock module holds ``CLOCK``."""
    if games.is_registered(manifest.key):  # the registry's look-up follows the manifest
        assert solvers.has_solver(manifest.key) == (manifest.solver is not None)
    if manifest.solver is None:
        return
    module = importlib.import_module(manifest.solver)
    wanted = ("solve", "hint", *(("pick_winnable_deal",) if game.is_solitaire else ()))
    for name in wanted:
        assert callable(getattr(module, name, None)), f"the solver has no {name}"
    if manifest.solver_clock is not None:
        holder = importlib.import_module(manifest.solver_clock)
        assert callable(getattr(holder, "CLOCK", None)), \
            f"{manifest.solver_clock} holds no CLOCK"


def check_page(manifest: Manifest) -> None:
    """The renderer module exists and exports ``createRenderer`` (else the generic view
    does); the rules page exists in both languages exactly when declared."""
    name = manifest.renderer or "generic"
    path = STATIC / "js" / "games" / f"{name}.js"
    assert path.is_file(), f"the renderer {path.name} does not exist"
    assert "export function createRenderer" in path.read_text(encoding="utf-8"), \
        f"{path.name} exports no createRenderer"
    pages = [ROOT / "docs" / "rules" / f"{manifest.key}.md",
             *(STATIC / "rules" / f"{manifest.key}.{lang}.html" for lang in LANGS)]
    for page in pages:
        assert page.is_file() == manifest.rules_page, (
            f"{page.relative_to(ROOT)} " + ("is missing" if manifest.rules_page
                                            else "exists, undeclared"))


def check_refusals(manifest: Manifest) -> None:
    """The game's package raises refusals with keys of its own exactly when declared."""
    module = importlib.import_module(manifest.game.partition(":")[0])
    package = Path(str(module.__file__)).parent
    own = re.compile(r"""key=["']""" + re.escape(manifest.key) + r"""\.[a-z0-9_.]+["']""")
    raises = any(own.search(p.read_text(encoding="utf-8")) for p in package.rglob("*.py"))
    assert raises == manifest.refusals, (
        "no refusal of the game's own key is raised" if manifest.refusals else
        "the game raises refusals of its own key, undeclared")


def check_glossary(manifest: Manifest) -> None:
    """docs/glossary.md names a term for a catalogue key with the declared prefix."""
    if manifest.glossary is None:
        return
    keys = re.findall(r"`([a-z_]+\.[a-z0-9_.]+)`", GLOSSARY.read_text(encoding="utf-8"))
    assert any(k.startswith(f"{manifest.glossary}.") for k in keys), \
        f"docs/glossary.md has no term for {manifest.glossary}.*"


def check_codec(manifest: Manifest, game: Game) -> None:
    """The research codec is built for every seat count (only where the research extra
    is installed: without it the codec cannot be imported)."""
    if manifest.codec is None:
        return
    if any(importlib.util.find_spec(name) is None for name in RESEARCH_EXTRA):
        return
    factory = target(manifest.codec)
    assert callable(factory), f"{manifest.codec} is not callable"
    for seats in game.seat_counts:
        codec = factory() if game.is_solitaire else factory(seats)
        assert codec.n_actions > 0 and codec.size > 0


def check_manifest(manifest: Manifest, game: Game | None = None) -> None:
    """Every promise of ``manifest`` (for ``game``, default: the manifest's own)."""
    game = game or game_of(manifest)
    check_reasons(manifest, game)
    check_describe_and_click(manifest, game)
    check_bots(manifest)
    check_solver(manifest, game)
    check_page(manifest)
    check_refusals(manifest)
    check_glossary(manifest)
    check_codec(manifest, game)
