"""Every outcome reason of every game rendered by the game page's end panel, in Danish and
English (Chromium): each game says why it ended in its own words — Kugler og Jokere's
win never says "Alle kort er lagt op." — and no catalogue key reaches the screen."""

from __future__ import annotations

from typing import Any

import pytest

from spillebord import games

from .helpers import need_game

pytestmark = pytest.mark.browser

RENDER = """async ([game, reason, seats]) => {
    const panel = await import('/static/js/panel.js');
    const box = document.createElement('div');
    document.body.append(box);
    const outcome = {winners: [0], ranking: [[0]], reason, bonus: 1, losers: []};
    const match = {match_id: 'x', game, seats: Array.from({length: seats}, () => ({}))};
    panel.renderOutcome(box, outcome, match, (s) => 'Spiller ' + (s + 1), 0);
    const text = box.querySelector('p').textContent;
    box.remove();
    return text;
}"""


@pytest.mark.parametrize("lang", ["da", "en"])
def test_every_outcome_reason_in_its_games_words(contexts: Any, server: str, lang: str) -> None:
    need_game("kugler")
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    said: dict[tuple[str, str], str] = {}
    for key in games.keys():  # noqa: SIM118 (a list)
        game = games.load(key)
        for reason in games.manifest(key).reasons:
            text = page.evaluate(RENDER, [key, reason, game.default_seats])
            assert text and "reason." not in text and "_" not in text, (key, reason, text)
            said[(key, reason)] = text
    kugler_won = said[("kugler", "won")]
    assert kugler_won != said[("studenter", "won")], kugler_won
    assert "Alle kort er lagt op" not in kugler_won and "Every card is up" not in kugler_won
    assert said[("posthus", "won")] != said[("studenter", "won")]
    assert said[("gammel_jomfru", "turn_limit")] != said[("kugler", "turn_limit")]
