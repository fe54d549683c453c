"""One name per seat (issue 27, finding 7): a named player is that name on the board,
in the seat list and in the replay — for everyone, not "Spiller 1" on the board while
the panel says the name."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .helpers import api, need_game, shot, wait_ready

pytestmark = pytest.mark.browser
NAME = "Nykomling"


def call(server: str, method: str, path: str, body: Any, player: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"X-Player": player} if player else {})}
    req = urllib.request.Request(server + path, method=method, headers=headers,
                                 data=json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


def named_player(server: str, name: str) -> str:
    player: str = call(server, "POST", "/api/players", {})["player_id"]
    call(server, "PUT", "/api/me/name", {"name": name}, player)
    return player


def test_a_named_player_is_named_on_the_board(
        contexts: Any, server: str) -> None:
    need_game("kugler")
    name = f"{NAME}{id(server) % 1000}"
    player = named_player(server, name)
    made = api(server, "/api/matches", {"game": "kugler", "player": player,
                                        "seats": ["me", *[{"level": 1}] * 3]})
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(server + f"/play/{made['match_id']}")  # a spectator
    wait_ready(page)
    page.wait_for_function("n => document.getElementById('seats').textContent.includes(n)",
                           arg=name, timeout=15000)
    page.wait_for_function("n => document.getElementById('board').textContent.includes(n)",
                           arg=name, timeout=15000)
    assert "Spiller 1" not in page.locator("#board").inner_text()


def test_a_named_player_is_named_in_the_replay(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    name = f"{NAME}{id(contexts) % 1000}"
    player = named_player(server, name)
    made = api(server, "/api/matches", {"game": "gammel_jomfru", "player": player,
                                        "seats": ["me", {"bot": "random"}]})
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(server + made["play_url"])
    wait_ready(page)
    # The player gives up: a bot plays the seat to the end, and the replay opens.
    page.locator("#leave").click()
    page.locator("dialog.choice-dialog button.primary").click()
    page.wait_for_function("() => window.__spillebord.state && window.__spillebord.state.outcome",
                           timeout=120000)
    page.goto(server + f"/replay/{made['match_id']}")
    page.wait_for_function("n => document.body.textContent.includes(n)", arg=name,
                           timeout=15000)
    assert "Spiller 1" not in page.locator("body").inner_text()


def first_text(page: Any, selector: str) -> list[str]:
    """The name at the start of each matched element (its first text node)."""
    names: list[str] = page.locator(selector).evaluate_all(
        "els => els.map(e => e.childNodes[0].textContent.trim())")
    return names


@pytest.mark.parametrize(("lang", "width", "height"), [("da", 1366, 768), ("en", 390, 844)],
                         ids=["da-1366", "en-390"])
def test_the_lobby_and_the_table_name_each_seat_alike(
        contexts: Any, server: str, lang: str, width: int, height: int) -> None:
    """An unnamed guest and a bot at a public table: the lobby's card calls them what the
    table's seat list calls them (it said "Gæst" and "Computer (Let)" where the table said
    "Spiller 1" and "Computer 3 (Let)")."""
    need_game("gammel_jomfru")
    guest: str = call(server, "POST", "/api/players", {})["player_id"]  # never named
    made = api(server, "/api/matches", {"game": "gammel_jomfru", "player": guest,
                                        "public": True,
                                        "seats": ["me", "human", {"level": 1}]})
    ctx = contexts(viewport={"width": width, "height": height}, has_touch=width < 500)
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(server + "/lobby")
    page.wait_for_selector("body[data-ready='1']")
    card = page.locator(f"#tables li.table-card[data-match='{made['match_id']}']")
    card.wait_for(timeout=10000)
    in_lobby = card.locator(".table-seats li").evaluate_all(
        "els => els.map(e => e.querySelector('span:not(.seat-no)')?.textContent || null)")
    shot(page, f"seat-names-lobby-{lang}-{width}")
    page.goto(server + f"/play/{made['match_id']}")  # a spectator of the same table
    wait_ready(page)
    page.wait_for_function("() => document.querySelectorAll('#seats li').length === 3")
    at_table = first_text(page, "#seats li")
    shot(page, f"seat-names-table-{lang}-{width}")
    assert in_lobby[0] == at_table[0], (in_lobby, at_table)  # the guest
    assert in_lobby[2] == at_table[2], (in_lobby, at_table)  # the bot
    assert in_lobby[1] is None  # the open seat is a "take" button
