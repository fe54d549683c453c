"""Accessibility measured with axe-core on every page — the start page, each game while
it is played, the invite page, a replay, the statistics page, the lobby and the rules
dialog — in
Danish and English: no serious or critical violation.  axe-core comes from the installed
`axe-playwright-python` package (its axe.min.js), injected from that file; never a CDN."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest

from spillebord import games

from .games import with_bots
from .helpers import api, need_game, state, version, wait_after, wait_my_turn, wait_ready
from .test_extras import DEAL, WIN, new_player

pytestmark = pytest.mark.browser
AXE = Path(axe_playwright_python.__file__).resolve().parent / "axe.min.js"
BOTS = {"bot": "random", "level": None}
TABLES: dict[str, list[Any]] = {k: with_bots(k, 3, BOTS) for k in games.ready_keys()}
# Deal 1 gives kugler's seat 0 a usable ace and king beside unusable 7S, 8S and TD: the
# greyed cards, a red one among them, are checked on every run (a random deal hid them).
DEALS = {"kugler": 1}


def serious(page: Any) -> list[str]:
    """The serious and critical axe-core violations of the page as it is now."""
    assert AXE.is_file(), f"{AXE} missing: pip install axe-playwright-python"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol: the pages' CSP (script-src 'self')
        # rightly refuses an inline <script>, and stays on for the check.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")
        assert page.evaluate("() => typeof window.axe === 'object'"), "axe-core did not load"
    result: dict[str, Any] = page.evaluate("""() => axe.run(document, {
        resultTypes: ['violations'],
        runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                                        'best-practice']}})""")
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(", ".join(n["target"]) for n in v["nodes"][:4])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.fixture
def browse(contexts: Any, server: str) -> Any:
    def make(lang: str, width: int = 1366, height: int = 768) -> tuple[Any, str]:
        player = new_player(server)
        ctx = contexts(viewport={"width": width, "height": height})
        ctx.context.add_init_script(
            f"localStorage.setItem('spillebord.player', '{player}');"
            f"localStorage.setItem('spillebord.lang', '{lang}');")
        return ctx, player
    return make


def check(page: Any, what: str, found: dict[str, list[str]]) -> None:
    problems = serious(page)
    if problems:
        found[what] = problems
        print(f"axe: {what}:", *problems, sep="\n  ")


@pytest.mark.parametrize("lang", ["da", "en"])
def test_game_pages(browse: Any, server: str, lang: str) -> None:
    ctx, player = browse(lang)
    found: dict[str, list[str]] = {}
    for game, seats in TABLES.items():
        need_game(game)
        body = {"game": game, "seats": seats, "player": player}
        if game in DEALS:
            body["deal"] = DEALS[game]
        res = api(server, "/api/matches", body)
        page = ctx.new_page()
        page.goto(server + res["play_url"])
        wait_ready(page)
        wait_my_turn(page)
        if game in DEALS:
            assert page.locator(".kg-hand .card.unusable.suit-D").count() == 1
        check(page, f"{game} playing", found)
        page.click("#rules")
        page.wait_for_selector(".rules-body p")
        check(page, f"{game} rules", found)
        page.keyboard.press("Escape")
        page.close()
    assert not found, found


@pytest.mark.parametrize("lang", ["da", "en"])
def test_other_pages(browse: Any, server: str, lang: str) -> None:
    need_game("posthus")
    ctx, player = browse(lang)
    found: dict[str, list[str]] = {}
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    for summary in page.locator("#games summary").all():
        summary.click()
    check(page, "start", found)
    # A finished posthus game (for the replay and the statistics).
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    page.goto(server + res["play_url"])
    wait_ready(page)
    for move in WIN:
        v = version(page)
        page.evaluate("t => window.__spillebord.session.act(t)", move)
        wait_after(page, v)
    assert state(page)["outcome"]
    page.wait_for_function("() => !document.querySelector('#best').hidden")
    check(page, "posthus won", found)
    page.goto(server + f"/replay/{res['match_id']}")
    page.wait_for_selector("body[data-ready='1']")
    check(page, "replay", found)
    page.goto(server + "/stats")
    page.wait_for_selector("body[data-ready='1']")
    check(page, "statistics", found)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    check(page, "start with statistics", found)
    page.goto(server + "/lobby")
    page.wait_for_selector("body[data-ready='1']")
    check(page, "lobby", found)
    ctx.allowed.append("404 (Not Found)")  # the unknown invite's answer
    page.goto(server + "/join/no-such-invite")
    page.wait_for_selector("#after:not([hidden])")
    check(page, "join (unknown invite)", found)
    assert not found, found
