"""The reference game in Chromium (docs/adding-a-game.md): registered ready through
``SPILLEBORD_EXTRA_GAMES`` with no renderer of its own, the start page offers it and its
page draws the generic view — a message in the player's language and the legal moves as
buttons worded as cards — through which a player finishes a game against a bot."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.reasons import catalogue
from tests.reference_game import MANIFEST
from tests.services import free_port

from .conftest import ROOT, SERVER_ENV
from .helpers import api, shot, state, version, wait_after, wait_ready

pytestmark = pytest.mark.browser
KEY = MANIFEST.key
CARD_CODE = re.compile(r"\b[9TJQK][CDHS]\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``spillebord serve`` with the reference game registered, ready, in every process."""
    port, db = free_port(), tmp_path_factory.mktemp("db") / "reference.db"
    exe = shutil.which("spillebord", path=str(Path(sys.executable).parent)) or "spillebord"
    log = open(tmp_path_factory.mktemp("log") / "server.log", "w")  # noqa: SIM115
    env = {**os.environ, **SERVER_ENV, "SPILLEBORD_EXTRA_GAMES": "tests.reference_game:PLAYABLE",
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([exe, "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(url + "/api/games", timeout=2) as res:
                    if res.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the server did not start: " + Path(log.name).read_text()[-2000:])
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_the_start_page_offers_it(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator(f"#game-{KEY}").count() == 1
    assert "Højt kort" in page.locator(f"#game-{KEY}").inner_text()


def test_a_game_is_played_to_the_end_through_the_generic_view(page: Any, server: str) -> None:
    made = api(server, "/api/matches", {"game": KEY, "seats": ["me", {"bot": "random"}],
                                        "deal": 4})
    page.goto(server + made["play_url"])
    wait_ready(page)
    note = page.locator("#board .generic-note")
    assert note.inner_text() == catalogue("da")["play.generic_board"]
    for _ in range(40):
        if state(page)["outcome"] is not None:
            break
        page.wait_for_function(
            "() => { const s = window.__spillebord.state; return s.outcome !== null || "
            "document.querySelectorAll('#board .generic-actions button').length > 0; }",
            timeout=30000)
        if state(page)["outcome"] is not None:
            break
        buttons = page.locator("#board .generic-actions button")
        labels = buttons.all_inner_texts()
        assert labels and not any(CARD_CODE.search(t) for t in labels), labels
        v = version(page)
        buttons.first.click()
        wait_after(page, v, 30000)
    page.wait_for_selector("#outcome:not([hidden]) h2", timeout=30000)
    assert state(page)["outcome"]["reason"] in MANIFEST.reasons
    shot(page, "reference-game-generic", publish=False)
