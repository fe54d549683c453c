"""Each game's outcome reasons are its own: every reason a game's outcomes give (declared
in its manifest's ``reasons`` and found in its source) has a sentence
``reason.<game>.<reason>`` in both page catalogues, and no catalogue reason belongs to no
game (the reference game's included)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.reasons import LANGS, catalogue
from tests.reference_game import MANIFEST

from spillebord import games

WORD = re.compile(r'"(\w+)"')


def _reasons_in_source(key: str) -> set[str]:
    folder = Path(games.load(key).__class__.__module__.replace(".", "/")).parent
    src = Path(__file__).resolve().parents[1] / "src" / folder
    found: set[str] = set()
    for path in src.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            # reason="x", reason = "x" if … else "y", Outcome(winners, ranking, "x", …)
            if "reason" in line or "Outcome(" in line:
                found.update(WORD.findall(line.split("#")[0]))
    return found


def test_every_game_declares_the_reasons_its_source_gives() -> None:
    for key in games.keys():  # noqa: SIM118 (a list)
        declared = set(games.manifest(key).reasons)
        assert declared, key
        assert _reasons_in_source(key) == declared, key


def test_every_reason_has_its_own_sentence_in_both_languages() -> None:
    wanted = {f"reason.{m.key}.{r}" for m in (*games.manifests(), MANIFEST) for r in m.reasons}
    for lang in LANGS:
        cat = catalogue(lang)
        have = {k for k in cat if k.startswith("reason.")}
        assert have == wanted, (lang, sorted(have ^ wanted))
        for k in wanted:
            assert cat[k].strip().endswith("."), (lang, k)
    assert "Alle kort" not in catalogue("da")["reason.kugler.won"]
