"""Security headers and the content security policy: every page and static file carries
them (through nginx-less workers in the deployed mode), and Debian's headless Chromium
loads every page under the policy without a single violation."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.scale.cluster import cluster, get, post
from tests.services import Postgres, Redis, Workers

from spillebord.server.http.security import CSP

pytestmark = pytest.mark.services
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def one(postgres: Postgres, redis_server: Redis) -> Iterator[Workers]:
    with cluster(postgres, redis_server, postgres.create_database("headers"), n=1) as w:
        yield w


async def test_pages_carry_security_headers_and_csp(one: Workers) -> None:
    made = await post(one[0].http, "/api/matches", {"game": "posthus", "deal": 1})
    paths = ["/", f"/play/{made['match_id']}", "/join/whatever", f"/replay/{made['match_id']}",
             "/static/js/play.js", "/static/css/base.css", "/api/games"]
    for path in paths:
        r = await get(one[0].http, path)
        assert r.status_code == 200, path
        h = r.headers
        assert h["content-security-policy"] == CSP, path
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
        assert h["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in h["content-security-policy"]
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP
    docs = await get(one[0].http, "/docs")  # Swagger UI: its own policy (apidocs.py)
    assert docs.status_code == 200 and docs.headers["content-security-policy"] != CSP
    assert "frame-ancestors 'none'" in docs.headers["content-security-policy"]
    assert docs.headers["x-content-type-options"] == "nosniff"


def test_pages_run_under_the_policy_in_chromium(one: Workers) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (scripts/system-deps.sh)")
    from playwright.sync_api import sync_playwright

    made = asyncio.run(post(one[0].http, "/api/matches", {"game": "posthus", "deal": 2}))
    mid, token = made["match_id"], made["token"]
    pages = ["/", f"/play/{mid}#token={token}", f"/play/{mid}", f"/replay/{mid}", "/join/nope"]
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            for path in pages:
                page = browser.new_page()
                page.on("console", lambda m, path=path: (
                    "Content Security Policy" in m.text or "Refused to" in m.text)
                    and problems.append(f"{path}: {m.text}"))
                page.goto(one[0].http + path, wait_until="networkidle")
                page.wait_for_timeout(300)
                page.close()
        finally:
            browser.close()
    assert problems == []
