"""Access and language: every game fits a 360 px phone with 44 px touch targets, Danish
screen-reader names on the cards, keyboard focus moves with the arrow keys, reduced
motion is respected, and the two catalogues hold the same keys — every key the pages use.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from spillebord import games

from .games import with_bots
from .helpers import ROOT, api, need_game, shot, wait_ready

pytestmark = pytest.mark.browser
STATIC = ROOT / "src" / "spillebord" / "web" / "static"
SEATS = {k: with_bots(k, 3, {"bot": "random", "level": None}) for k in games.ready_keys()}


@pytest.mark.parametrize("game", list(SEATS))
def test_phone_layout(contexts: Any, server: str, game: str) -> None:
    need_game(game)
    res = api(server, "/api/matches", {"game": game, "seats": SEATS[game], "deal": 3})
    ctx = contexts(viewport={"width": 360, "height": 740}, has_touch=True,
                   reduced_motion="reduce")
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"{game}: the page is {width} px wide on a 360 px phone"
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main button:not([hidden]), main a.button, main select')]
        .filter(e => e.offsetParent !== null && !e.closest('.st-row'))
        .map(e => e.getBoundingClientRect())
        .filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0, f"{game}: {small} touch targets under 44 px"
    anim = page.evaluate(
        "() => getComputedStyle(document.documentElement).getPropertyValue('--anim').trim()")
    assert anim in ("0ms", "0s"), anim
    shot(page, f"{game}-phone")


def test_start_page_on_a_phone(contexts: Any, server: str) -> None:
    page = contexts(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    for summary in page.locator("#games summary").all():
        summary.click()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the start page is {width} px wide on a 360 px phone"
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main button, main select, main summary, main input[type=number]')]
        .filter(e => e.offsetParent !== null)
        .map(e => e.getBoundingClientRect()).filter(r => r.height < 44).length""")
    assert small == 0, f"{small} touch targets under 44 px high"
    shot(page, "start-phone")


def test_danish_card_names_and_keyboard(contexts: Any, server: str) -> None:
    need_game("posthus")
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": 5})
    page = contexts(viewport={"width": 1100, "height": 800}).new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    label = page.locator(".ph-grid [data-place='a1']").get_attribute("aria-label") or ""
    suits = "klør|ruder|hjerter|spar"
    ranks = "syv|otte|ni|ti|knægt|dame|konge"
    where = "række 1, plads 1"  # a place in words, never the notation's a1
    assert re.fullmatch(rf"(({suits}) ({ranks}), {where}|hul, {where})", label), label
    page.focus(".ph-grid [data-place='a1']")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.place") == "b1"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.place") == "b2"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


def test_catalogues_complete() -> None:
    da = json.loads((STATIC / "i18n" / "da.json").read_text(encoding="utf-8"))
    en = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert set(da) == set(en)
    used: set[str] = set()
    for path in STATIC.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(["']([a-z_]+\.[a-z_.0-9]+)["']""", text))
    for path in STATIC.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'data-i18n(?:-aria|-title|-placeholder)?="([^"]+)"', text))
    missing = sorted(k for k in used if k not in da)
    assert not missing, f"keys used but not in the catalogues: {missing}"
    assert da["card.name"].format(suit="hjerter", rank="otte") == "hjerter otte"
