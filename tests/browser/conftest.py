"""Browser tests: the real server in a subprocess and Debian's headless Chromium.

The server is ``spillebord serve`` on a free loopback port with a temporary SQLite file;
the browser is /usr/bin/chromium driven by Playwright (never a downloaded browser).
Every page records console errors and uncaught exceptions; ``page`` fails the test when
any appeared that the test did not expect.  Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.services import free_port

from .helpers import CHROMIUM

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]

# Bots move quickly in tests (the product default is a watchable 0.6 s); the solver's
# verdict gets a small budget so it does not crowd out the hints on 2 shared cores.
SERVER_ENV = {"PYTHONUNBUFFERED": "1", "SPILLEBORD_LIMITS": "off",  # one address
              "SPILLEBORD_BOT_DELAY": "0.05",
              "SPILLEBORD_VERDICT_SECONDS": "0.5", "SPILLEBORD_HINT_SECONDS": "10",
              # a turn timer that runs out within a test (the page offers 30 s and up)
              "SPILLEBORD_MIN_TURN": "3",
              # no warmed bot and solver processes and no daily deals chosen ahead at
              # start (issue 30, session 11: seconds of CPU a server that most tests
              # never use; the first bot move or hint starts its process, a daily deal
              # is chosen when first asked for; test_daily.py chooses ahead as
              # production does)
              "SPILLEBORD_WARM": "0", "SPILLEBORD_DAILY_AHEAD": "0"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def start_server(db: Path, log_path: Path, env: dict[str, str] | None = None,
                 port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``spillebord serve`` on ``port`` (default a free one) with the SQLite file ``db``
    (and ``env`` over SERVER_ENV); its process and URL once it answers (fails the test if
    it does not)."""
    port = port or free_port()
    exe = shutil.which("spillebord", path=str(Path(sys.executable).parent)) or "spillebord"
    with open(log_path, "w") as log:  # the child keeps its own handle
        proc = subprocess.Popen([exe, "serve", "--port", str(port), "--db",
                                 f"sqlite:///{db}"], stdout=log, stderr=subprocess.STDOUT,
                                cwd=ROOT, env={**os.environ, **SERVER_ENV, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    # Generous: a loaded 2-core machine may take a while to start a server that warms
    # its compute workers; one that fails to start ends the wait at once (poll).
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2) as res:
                if res.status == 200:
                    return proc, url
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the server did not start: " + log_path.read_text()[-2000:])
        time.sleep(0.2)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install the Debian chromium package")
    running = os.environ.get("SPILLEBORD_BROWSER_SERVER")
    if running:  # a server started by hand (debugging); normally we start our own
        yield running.rstrip("/")
        return
    db = tmp_path_factory.mktemp("db") / "browser.db"
    proc, url = start_server(db, tmp_path_factory.mktemp("log") / "server.log")
    yield url
    stop_server(proc)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    # Package scope: Playwright's sync API keeps an event loop running in the main thread
    # while it is open, which would break asyncio.run() in the test packages after this.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Watched:
    """A browser context with console-error bookkeeping."""

    def __init__(self, browser: Any, **kwargs: Any) -> None:
        self.context = browser.new_context(**kwargs)
        # Tests click every move themselves: Gammel Jomfru's "play forced moves by
        # themselves" (on for players) is off here unless a test turns it back on.
        self.context.add_init_script(
            "if (!sessionStorage.getItem('keep-autoplay')) "
            "localStorage.setItem('spillebord.gj.autoplay', 'off')")
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.set_default_timeout(15000)
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        return page

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    made: list[Watched] = []

    def make(**kwargs: Any) -> Watched:
        w = Watched(browser, **kwargs)
        made.append(w)
        return w

    yield make
    problems = [e for w in made for e in w.unexpected()]
    for w in made:
        w.context.close()
    assert not problems, f"console errors: {problems}"


@pytest.fixture
def page(contexts: Any) -> Any:
    return contexts(viewport={"width": 1200, "height": 900}).new_page()
