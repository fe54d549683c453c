"""The rules shown in the game: the committed HTML fragments in web/static/rules are the
current render of docs/rules (both languages), and the render escapes raw HTML."""

from __future__ import annotations

from spillebord import games
from spillebord.web import rules


def test_rules_pages_are_current() -> None:
    expected = rules.pages()
    keys = [m.key for m in games.manifests() if m.rules_page]  # as the manifests declare
    assert set(expected) == {f"{k}.{lang}.html" for k in keys for lang in ("da", "en")}
    for name, html in expected.items():
        path = rules.OUT / name
        assert path.is_file(), f"{name} missing: run python -m spillebord.web.rules"
        assert path.read_text(encoding="utf-8") == html, (
            f"{name} is stale: run python -m spillebord.web.rules")


def test_rules_render_safely() -> None:
    md = ("## Dansk\n\nEt <script>alert(1)</script> [link](javascript:alert(1))\n\n"
          "### Notation\n\nt54\n")
    html = rules.render(rules.section(md, "Dansk"))
    assert "<script" not in html and "&lt;script&gt;" in html
    assert "href" not in html
    assert "t54" not in html  # the developers' notation is left out


# What a player's rules page never holds: code, a variant's key, the notation of cards,
# places and actions, or developers' English words inside the Danish text.
NOTATION = [
    r"\b[2-9TJQKA][CDHS]\b", r"\bJK\b", r"\bt\d+\b", r"\bt\(", r"\bh\d\.\d",
    r"h&lt;p", r"s&lt;p", r"\b[sh]\d\b", r"\b[fh][1-8]\b", r"\b[a-h][1-4]\b", r"\w&gt;\w",
    r"\bplads 0\b", r"\bseat 0\b", r"\(stuck\)", r"\(resign\)", r"_",
]
DANISH_NEVER = [r"\bdeal\b", r"\bredeal\b", r"\bresign\b", r"\bstuck\b", r"\brow\b",
                r"\bwaste\b", r"\bstock\b", r"\bkeep\b", r"\bcentre\b", r"\bturn\b"]


def test_player_rules_hold_no_code_flag_keys_or_notation() -> None:
    import re

    for name, html in rules.pages().items():
        game, lang = name.split(".")[:2]
        assert "<code" not in html and "<pre" not in html, (name, "code")
        text = re.sub(r"<[^>]+>", " ", html)
        for flag in games.load(game).flag_specs:
            assert flag.name not in html, (name, flag.name)
        for pattern in NOTATION + (DANISH_NEVER if lang == "da" else []):
            found = re.search(pattern, text)
            assert found is None, (name, pattern, text[max(0, found.start() - 60):found.end() + 60])
        assert f'<img src="/static/rules/{game}.svg"' in html, (name, "a picture of the layout")
        assert (rules.OUT / f"{game}.svg").is_file()
