"""One player in Chromium through a rolling restart: two workers behind nginx on
PostgreSQL + Redis; the page plays, worker 0 and then worker 1 are restarted by SIGTERM
(drain: their sockets close with 1012); the page reconnects through nginx each time, never
shows "connection lost" or an error, and goes on playing — every move in its log once,
in order."""

from __future__ import annotations

import signal
import time
from typing import Any

import httpx
import pytest
from tests.scale.cluster import cluster
from tests.services import (
    Nginx,
    Postgres,
    Redis,
    Worker,
    nginx_binary,
    pg_url,
    postgres,
    redis_server,
)

from .helpers import api, need_game, state, version, wait_after, wait_ready

__all__ = ["nginx_binary", "pg_url", "postgres", "redis_server"]
pytestmark = pytest.mark.browser

WATCH = """() => {
  const box = document.getElementById("connection");
  window.__shown = [];
  new MutationObserver(() => {
    if (!box.hidden) window.__shown.push([box.className, box.textContent]);
  }).observe(box, { attributes: true, childList: true, characterData: true, subtree: true });
}"""


def restart(w: Worker) -> None:
    assert w.proc is not None
    w.proc.send_signal(signal.SIGTERM)
    w.proc.wait(30)
    w.start()
    deadline = time.monotonic() + 30
    while httpx.get(f"{w.http}/readyz", timeout=10).status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.1)


def play(page: Any) -> None:
    """The page's player makes a move (through the page's own session)."""
    v = version(page)
    legal = [a for a in state(page)["legal"] if a not in ("redeal", "resign")]
    assert legal, "the deal ran out of card moves"
    page.evaluate("a => window.__spillebord.session.act(a)", legal[0])
    wait_after(page, v, timeout=10000)


def test_a_player_does_not_notice_a_rolling_restart(
        contexts: Any, postgres: Postgres, redis_server: Redis, pg_url: str,
        nginx_binary: str) -> None:
    need_game("posthus")
    with cluster(postgres, redis_server, pg_url) as w:
        proxy = Nginx.start([w[0].port, w[1].port])
        try:
            made = api(proxy.http, "/api/matches", {"game": "posthus", "deal": 5})
            ctx = contexts(viewport={"width": 1366, "height": 768})
            page = ctx.new_page()
            page.goto(proxy.http + made["play_url"])
            wait_ready(page)
            page.evaluate(WATCH)
            play(page)
            for worker in (w[0], w[1]):
                restart(worker)
                play(page)  # within the 10 s wait: the page is back and playing
            play(page)
            shown = page.evaluate("() => window.__shown")
            assert all("lost" not in cls for cls, _text in shown), shown
            assert page.locator(".message.error, [role=alert].error").count() == 0
            log = page.evaluate("() => window.__spillebord.log")
            assert [e["seq"] for e in log] == list(range(1, version(page) + 1))
            assert version(page) == 4
        finally:
            proxy.stop()
