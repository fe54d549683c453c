"""Helpers for the browser tests: open rooms through the real start page, read the page's
latest `state` message (window.__spillebord, set by play.js) and wait for new versions."""

from __future__ import annotations

import json
import shutil
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from spillebord import games

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
SCREENSHOTS = ROOT / "docs" / "screenshots"


def need_game(key: str) -> None:
    """Skip when a game is not registered yet (the only reason a browser test skips)."""
    if key not in games.keys():  # noqa: SIM118 (a list)
        pytest.skip(f"game {key!r} is not registered yet")


def shot(page: Any, name: str, publish: bool = True) -> None:
    """Save a screenshot in tests/artifacts/ and, if asked, copy it to docs/screenshots/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if publish:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, SCREENSHOTS / f"{name}.png")



def api(server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method="POST" if body else "GET",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


def state(page: Any) -> dict[str, Any]:
    """The last `state` message the page drew (view, legal, to_move, outcome, ...)."""
    result: dict[str, Any] = page.evaluate("() => window.__spillebord && window.__spillebord.state")
    return result


def event(page: Any, seq: int) -> dict[str, Any]:
    """The event numbered ``seq`` from the page's move log (every event it was sent)."""
    found: dict[str, Any] = page.evaluate(
        "q => window.__spillebord.log.find(e => e.seq === q) || null", seq)
    assert found, f"the page never received event {seq}"
    return found


def version(page: Any) -> int:
    return int(page.evaluate("() => window.__spillebord.session.version"))


def wait_ready(page: Any) -> None:
    page.wait_for_function("() => window.__spillebord && window.__spillebord.state", timeout=20000)


def wait_after(page: Any, v: int, timeout: float = 15000) -> None:
    """Wait until the page has drawn a state newer than version ``v`` (on a timeout: what
    the page knew — its version, the refusals it got, its socket — in the failure)."""
    try:
        page.wait_for_function(
            "v => window.__spillebord.state && window.__spillebord.session.version > v "
            "&& document.body.dataset.version > v", arg=v, timeout=timeout)
    except PlaywrightTimeout:
        seen = page.evaluate("""() => { const d = window.__spillebord, s = d.session;
            return { version: s && s.version, drawn: document.body.dataset.version,
                     errors: d.errors, socket: s && s.ws && s.ws.readyState,
                     unsent: s && s.pending && s.pending.length }; }""")
        raise AssertionError(f"no state after version {v} within {timeout} ms: {seen}") from None


def play_until_over(page: Any, choose: Callable[[dict[str, Any], int], str],
                    timeout: float = 30000) -> None:
    """Act for the page's seat until the game is over: ``choose(state, i)`` names the
    i-th action from the state the page drew (the others' turns are waited out)."""
    i = 0
    while not state(page)["outcome"]:
        page.wait_for_function("() => { const s = window.__spillebord.state; "
                               "return s.outcome || s.legal.length > 0; }", timeout=2 * timeout)
        st = state(page)
        if st["outcome"]:
            break
        v = version(page)
        page.evaluate("t => window.__spillebord.session.act(t)", choose(st, i))
        i += 1
        wait_after(page, v, timeout)


def wait_my_turn(page: Any, timeout: float = 30000) -> None:
    page.wait_for_function(
        "() => { const s = window.__spillebord.state; "
        "return s && (s.legal.length > 0 || s.outcome); }",
        timeout=timeout)


def start_solitaire(page: Any, server: str, game: str, deal: str | int = "random") -> None:
    """Start a solitaire from the start page's form, as a player would."""
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"#game-{game} summary")
    form = page.locator(f"form[data-game='{game}']")
    if deal == "winnable":
        form.locator("input[value='winnable']").check()
    elif deal != "random":
        form.locator("input[name='deal-number']").fill(str(deal))
        form.locator("input[value='number']").check()
    form.locator("button[type='submit']").click()
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)


def open_room(page: Any, server: str, game: str, seats: list[str], bot: str | None = None) -> None:
    """Open a table from the start page: seats[i] is "me", "human" or "bot"; ``bot`` is the
    bot choice for every bot seat ("level:2", "bot:random"; default: the game's default)."""
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"#game-{game} summary")
    form = page.locator(f"form[data-game='{game}']")
    form.locator("select[name='seats']").select_option(str(len(seats)))
    for i, kind in enumerate(seats):
        form.locator(f"select[name='kind-{i}']").select_option(kind)
        if kind == "bot" and bot:
            form.locator(f"select[name='bot-{i}']").select_option(bot)
    form.locator("button[type='submit']").click()
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)


def name_myself(page: Any, server: str, name: str, lang: str | None = None) -> None:
    """Open the start page (in ``lang`` when given) and pick the guest display name."""
    page.goto(server + "/")
    if lang is not None:
        page.evaluate("l => localStorage.setItem('spillebord.lang', l)", lang)
        page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    form = page.locator("#account form.name-form")
    form.locator("input[name='name']").fill(name)
    form.locator("button[type='submit']").click()
    page.wait_for_function("n => document.querySelector('#account-line').textContent"
                           ".includes(n)", arg=name)
