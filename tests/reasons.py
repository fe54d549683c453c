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


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


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
