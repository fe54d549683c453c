"""Issue 14 §1, the flows a newcomer hit: every level and bot the start page offers opens
a table (and is named, never by its key); a reopened game always shows its board; the
host sees the invited friend arrive; one bonus at a Studenterkabalen win; a dropped
connection is announced on the page and to the other seats."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from typing import Any

import pytest
from tests.server.live import Client, play_randomly

from spillebord import bots, games

from .games import leveled_tables, with_bots
from .helpers import api, need_game, open_room, shot, state, wait_ready

pytestmark = pytest.mark.browser

BOT_KEYS = re.compile(r"\b(random|heuristic|search|greedy|ismcts)\b|Gammel/|level:|bot:")
TABLE_SEATS = leveled_tables()


@pytest.mark.parametrize("game", list(TABLE_SEATS))
def test_every_offered_level_and_bot_opens_a_table(page: Any, server: str, game: str) -> None:
    need_game(game)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"#game-{game} summary")
    choice = page.locator(f"form[data-game='{game}'] select[name='bot-1']")
    values = choice.locator("option").evaluate_all("os => os.map(o => o.value)")
    labels = choice.locator("option").evaluate_all("os => os.map(o => o.textContent)")
    levels = sorted(bots.levels(game))
    assert values == [*(f"level:{n}" for n in levels), *(f"bot:{b}" for b in bots.names(game))]
    assert not any(BOT_KEYS.search(text) for text in labels), labels
    # The default opponent is a real level, not the random bot.
    assert choice.input_value() == f"level:{bots.default_level(game)}"
    for value in values:
        seats = ["me"] + ["bot"] * (TABLE_SEATS[game] - 1)
        open_room(page, server, game, seats, bot=value)
        match_id = page.url.rsplit("/", 1)[-1].split("#")[0]
        info = api(server, f"/api/matches/{match_id}")
        kind, _, name = value.partition(":")
        for seat in info["seats"][1:]:
            if kind == "level":
                assert (seat["bot"], seat["level"]) == (bots.levels(game)[int(name)].bot, int(name))
            else:
                assert (seat["bot"], seat["level"]) == (name, None)
        seat_list = page.locator("#seats").inner_text()
        assert "Computer 2" in seat_list and not BOT_KEYS.search(seat_list), seat_list
        assert state(page)["view"]


def in_thread(coro: Any) -> Any:
    """Run a coroutine to its end in a thread of its own (Playwright's sync API holds an
    event loop in the main thread)."""
    box: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            box.append(asyncio.run(coro))
        except BaseException as exc:  # re-raised in the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(240)
    if failed:
        raise failed[0]
    assert box, "the websocket player did not finish"
    return box[0]


async def finish(server: str, match_id: str, token: str) -> dict[str, Any]:
    """Play seat 0 to the end over a websocket (random legal actions, resigning a solitaire
    at once)."""
    c = await Client.open(server.replace("http", "ws", 1), match_id, token)
    try:
        st = await c.until(lambda s: s["outcome"] is not None or bool(s["legal"]))
        if "resign" in st["legal"]:
            await c.send("act", action="resign")
            return await c.until(lambda s: s["outcome"] is not None)
        return await play_randomly(c, random.Random(7))
    finally:
        await c.close()


def board_shown(page: Any, over: bool) -> None:
    """The reopened page drew its board (as the player of seat 0) and, when the game is
    over, the outcome — within 20 s (the machine is shared)."""
    page.wait_for_function(
        "() => { const g = window.__spillebord; const s = g && g.state; "
        "return s && s.seat === 0 "
        "&& document.querySelector('#board').children.length > 0 "
        "&& document.querySelector('#status').textContent.trim() !== ''; }", timeout=20000)
    if over:
        page.wait_for_selector("#outcome:not([hidden]) h2", timeout=20000)


REOPEN_SEATS = {k: with_bots(k, 1, {"bot": "random"}) for k in games.ready_keys()}


@pytest.mark.parametrize("game", list(REOPEN_SEATS))
def test_a_reopened_game_always_shows_its_board(page: Any, server: str, game: str) -> None:
    """A reload, or "Åbn" under "Dine spil", shows the board every time: 6 reopenings
    while the game runs and 20 after it ended, half by reload and half from the list."""
    need_game(game)
    made = api(server, "/api/matches", {"game": game, "seats": REOPEN_SEATS[game]})
    page.goto(server + made["play_url"])
    wait_ready(page)

    def reopen(n: int, over: bool) -> None:
        for i in range(n):
            if i % 2:
                page.goto(server + "/")
                page.wait_for_selector("body[data-ready='1']")
                page.click(f"#history-body li[data-match='{made['match_id']}'] a[href^='/play/']")
            else:
                page.reload()
            board_shown(page, over)

    reopen(6, over=False)
    in_thread(finish(server, made["match_id"], made["token"]))
    reopen(20, over=True)


def seat_pill(page: Any, seat: int) -> str:
    return str(page.locator(f"#seats li[data-seat='{seat}']").get_attribute("data-presence"))


def presence(page: Any, seat: int, want: str, timeout: float) -> None:
    """Wait until the seat list shows ``seat`` as ``want`` (open, online, offline)."""
    page.wait_for_selector(f"#seats li[data-seat='{seat}'][data-presence='{want}']",
                           timeout=timeout)


def test_the_host_sees_the_friend_arrive_and_leave(contexts: Any, server: str) -> None:
    """Every seat sees every other seat's claim, online and offline, live; a used
    invite is shown as taken (also after a reload), never offered to copy."""
    need_game("gammel_jomfru")
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    open_room(a, server, "gammel_jomfru", ["me", "human"])
    assert seat_pill(a, 1) == "open"
    invite = a.locator(".invite[data-seat='1'] input.invite-url").input_value()

    b_ctx = contexts(viewport={"width": 390, "height": 844})
    b = b_ctx.new_page()
    b.goto(invite)
    b.wait_for_url("**/play/**")
    wait_ready(b)
    # Without a reload: the host's list says the friend is here, the invite is used.
    presence(a, 1, "online", 10000)
    assert seat_pill(a, 1) == "online"
    a.wait_for_selector(".invite.taken[data-seat='1']")
    assert a.locator(".invite[data-seat='1'] button").count() == 0
    assert seat_pill(b, 0) == "online"
    shot(a, "room-friend-arrived")

    # The friend leaves: the host sees the seat go offline, live.
    b_ctx.context.close()
    presence(a, 1, "offline", 10000)
    a.reload()
    wait_ready(a)
    a.wait_for_selector(".invite.taken[data-seat='1']")
    assert a.locator("input.invite-url").count() == 0
    assert seat_pill(a, 1) == "offline"


def test_a_dropped_connection_is_announced(contexts: Any, server: str) -> None:
    """With the browser offline the page says the connection is lost and that it tries
    again, its own seat shows offline, and the other seat sees it go offline; back
    online, everything says online again."""
    need_game("gammel_jomfru")
    a_ctx = contexts(viewport={"width": 1366, "height": 768})
    a_ctx.allowed.append("WebSocket")  # the failed connection attempts while offline
    a = a_ctx.new_page()
    open_room(a, server, "gammel_jomfru", ["me", "human"])
    invite = a.locator(".invite[data-seat='1'] input.invite-url").input_value()
    b = contexts(viewport={"width": 1000, "height": 800}).new_page()
    b.goto(invite)
    b.wait_for_url("**/play/**")
    wait_ready(b)
    presence(b, 0, "online", 10000)

    a_ctx.context.set_offline(True)
    a.wait_for_selector("#connection:not([hidden])", timeout=12000)
    assert "Forbindelsen er tabt — prøver igen" in a.inner_text("#connection")
    assert seat_pill(a, 0) == "offline"
    presence(b, 0, "offline", 20000)
    shot(a, "connection-lost")

    a_ctx.context.set_offline(False)
    a.wait_for_selector("#connection", state="hidden", timeout=15000)
    presence(a, 0, "online", 10000)
    presence(b, 0, "online", 10000)


async def play_line(server: str, match_id: str, token: str, line: list[str]) -> dict[str, Any]:
    """Play the action texts of ``line`` for seat 0 over a websocket; the final state."""
    c = await Client.open(server.replace("http", "ws", 1), match_id, token)
    try:
        await c.until(lambda s: bool(s["legal"]))
        for action in line:
            v = c.version
            await asyncio.sleep(0.04)  # the server allows 50 messages a second
            await c.send("act", action=action)
            await c.until(lambda s, v=v: c.version > v)
        return await c.until(lambda s: s["outcome"] is not None)
    finally:
        await c.close()


def test_one_bonus_at_a_studenter_win_in_pass_3(page: Any, server: str) -> None:
    """A win in pass 3: the panel and the board's corner give the same bonus (1), the
    outcome's."""
    need_game("studenter")
    from spillebord import games, solvers

    result = solvers.load("studenter").solve(games.load("studenter").new(deal=0, seats=1), 20.0)
    assert result.verdict == "winnable" and result.line.count("redeal") == 2
    made = api(server, "/api/matches", {"game": "studenter", "deal": 0})
    final = in_thread(play_line(server, made["match_id"], made["token"], list(result.line)))
    assert final["outcome"]["bonus"] == 1 and final["view"]["pass"] == 3
    page.goto(server + made["play_url"])
    board_shown(page, over=True)
    numbers = re.compile(r"\d+")
    panel = numbers.findall(page.inner_text("#outcome h2"))
    corner = numbers.findall(page.inner_text("#board .bonus-corner"))
    assert panel == ["1"] and corner == ["3", "1"], (panel, corner)
