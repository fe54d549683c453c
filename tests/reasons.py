"""Checks shared by the refusal-reason tests: an error's message key and params, and
that both page catalogues can say it (every placeholder filled, nothing left over)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "src" / "spillebord" / "web" / "static" / "i18n"
LANGS = ("da", "en")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _closing(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise AssertionError(f"unbalanced braces in {text!r}")


PLURAL = re.compile(r"^\s*(\w+)\s*,\s*plural\s*,(.*)$", re.S)


def parse_message(text: str) -> tuple[set[str], list[tuple[str, dict[str, str]]]]:
    """The placeholders of a catalogue string (as js/i18n.js reads it: ``{name}`` and
    ICU-style ``{name, plural, one {…} other {…}}``) and its plural blocks as (name,
    {selector: branch})."""
    names: set[str] = set()
    blocks: list[tuple[str, dict[str, str]]] = []
    i = 0
    while (start := text.find("{", i)) >= 0:
        end = _closing(text, start)
        body = text[start + 1 : end]
        m = PLURAL.match(body)
        if m:
            names.add(m.group(1))
            branches: dict[str, str] = {}
            rest = m.group(2)
            j = 0
            while (b := rest.find("{", j)) >= 0:
                e = _closing(rest, b)
                branches[rest[j:b].strip()] = rest[b + 1 : e]
                j = e + 1
            assert rest[j:].strip() == "", f"text after the last branch in {text!r}"
            blocks.append((m.group(1), branches))
            for branch in branches.values():
                inner, nested = parse_message(branch)
                names |= inner
                blocks += nested
        else:
            names.update(PLACEHOLDER.findall("{" + body + "}"))
        i = end + 1
    return names, blocks


def placeholders(text: str) -> set[str]:
    return parse_message(text)[0]


def check_reason(exc: Any, key: str, params: dict[str, str] | None = None,
                 cards: tuple[str, ...] | None = None) -> None:
    """``exc`` (an error or a Refusal) carries ``key`` (and exactly ``params`` and
    ``cards`` when given), and each catalogue's sentence uses exactly its params."""
    assert exc.key == key, (exc.key, str(exc))
    if params is not None:
        assert exc.params == params, exc.params
    if cards is not None:
        assert tuple(exc.cards) == cards, exc.cards
    assert set(exc.cards) <= set(exc.params)
    assert all(isinstance(v, str) for v in exc.params.values())
    for lang in LANGS:
        text = catalogue(lang).get(f"refused.{key}")
        assert text is not None, f"{lang}.json lacks refused.{key}"
        assert placeholders(text) == set(exc.params), (lang, key, text, exc.params)
