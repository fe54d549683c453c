"""The game manifests (``spillebord.core.manifest``): the registry holds one per game,
refuses a malformed one, offers players only the ready games; the docs tables that list
the games agree with the manifests; and no consumer keeps a list of the games by hand
(they read the manifests)."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.reference_game import GAME, MANIFEST, PLAYABLE

from spillebord import games
from spillebord.core.errors import NotationError
from spillebord.core.manifest import Manifest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "spillebord"
KEYS = games.keys()
# The consumers issue 30 found with lists of the games; each now reads the manifests.
CONSUMERS = [
    *sorted((SRC / "server").rglob("*.py")),
    SRC / "research" / "openspiel.py",
    *sorted((SRC / "analysis").glob("*.py")),
    *sorted((SRC / "cli").glob("*.py")),
    SRC / "bots" / "__init__.py",
    SRC / "solvers" / "__init__.py",
    ROOT / "tests" / "reference_client.py",
    ROOT / "tests" / "server" / "test_reference_client.py",
    ROOT / "tests" / "server" / "test_play.py",
    ROOT / "tests" / "browser" / "test_flows.py",
    ROOT / "tests" / "browser" / "test_access.py",
    ROOT / "tests" / "test_glossary.py",
    ROOT / "tests" / "test_catalogues.py",
    ROOT / "tests" / "core" / "test_bot_options.py",
]
PAGES = [SRC / "web" / "static" / "js" / name for name in ("play.js", "replay.js", "start.js")]


def literal_key_lists(path: Path) -> list[tuple[int, set[str]]]:
    """Every list, tuple, set or dict literal of the file that names two or more game
    keys as strings, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        else:
            continue
        named = {i.value for i in items if isinstance(i, ast.Constant) and i.value in KEYS}
        if len(named) >= 2:
            found.append((node.lineno, named))
    return found


def test_no_consumer_keeps_a_list_of_the_games() -> None:
    assert len(KEYS) >= 4
    hand_kept = [f"{p.relative_to(ROOT)}:{line} {sorted(named)}"
                 for p in CONSUMERS for line, named in literal_key_lists(p)]
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            named = set(re.findall(r"""["'`]([a-z_]+)["'`]""", line)) & set(KEYS)
            if len(named) >= 2:
                hand_kept.append(f"{page.relative_to(ROOT)}:{n} {sorted(named)}")
    assert hand_kept == []


def test_no_python_file_lists_every_game_by_hand() -> None:
    """Outside the manifests themselves (src/spillebord/games/__init__.py) and the games'
    own tests, no literal names three or more of the games."""
    skip = {SRC / "games" / "__init__.py"}
    files = [p for base in (SRC, ROOT / "tests", ROOT / "scripts") for p in base.rglob("*.py")
             if p not in skip and ROOT / "tests" / "games" not in p.parents]
    hand_kept = [f"{p.relative_to(ROOT)}:{line} {sorted(named)}"
                 for p in files for line, named in literal_key_lists(p) if len(named) >= 3]
    assert hand_kept == []


def test_the_grep_finds_a_hand_kept_list(tmp_path: Path) -> None:
    """The scan above is not blind: it finds the list issue 30 quoted."""
    sample = tmp_path / "sample.py"
    sample.write_text('REASONS = {"studenter": {"won"}, "kugler": {"won"}}\nX = ("posthus",)\n')
    assert literal_key_lists(sample) == [(1, {"studenter", "kugler"})]


def test_the_registry_holds_one_manifest_per_game() -> None:
    assert [m.key for m in games.manifests()] == KEYS
    for key in KEYS:
        assert games.manifest(key).key == key == games.load(key).key
    assert set(games.ready_keys()) <= set(KEYS)
    with pytest.raises(NotationError, match="unknown game 'chess'"):
        games.manifest("chess")


def test_registering_and_unregistering_a_game() -> None:
    assert not games.is_registered(MANIFEST.key)
    games.register(MANIFEST)
    try:
        assert games.keys()[-1] == MANIFEST.key and games.load(MANIFEST.key) is GAME
        assert MANIFEST.key not in games.ready_keys()
        games.register(PLAYABLE)  # a second registration replaces the first
        assert games.keys().count(MANIFEST.key) == 1 and MANIFEST.key in games.ready_keys()
    finally:
        games.unregister(MANIFEST.key)
    assert not games.is_registered(MANIFEST.key) and games.keys() == KEYS


def test_extra_games_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPILLEBORD_EXTRA_GAMES", " tests.reference_game:MANIFEST ")
    try:
        assert games.register_extra() == [MANIFEST.key]
        assert games.manifest(MANIFEST.key) is MANIFEST
    finally:
        games.unregister(MANIFEST.key)
    with pytest.raises(TypeError, match="not a game manifest"):
        games.register_extra("tests.reference_game:GAME")


SCRATCH = """
import dataclasses
from tests.reference_game import MANIFEST
from tests.reference_game.game import HighCard

class Scratch(HighCard):
    key = "scratch_kort"

GAME = Scratch()
SCRATCH = dataclasses.replace(MANIFEST, key="scratch_kort", game="scratch_game:GAME")
"""


