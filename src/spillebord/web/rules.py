"""The rules shown inside the game (the "Regler" button): the Danish and English sections
of the player pages docs/rules/players/<game>.md — plain words and a small picture of the
layout (``static/rules/<game>.svg``), written for players, separate from the developers'
rule reference with its notation (docs/rules/<game>.md) — rendered once to safe HTML
fragments in ``web/static/rules/<game>.<lang>.html``: markdown-it with raw HTML turned
off (any ``<`` in the text is escaped), tables on, no links followed.  Run ``python -m
spillebord.web.rules`` after editing them; tests/test_rules_pages.py fails while the two
differ, and checks that a player page holds no code, flag key or notation.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "rules" / "players"
OUT = Path(__file__).resolve().parent / "static" / "rules"
SECTIONS = {"da": "Dansk", "en": "English"}
# Subsections for developers, not for players.
SKIP = {"notation", "view", "solver", "visning"}


def section(markdown: str, title: str) -> str:
    """The body of the ``## title`` section, without the skipped ``###`` subsections."""
    match = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", markdown, re.M | re.S)
    if match is None:
        raise ValueError(f"no '## {title}' section")
    parts = re.split(r"(?=^### )", match.group(1), flags=re.M)
    kept = [p for p in parts
            if not (p.startswith("### ") and p[4:].split("\n", 1)[0].strip().lower() in SKIP)]
    return "".join(kept).strip() + "\n"


def render(markdown: str) -> str:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    html: str = md.render(markdown)
    return html


def pages(docs: Path = DOCS) -> dict[str, str]:
    """File name → HTML fragment, for every game page and language."""
    out: dict[str, str] = {}
    for path in sorted(docs.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for lang, title in SECTIONS.items():
            out[f"{path.stem}.{lang}.html"] = render(section(text, title))
    return out


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, html in pages().items():
        (OUT / name).write_text(html, encoding="utf-8")
        print(OUT / name, file=sys.stderr)


if __name__ == "__main__":
    main()
