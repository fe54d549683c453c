"""Trusted proxies (issue 29, finding 8): X-Forwarded-For is honoured only from the
configured proxies (default: none), so a program on the same machine cannot dodge the
sign-in slow-down by sending a new address with each try."""

from __future__ import annotations

import itertools
from pathlib import Path

import httpx
import pytest
from tests.server.live import LiveServer, free_port, settings_for
from tests.server.test_orphans import start_serve

from spillebord.server.infra.settings import Settings

_n = itertools.count(1)


def tries(base: str, n: int) -> list[int]:
    """``n`` failed sign-ins, each with another name and another forwarded address."""
    out = []
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(n):
            i = next(_n)
            r = http.post("/api/session", json={"name": f"Ingen {i}", "password": "forkert"},
                          headers={"X-Forwarded-For": f"10.9.{i // 256 % 256}.{i % 256}"})
            out.append(r.status_code)
    return out


def test_the_default_trusts_no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPILLEBORD_TRUSTED_PROXIES", raising=False)
    assert Settings.from_env().trusted_proxies == ()
    monkeypatch.setenv("SPILLEBORD_TRUSTED_PROXIES", "127.0.0.1, ::1")
    assert Settings.from_env().trusted_proxies == ("127.0.0.1", "::1")


@pytest.mark.slow
def test_a_direct_client_cannot_forward_new_addresses(tmp_path: Path) -> None:
    """``spillebord serve`` with the default: the 6th try from loopback waits (429),
    whatever X-Forwarded-For says (all 20 passed before)."""
    port = free_port()
    proc = start_serve(port, tmp_path / "direct.db")
    try:
        codes = tries(f"http://127.0.0.1:{port}", 8)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes


def test_a_configured_proxy_is_believed(tmp_path: Path) -> None:
    """Listed as a proxy, loopback's forwarded addresses count one by one; not listed,
    they are ignored (the same app, the same uvicorn)."""
    for proxies, slowed in ((("127.0.0.1",), False), ((), True)):
        live = LiveServer(settings_for(str(tmp_path / f"p{len(proxies)}.db"),
                                       trusted_proxies=proxies, argon2_memory_kib=8192)
                          ).start()
        try:
            codes = tries(live.http, 7)
        finally:
            live.stop()
        assert (429 in codes) is slowed, (proxies, codes)
