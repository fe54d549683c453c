"""The newcomer's hour, scripted per game in Chromium: the start page → a new game from
its form (table games with a bot at each level) → played to the end → reopened by a
reload → the replay → the statistics page; Danish on a 1366×768 desktop and English on
a 390×844 phone.  Every screen is photographed (docs/screenshots/newcomer-*.png) and its
rendered text — the visible text, every aria-label and title, the page title — must hold
no bot key, no catalogue key and (Kugler og Jokere) no field code such as t54, s0, h3.

Each table game is played against one bot of each level (1, 2, 3)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from spillebord import games

from .helpers import ROOT, api, need_game, shot, state, version, wait_after, wait_ready
from .test_extras import DEAL, WIN

pytestmark = pytest.mark.browser
CATALOGUE = {lang: json.loads((ROOT / "src" / "spillebord" / "web" / "static" / "i18n"
                               / f"{lang}.json").read_text(encoding="utf-8"))
             for lang in ("da", "en")}
FIELD_CODE = re.compile(r"\b(?:t\d{1,3}|s\d|h\d(?:\.\d)?)\b")
RUNS = [("da", 1366, 768), ("en", 390, 844)]
LEVELS = {"gammel_jomfru": [1, 2, 3], "kugler": [1, 2, 3]}

SCREEN_TEXT = """() => [document.title, document.body.innerText,
    ...[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
    ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title')),
    ...[...document.querySelectorAll('svg title')].map(e => e.textContent)].join('\\n')"""


def raw_names(text: str, lang: str, bot_keys: set[str], kugler: bool) -> list[str]:
    """Internal names in a screen's text: bot keys (unless the catalogue itself uses the
    word in this language), catalogue keys, and on Kugler screens field codes."""
    words = set(re.findall(r"[\w.]+", text))
    prose = set(re.findall(r"\w+", " ".join(CATALOGUE[lang].values())))
    found = sorted(k for k in bot_keys if k in words and k not in prose)
    found += sorted(w for w in words if w in CATALOGUE[lang])
    if kugler:
        found += sorted(set(FIELD_CODE.findall(text)))
    return found


class Screens:
    """Photographs and reads each screen of one newcomer run."""

    def __init__(self, page: Any, game: str, lang: str, width: int, bot_keys: set[str]):
        self.page, self.game, self.lang, self.width = page, game, lang, width
        self.bot_keys = bot_keys
        self.problems: dict[str, list[str]] = {}

    def check(self, name: str) -> None:
        shot(self.page, f"newcomer-{self.game}-{self.lang}-{self.width}-{name}")
        text = self.page.evaluate(SCREEN_TEXT)
        found = raw_names(text, self.lang, self.bot_keys, self.game == "kugler")
        if found:
            self.problems[name] = found


def start_from_form(page: Any, server: str, game: str, levels: list[int]) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"#game-{game} summary")
    form = page.locator(f"form[data-game='{game}']")
    if game == "posthus":
        form.locator("input[name='deal-number']").fill(str(DEAL))
    elif game == "studenter":
        form.locator("input[name='deal-number']").fill("11")
    else:
        form.locator("select[name='seats']").select_option(str(len(levels) + 1))
        for i, level in enumerate(levels, start=1):
            form.locator(f"select[name='kind-{i}']").select_option("bot")
            form.locator(f"select[name='bot-{i}']").select_option(f"level:{level}")
    form.locator("button[type='submit']").click()
    page.wait_for_url("**/play/**", timeout=60000)
    wait_ready(page)


def play_to_end(page: Any, game: str) -> None:
    rng = random.Random(11)
    i = 0
    while True:
        page.wait_for_function("() => { const s = window.__spillebord.state; "
                               "return s.outcome || s.legal.length > 0; }", timeout=120000)
        st = state(page)
        if st["outcome"]:
            return
        calm = [a for a in st["legal"] if a != "resign"] or st["legal"]
        if game == "posthus":
            action = WIN[i]
        elif game == "gammel_jomfru" and "turn" in calm:
            action = "turn"
        else:
            action = rng.choice(calm)
        i += 1
        assert i < 3000, "the game did not end"
        v = version(page)
        page.evaluate("t => window.__spillebord.session.act(t)", action)
        wait_after(page, v, 120000)


@pytest.mark.parametrize(("lang", "width", "height"), RUNS, ids=["da-1366", "en-390"])
@pytest.mark.parametrize("game", games.ready_keys())
def test_newcomer_hour(contexts: Any, server: str, game: str, lang: str, width: int,
                       height: int) -> None:
    need_game(game)
    info = {g["key"]: g for g in api(server, "/api/games")}
    bot_keys = {b for g in info.values() for b in g["bots"]}
    ctx = contexts(viewport={"width": width, "height": height},
                   has_touch=width < 500)
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    screens = Screens(page, game, lang, width, bot_keys)
    start_from_form(page, server, game, LEVELS.get(game, []))
    screens.check("playing")
    play_to_end(page, game)
    page.wait_for_selector("#outcome:not([hidden])")
    screens.check("over")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#outcome:not([hidden])", timeout=20000)
    assert page.locator("#board").inner_text() or page.locator("#board *").count()
    screens.check("reopened")
    page.click("#outcome a[href^='/replay/']")
    page.wait_for_selector("body[data-ready='1']")
    screens.check("replay")
    page.goto(server + "/stats")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator(f"tr[data-game='{game}']").count() == 1
    screens.check("statistics")
    assert not screens.problems, screens.problems
