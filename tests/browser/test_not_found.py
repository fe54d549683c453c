"""Unknown addresses (Chromium): a browser asking for a page that does not exist gets an
HTML 404 page in the player's language with a way back — not the raw JSON
`{"detail":"Not Found"}` — while API paths keep their JSON; an unknown game page says
one clear thing and shows no empty toolbar."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "heading"), [("da", "Siden findes ikke"),
                                               ("en", "This page does not exist")])
def test_an_unknown_address_is_a_page_in_the_players_language(
        contexts: Any, server: str, lang: str, heading: str) -> None:
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.allowed.append("404 (Not Found)")
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    res = page.goto(server + "/no/such/page?x=1")
    assert res.status == 404
    assert res.headers["content-type"].startswith("text/html")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("h1").inner_text() == heading
    assert page.evaluate("document.documentElement.lang") == lang
    assert "detail" not in page.inner_text("body")
    home = page.locator("main a[href='/']")
    assert home.count() == 1 and home.is_visible()


def test_api_paths_keep_json(server: str) -> None:
    for path in ("/api/no-such-thing", "/api/matches/x/no-such"):
        req = urllib.request.Request(server + path, headers={"Accept": "text/html"})
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(req, timeout=10)
        assert caught.value.code == 404
        assert caught.value.headers["content-type"].startswith("application/json")
        assert "detail" in json.loads(caught.value.read())


@pytest.mark.parametrize(("lang", "text"), [("da", "Spillet findes ikke"),
                                            ("en", "This game does not exist")])
def test_an_unknown_game_page_says_one_thing(contexts: Any, server: str, lang: str,
                                             text: str) -> None:
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.allowed.append("404 (Not Found)")
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(server + "/play/no-such-game")
    page.wait_for_selector("body[data-ready='1']")
    said = [t.strip() for t in page.locator("main p:visible, main .message:visible, "
                                            "main h1:visible").all_inner_texts() if t.strip()]
    assert len(said) == 1 and said[0].startswith(text), said
    assert page.locator(".toolbar").is_hidden()
    assert page.locator("main a[href='/']").is_visible()
