"""The difficulty picker in Chromium: on the start page a winnable Posthuskabalen deal
of a chosen difficulty (the select checks "winnable deals only" by itself), in Danish
at 1366×768 and in English on a 390×844 phone; the match's deal is one the shipped
table rates at that difficulty, and its first-position verdict (from the table, however
small the verdict budget) says winnable.  The daily page names no difficulty for a
sealed day (issue 28: a sealed deal is not drawn from the rated tables, whose few hundred
layouts anyone could recognise)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spillebord.solvers import tables

from .helpers import api, need_game, shot, wait_ready

pytestmark = pytest.mark.browser
CATALOGUES = Path(__file__).resolve().parents[2] / "src/spillebord/web/static/i18n"


def words(lang: str) -> dict[str, str]:
    out: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text())
    return out


@pytest.mark.parametrize(("lang", "level", "size"), [
    ("da", "hard", {"width": 1366, "height": 768}),
    ("en", "easy", {"width": 390, "height": 844}),
])
def test_pick_a_winnable_deal_by_difficulty(contexts: Any, server: str, lang: str, level: str,
                                           size: dict[str, int]) -> None:
    need_game("posthus")
    w = words(lang)
    page = contexts(viewport=size).new_page()
    page.goto(server + "/")
    page.evaluate("l => localStorage.setItem('spillebord.lang', l)", lang)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#game-posthus summary")
    form = page.locator("form[data-game='posthus']")
    select = form.locator("select[name='difficulty']")
    options = select.locator("option").all_inner_texts()
    assert options == [w["start.difficulty_any"], w["difficulty.easy"], w["difficulty.medium"],
                       w["difficulty.hard"]]
    assert select.get_attribute("aria-label") == w["start.difficulty"]
    select.select_option(level)
    assert form.locator("input[value='winnable']").is_checked()
    shot(page, f"difficulty-picker-{lang}-{size['width']}")
    # A variant the table is not rated for: a clear message, no match.
    form.locator("input[name='open_gaps']").check()
    form.locator("button[type='submit']").click()
    page.wait_for_selector("#messages:not([hidden])")
    assert w["start.difficulty_variant"] in page.inner_text("#messages")
    assert "/play/" not in page.url
    form.locator("input[name='open_gaps']").uncheck()
    form.locator("button[type='submit']").click()
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)
    match_id = page.url.rstrip("/").split("/")[-1]
    deal = api(server, f"/api/matches/{match_id}")["deal"]
    assert deal in tables.winnable_deals("posthus", level)
    page.wait_for_function("() => document.getElementById('verdict').textContent !== ''",
                           timeout=30000)
    assert page.inner_text("#verdict") == w["verdict.winnable"]
    shot(page, f"difficulty-deal-{lang}-{size['width']}")


@pytest.mark.parametrize(("lang", "size"), [("da", {"width": 1366, "height": 768}),
                                            ("en", {"width": 390, "height": 844})])
def test_daily_page_names_no_difficulty_for_a_sealed_day(contexts: Any, server: str,
                                                         lang: str,
                                                         size: dict[str, int]) -> None:
    need_game("posthus")
    w = words(lang)
    page = contexts(viewport=size).new_page()
    page.goto(server + "/daily")
    page.evaluate("l => localStorage.setItem('spillebord.lang', l)", lang)
    page.goto(server + "/daily")
    page.wait_for_selector("body[data-ready='1']", timeout=60000)
    for game in ("posthus", "studenter"):
        card = page.locator(f".daily-card[data-game='{game}']")
        assert card.locator(".daily-difficulty").count() == 0
        assert api(server, f"/api/daily/{game}")["difficulty"] is None
        assert w["daily.deal_line"] in card.inner_text()
    shot(page, f"daily-difficulty-{lang}-{size['width']}")
