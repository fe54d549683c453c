"""The statistics page (/stats) and the start page's charts, in Chromium: after a won and
a resigned Posthuskabalen and a finished Gammel Jomfru, the table per game shows games,
wins, win rate, streaks, best time and moves and the dates; every chart label is a whole
game name, wrapped between words, never cut, and inside its chart (Danish and English)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .helpers import api, need_game, play_until_over, shot, wait_ready
from .test_extras import DEAL, WIN, new_player

pytestmark = pytest.mark.browser


def _play(ctx: Any, server: str, player: str, spec: dict[str, Any],
          moves: list[str] | None) -> None:
    res = api(server, "/api/matches", {**spec, "player": player})
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    rng = random.Random(7)

    def choose(st: dict[str, Any], i: int) -> str:
        if moves is None:
            return str(rng.choice(st["legal"]))
        return moves[i] if i < len(moves) else "resign"

    play_until_over(page, choose)
    page.close()


def _labels_whole(page: Any, names: list[str]) -> list[str]:
    """Every chart label's text (its lines joined), checked to lie inside its chart."""
    found: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
        'svg.chart .chart-label')].map(t => {
          const box = t.getBBox(), vb = t.ownerSVGElement.viewBox.baseVal;
          return {lines: [...t.querySelectorAll('tspan')].map(s => s.textContent),
                  inside: box.x >= vb.x - 0.5 && box.x + box.width <= vb.x + vb.width + 0.5};
        })""")
    assert found, "no chart labels"
    texts = []
    for f in found:
        text = whole(f["lines"])
        assert f["inside"], f"label {text!r} leaves its chart"
        assert any(text == n or text.startswith(n + " / ") for n in names), f
        texts.append(text)
    return texts


def whole(lines: list[str]) -> str:
    """The label the lines were wrapped from: every break is a space (a break inside a
    word would give a label that is not the name, and fails the caller's check)."""
    assert all(line.strip() == line and line for line in lines), lines
    return " ".join(lines)


def fits(page: Any) -> None:
    """At 1366 px every table is whole on the page, not scrolled sideways in its box.
    Failed before: the results table's last columns ("Første gang", "Sidste gang") lay
    past the right edge."""
    boxes = page.evaluate("""() => [...document.querySelectorAll('.table-scroll')].map(
        b => ({label: b.getAttribute('aria-label'), scroll: b.scrollWidth,
               client: b.clientWidth}))""")
    assert boxes, "no tables"
    wide = [b for b in boxes if b["scroll"] > b["client"]]
    assert not wide, f"tables wider than the page at 1366: {wide}"


@pytest.mark.parametrize("lang", ["da", "en"])
def test_statistics_page(contexts: Any, server: str, lang: str) -> None:
    for game in ("posthus", "gammel_jomfru"):
        need_game(game)
    player = new_player(server)
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        f"localStorage.setItem('spillebord.lang', '{lang}');")
    posthus = {"game": "posthus", "seats": ["me"], "deal": DEAL}
    _play(ctx, server, player, posthus, WIN[:2])  # resigned: a loss
    _play(ctx, server, player, posthus, WIN)  # won
    _play(ctx, server, player, {"game": "gammel_jomfru", "seats": [
        "me", {"bot": "random", "level": None}]}, None)
    games = {g["key"]: g["name"][lang] for g in api(server, "/api/games")}
    page = ctx.new_page()
    page.goto(server + "/stats")
    page.wait_for_selector("body[data-ready='1']")
    row = page.locator("tr[data-game='posthus'] td").all_inner_texts()
    # played, finished, won, win rate, streak now, longest, best time, fewest moves, dates
    assert row[:6] == ["2", "2", "1", "50 %", "1", "1"], row
    assert row[7] == str(len(WIN)) and row[6] != "–" and row[8] != "–", row
    jomfru = page.locator("tr[data-game='gammel_jomfru'] td").all_inner_texts()
    assert jomfru[:2] == ["1", "1"] and jomfru[6] == "–", jomfru
    assert page.locator("tr[data-game='posthus'] th").inner_text() == games["posthus"]
    labels = _labels_whole(page, list(games.values()))
    assert games["gammel_jomfru"] in labels and games["posthus"] in labels
    assert page.locator("table.stats-table caption").count() == 1
    fits(page)
    shot(page, f"statistics-{lang}")
    phone = contexts(viewport={"width": 390, "height": 844})
    phone.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        f"localStorage.setItem('spillebord.lang', '{lang}');")
    small = phone.new_page()
    small.goto(server + "/stats")
    small.wait_for_selector("body[data-ready='1']")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    _labels_whole(small, list(games.values()))
    shot(small, f"statistics-{lang}-phone")
    start = ctx.new_page()
    start.goto(server + "/")
    start.wait_for_selector("body[data-ready='1']")
    _labels_whole(start, list(games.values()))
    assert start.locator("#all-stats").get_attribute("href") == "/stats"
