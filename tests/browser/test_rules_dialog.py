"""The rules dialog of every game in Danish and English (Chromium): the player's rules
with the picture of the layout loaded, no code, no variant keys, no notation."""

from __future__ import annotations

import re
from typing import Any

import pytest

from spillebord import games

from .helpers import api, need_game, shot, wait_ready
from .test_axe import TABLES
from .test_extras import new_player

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "size"), [("da", (1366, 768)), ("en", (390, 844))])
def test_every_rules_dialog(contexts: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    player = new_player(server)
    ctx = contexts(viewport={"width": size[0], "height": size[1]})
    ctx.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    for game, seats in TABLES.items():
        need_game(game)
        res = api(server, "/api/matches", {"game": game, "seats": seats, "player": player})
        page.goto(server + res["play_url"])
        wait_ready(page)
        page.click("#rules")
        body = page.locator(".rules-body")
        page.wait_for_selector(".rules-body img")
        page.wait_for_function("() => document.querySelector('.rules-body img').complete")
        assert body.locator("img").evaluate("i => i.naturalWidth") > 0, "the picture loads"
        assert body.locator("code, pre, script").count() == 0
        text = body.inner_text()
        for flag in games.load(game).flag_specs:
            assert flag.name not in text
        assert not re.search(r"\b[2-9TJQKA][CDHS]\b|\bt\d+\b|_", text), text[:300]
        name = f"rules-{game}-{lang}-{size[0]}"
        shot(page, name, publish=name in ("rules-kugler-da-1366", "rules-studenter-en-390"))
        page.keyboard.press("Escape")
