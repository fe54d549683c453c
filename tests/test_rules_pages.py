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