def test_a_game_outside_the_repository_is_run_by_the_conformance_suite(
        tmp_path: Path) -> None:
    """docs/adding-a-game.md, section 8: a scratch package on ``PYTHONPATH``, named in
    ``SPILLEBORD_EXTRA_GAMES``, is registered and collected by the conformance suite (its
    games and its manifests) without editing a test."""
    (tmp_path / "scratch_game.py").write_text(SCRATCH, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(ROOT))),
           "SPILLEBORD_EXTRA_GAMES": "scratch_game:SCRATCH"}
    code = ("from tests import test_conformance as t; "
            "print(sorted(g.key for g in t.GAMES), sorted(p.id for p in t.MANIFESTS))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    game_keys, manifest_ids = run.stdout.strip().split("] [")
    assert "'scratch_kort'" in game_keys and "'scratch_kort'" in manifest_ids


@pytest.mark.parametrize(("changes", "message"), [
    ({"key": "Højt"}, "lower-case ASCII"),
    ({"game": "tests.reference_game"}, "module:ATTRIBUTE"),
    ({"reasons": ()}, "each outcome reason once"),
    ({"reasons": ("tie", "tie")}, "each outcome reason once"),
    ({"levels": True}, "levels are declared by a bots module"),
    ({"solver_clock": "x.y"}, "a solver clock without a solver"),
])
def test_a_malformed_manifest_is_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(MANIFEST, **changes)  # type: ignore[arg-type]


def seats_text(counts: tuple[int, ...]) -> str:
    if len(counts) > 2 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))


def test_the_readme_table_lists_the_ready_games() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([^|]+) \| `([a-z_]+)` \| ([^|]+) \|", text, re.M)
    assert [key for _, key, _ in rows] == games.ready_keys()
    for name, key, seats in rows:
        game = games.load(key)
        assert name.strip() == game.name_da, key
        assert seats.strip().startswith(seats_text(game.seat_counts)), (key, seats)


def test_the_architecture_names_the_registered_games() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    sentence = re.search(r"Registered in `spillebord/games/__init__.py`[^.]*\.", text)
    assert sentence is not None
    assert re.findall(r"`([a-z_]+)`", sentence.group(0)) == KEYS


def test_the_protocols_outcome_table_gives_each_games_reasons() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text[text.index("**Outcome.**"):]
    table = table[:table.index("\n\n", table.index("| game |"))]
    reasons: dict[str, set[str]] = {}
    for line in table.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) >= 2:
            said = set(re.findall(r"`([a-z_]+)` \(|`([a-z_]+)`,|`([a-z_]+)` \|",
                                  cells[1] + " |"))
            words = {w for group in said for w in group if w}
            for key in re.findall(r"`([a-z_]+)`", cells[0]):
                reasons[key] = words
    assert reasons == {k: set(games.manifest(k).reasons) for k in games.ready_keys()}


def test_a_manifest_says_what_the_api_shows() -> None:
    m = Manifest("x", "m:GAME", reasons=("won",), renderer="x")
    assert m.to_json() == {"renderer": "x", "reasons": ["won"]}


def test_the_guide_names_only_tests_and_files_that_exist() -> None:
    """docs/adding-a-game.md backs its statements with tests named in brackets: each
    named test or check is defined, each caught variant is a case of
    tests/test_conformance_catches.py, and each path it names exists."""
    guide = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    sources = "\n".join(p.read_text(encoding="utf-8") for base in (ROOT / "tests", SRC)
                         for p in base.rglob("*.py"))
    named = set(re.findall(r"`((?:test|check)_\w+)`", guide))
    assert len(named) >= 15
    assert sorted(n for n in named if f"def {n}(" not in sources) == []
    catches = (ROOT / "tests" / "test_conformance_catches.py").read_text(encoding="utf-8")
    caught = {c for group in re.findall(r"caught: ([^\]]+)\]", guide)
              for c in re.findall(r"`([a-z][a-z_-]*)`", group)}
    assert len(caught) >= 8
    assert sorted(c for c in caught if f'id="{c}"' not in catches
                  and f"def {c}(" not in sources) == []
    paths = set(re.findall(r"\b((?:tests|docs|src)/[\w/.-]+\.(?:py|md|js|json|ts))\b", guide))
    assert len(paths) >= 10
    assert sorted(p for p in paths if "<" not in p and not (ROOT / p).is_file()) == []


def test_every_catalogue_reason_is_some_games_reason() -> None:
    """The reverse of the manifest check: no ``reason.<game>.<word>`` in the catalogues
    that the game (or the reference game) cannot end with."""
    from tests.reasons import catalogue

    declared = {f"{m.key}.{r}" for m in (*games.manifests(), MANIFEST) for r in m.reasons}
    for lang in ("da", "en"):
        words = {k.removeprefix("reason.") for k in catalogue(lang) if k.startswith("reason.")}
        assert sorted(words - declared) == [], lang
