"""Input limits and cross-site refusals on a real server (issue 16): bodies over 64 KiB
get 413 before anything parses them (even when the body never comes), headers over
16 KiB get 431, a bot's options are bounded and checked, requests and WebSocket
upgrades from another site are refused (the same site and the allow-list pass), the API
docs carry their own policy or are off, and HSTS goes out over TLS."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from tests.server.live import LiveServer, create, settings_for

from spillebord.server.http.apidocs import INLINE_SCRIPT

EVIL = "https://evil.example"


@pytest.fixture(scope="module")
def friendly(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that allows one other site and has its API docs off (production)."""
    db = tmp_path_factory.mktemp("friendly") / "f.db"
    live = LiveServer(settings_for(str(db), allowed_origins=("https://friend.example",),
                                   api_docs=False)).start()
    yield live
    live.stop()


def raw_request(port: int, head: bytes, timeout: float = 5.0) -> tuple[int, bytes]:
    """Send ``head`` (request line and headers, no body) on a plain socket; the status
    and the response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head)
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1]), data


async def test_big_bodies_are_refused_before_parsing(server: LiveServer) -> None:
    # 100 MB announced, none of it sent: the answer comes without waiting for the body
    # (a server that waited would never answer, and the socket's timeout would fail this).
    head = (b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n")
    status, data = raw_request(server.port, head, timeout=20.0)
    assert status == 413 and b'"too_large"' in data
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        # The 20 MB bot option of the issue: refused, nothing stored.
        huge = {"game": "gammel_jomfru", "seats": ["me", {"bot": "random",
                                                          "options": {"x": "a" * 20_000_000}}]}
        r = await http.post("/api/matches", json=huge)
        assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: chunked
            yield b'{"game": "posthus", "x": "'
            for _ in range(100):
                yield b"a" * 1000
            yield b'"}'

        r = await http.post("/api/matches", content=chunks(),
                            headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"
        r = await http.post("/api/matches", json={"game": "posthus", "x": "a" * 60_000})
        assert r.status_code == 201  # under the limit: an ordinary request


async def test_bot_options_are_bounded_and_declared(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        for options in ({"x": "a" * 2000}, {"zzz": 1}):
            r = await http.post("/api/matches", json={
                "game": "gammel_jomfru", "seats": ["me", {"bot": "random",
                                                          "options": options}]})
            assert r.status_code == 400, r.text
            assert r.json()["detail"]["code"] == "bad_bot_options"
        r = await http.post("/api/matches", json={
            "game": "gammel_jomfru", "seats": ["me", {"bot": "random", "level": "L" * 2000}]})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_bot_options"
        assert len(r.text) < 1000  # the refusal does not echo the 2,000 characters


async def test_big_headers_are_refused(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        for size in (20_000, 1_000_000):
            r = await http.get("/api/games", headers={"X-Junk": "a" * size})
            assert r.status_code == 431, size
        assert (await http.get("/api/games", headers={"X-Junk": "a" * 8000})).status_code == 200
    with pytest.raises(websockets.InvalidStatus) as info:
        async with websockets.connect(f"{server.ws}/ws/whatever",
                                      additional_headers={f"X-Junk-{i}": "a" * 4000
                                                          for i in range(5)}):
            pass
    assert info.value.response.status_code == 403


async def test_cross_site_requests_are_refused(server: LiveServer) -> None:
    made = await create(server.http, game="gammel_jomfru", seats=["me", "human"])
    code, mid = made["invites"][0]["code"], made["match_id"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        # The attack: a text/plain form post from another site took the seat.
        r = await http.post(f"/api/invites/{code}/claim", content="{}",
                            headers={"Origin": EVIL, "Content-Type": "text/plain"})
        assert r.status_code == 403 and r.json()["detail"]["code"] == "bad_origin"
        for origin in (EVIL, "null", f"http://127.0.0.1:{server.port}.evil.example",
                       f"http://localhost:{server.port}"):
            r = await http.post("/api/players", headers={"Origin": origin})
            assert r.status_code == 403, origin
            r = await http.post("/api/matches", json={"game": "posthus"},
                                headers={"Origin": origin})
            assert r.status_code == 403, origin
        # Reading is not state-changing: another site may still look.
        assert (await http.get(f"/api/matches/{mid}", headers={"Origin": EVIL})).is_success
        # The same site (the page's own requests) and no Origin at all (scripts) pass,
        # and the refused claim changed nothing: the invite still works once.
        same = {"Origin": server.http}
        assert (await http.post("/api/players", headers=same)).status_code == 201
        r = await http.post(f"/api/invites/{code}/claim", headers=same)
        assert r.status_code == 200
    with pytest.raises(websockets.InvalidStatus) as info:
        async with websockets.connect(f"{server.ws}/ws/{mid}?token={made['token']}",
                                      origin=EVIL):
            pass
    assert info.value.response.status_code == 403
    async with websockets.connect(f"{server.ws}/ws/{mid}",
                                  origin=server.http) as ws:
        await ws.send(json.dumps({"t": "hello", "d": {"token": made["token"]}}))
        seen = [json.loads(await ws.recv()) for _ in range(3)]
        assert any(m["t"] == "welcome" and m["d"]["role"] == "player" for m in seen)


async def test_the_allow_list_and_docs_off(friendly: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=friendly.http) as http:
        ok = await http.post("/api/players", headers={"Origin": "https://friend.example"})
        assert ok.status_code == 201
        bad = await http.post("/api/players", headers={"Origin": EVIL})
        assert bad.status_code == 403
        for path in ("/docs", "/redoc", "/openapi.json"):
            assert (await http.get(path)).status_code == 404, path
    made = await create(friendly.http, game="posthus")
    async with websockets.connect(f"{friendly.ws}/ws/{made['match_id']}",
                                  origin="https://friend.example") as ws:
        assert json.loads(await ws.recv())["t"] == "welcome"


async def test_docs_have_their_own_policy_and_tls_gets_hsts(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        for path in ("/docs", "/redoc"):
            r = await http.get(path)
            csp = r.headers["content-security-policy"]
            script_src = next(p for p in csp.split(";") if p.strip().startswith("script-src"))
            assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in csp
            assert "frame-ancestors 'none'" in csp
            assert len(INLINE_SCRIPT.findall(r.text)) == script_src.count("'sha256-")
        plain = await http.get("/api/games")
        assert "strict-transport-security" not in plain.headers
        tls = await http.get("/api/games", headers={"X-Forwarded-Proto": "https"})
        assert tls.headers["strict-transport-security"].startswith("max-age=31536000")


async def test_nginx_config_sends_hsts_and_the_host() -> None:
    deploy = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    assert "Strict-Transport-Security" in deploy and "max-age=31536000" in deploy
    from spillebord.server.scale.nginx import render_nginx_conf

    conf = render_nginx_conf(["127.0.0.1:9"], "127.0.0.1:8")
    # The Origin check compares the Origin's host:port with Host: nginx must pass the
    # browser's Host unchanged (with its port).
    assert "proxy_set_header Host $http_host;" in conf
    await asyncio.sleep(0)
