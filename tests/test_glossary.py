"""The pages' words (docs/glossary.md): both catalogues use the glossary's term wherever
the glossary says so, no catalogue string uses an avoided word, every count is said
through a plural whose forms are complete for the language, and the plural strings are
well formed (the same parser as js/i18n.js reads them: tests/reasons.py)."""

from __future__ import annotations

import re

import pytest
from tests.reasons import LANGS, ROOT, catalogue, parse_message

from spillebord import games

GLOSSARY = ROOT / "docs" / "glossary.md"
# Plural categories of each language (CLDR, as Intl.PluralRules gives them).
CATEGORIES = {"da": {"one", "other"}, "en": {"one", "other"}}
# Placeholder names that carry a count (docs/glossary.md, "Counts and plurals").
COUNTS = {"count", "cards", "games", "finished", "wins", "points", "draw", "home",
          "down", "up", "seats", "moves", "fields", "played", "others"}


def table_rows(heading: str) -> list[list[str]]:
    """The body rows of every table under the ``## heading`` section (to the next ##)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    rows = []
    for line in text[start: end if end > 0 else None].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and not set(line) <= set("|- ") and cells[0] not in (
                "Dansk", "avoid"):
            rows.append(cells)
    return rows


def terms() -> list[tuple[str, str, list[str]]]:
    return [(da, en, re.findall(r"`([^`]+)`", keys)) for da, en, keys in table_rows("Terms")]


def test_the_glossary_has_terms_for_every_game() -> None:
    found = terms()
    assert len(found) >= 50
    keys = {k for _, _, ks in found for k in ks}
    prefixes = [f"{m.glossary}." for m in games.manifests() if m.glossary is not None]
    assert prefixes
    for prefix in (*prefixes, "suit.", "rank."):
        assert any(k.startswith(prefix) for k in keys), prefix


@pytest.mark.parametrize(("da_term", "en_term", "keys"), terms(),
                         ids=[f"{d}/{e}" for d, e, _ in terms()])
def test_both_catalogues_use_the_glossary_term(da_term: str, en_term: str,
                                               keys: list[str]) -> None:
    assert keys, f"{da_term}: no catalogue key named"
    for lang, term in (("da", da_term), ("en", en_term)):
        cat = catalogue(lang)
        for key in keys:
            assert key in cat, f"{lang}.json has no {key}"
            assert term.lower() in cat[key].lower(), f"{lang} {key}: {cat[key]!r} lacks {term!r}"


def test_no_catalogue_string_uses_an_avoided_word() -> None:
    rows = table_rows("Avoided words")
    assert len(rows) >= 5
    for word, langs, _use in rows:
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.I)
        for lang in (x.strip() for x in langs.split(",")):
            bad = {k: v for k, v in catalogue(lang).items() if pattern.search(v)}
            assert not bad, f"{lang}: {word!r} in {bad}"


def test_kasser_is_capitalised_only_at_the_start() -> None:
    for key, text in catalogue("da").items():
        assert "Kassér" not in text[1:], (key, text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_is_complete_for_the_language(lang: str) -> None:
    plurals = 0
    for key, text in catalogue(lang).items():
        _names, blocks = parse_message(text)
        for name, branches in blocks:
            plurals += 1
            chosen = {s for s in branches if not s.startswith("=")}
            assert chosen == CATEGORIES[lang], (key, name, sorted(branches))
            assert all(re.fullmatch(r"=\d+", s) for s in set(branches) - chosen), key
            assert name in COUNTS, f"{key}: the count {name!r} is not a count's name"
    assert plurals >= 20


@pytest.mark.parametrize("lang", LANGS)
def test_every_count_is_said_through_a_plural(lang: str) -> None:
    for key, text in catalogue(lang).items():
        bare = set(re.findall(r"\{(\w+)\}", text))  # {name} outside a plural's selector
        assert not bare & COUNTS, f"{lang} {key}: a count without a plural: {text!r}"


def test_the_plural_variables_match_in_both_languages() -> None:
    da, en = catalogue("da"), catalogue("en")
    for key in da:
        da_counts = {n for n, _ in parse_message(da[key])[1]}
        en_counts = {n for n, _ in parse_message(en[key])[1]}
        assert da_counts == en_counts, key
