"""The page catalogues: Danish and English hold the same keys with the same
placeholders, and every message key a game or the server can raise is in both."""

from __future__ import annotations

import re

from tests.reasons import LANGS, ROOT, catalogue, placeholders

from spillebord import games

SRC = ROOT / "src" / "spillebord"
# Message keys are literal strings "<area>.<what>" in the source (spillebord.core.errors);
# the areas are the shared ones and every registered game's key; the games whose
# manifest says they raise refusals of their own must have raise sites.
AREAS = ("core", "server", *games.keys())
RAISING = ("core", "server", *(m.key for m in games.manifests() if m.refusals))
KEY = re.compile(r"""["']((?:""" + "|".join(map(re.escape, AREAS)) +
                 r""")(?:\.[a-z0-9_]+)+)["']""")


def raised_keys() -> set[str]:
    keys: set[str] = set()
    for path in SRC.rglob("*.py"):
        keys.update(KEY.findall(path.read_text(encoding="utf-8")))
    return keys


def test_da_and_en_have_the_same_keys() -> None:
    da, en = catalogue("da"), catalogue("en")
    assert sorted(set(da) - set(en)) == [] and sorted(set(en) - set(da)) == []


def test_da_and_en_use_the_same_placeholders() -> None:
    da, en = catalogue("da"), catalogue("en")
    differ = [k for k in da if placeholders(da[k]) != placeholders(en[k])]
    assert differ == []


def test_every_raised_key_is_in_both_catalogues() -> None:
    keys = raised_keys()
    # Every game and the server raise keys, so the scan found the raise sites.
    assert {k.split(".")[0] for k in keys} >= set(RAISING)
    assert len(keys) > 80
    for lang in LANGS:
        missing = sorted(k for k in keys if f"refused.{k}" not in catalogue(lang))
        assert missing == [], f"{lang}.json lacks {missing}"


def test_no_catalogue_reason_without_a_raise_site() -> None:
    keys = raised_keys()
    stale = sorted(k for k in catalogue("da") if k.startswith("refused.")
                   and k.removeprefix("refused.") not in keys)
    assert stale == []


def test_catalogue_reasons_are_non_empty_sentences() -> None:
    for lang in LANGS:
        for k, text in catalogue(lang).items():
            if k.startswith("refused."):
                assert text.strip() and text.rstrip().endswith((".", ")")), (lang, k)


def test_every_bot_and_level_has_a_name_in_both_catalogues() -> None:
    """The page names bots and levels from the catalogues (panel.js botName), never by
    their keys."""
    from spillebord import bots, games

    for lang in LANGS:
        cat = catalogue(lang)
        for key in list(games.keys()):
            for name in bots.names(key):
                assert cat.get(f"bot.{name}", "").strip(), (lang, key, name)
                assert name not in cat[f"bot.{name}"].lower(), (lang, name)
            for level in bots.levels(key):
                assert cat.get(f"level.{level}", "").strip(), (lang, key, level)
