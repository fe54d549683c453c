"""The load benchmark's ``/ws-echo`` (off unless SPILLEBORD_WS_ECHO is set): a plain echo,
and the answers mode that replies to each frame with the next primed text."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from tests.server.live import LiveServer, settings_for


@pytest.fixture(scope="module")
def echo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("echo") / "echo.db"
    live = LiveServer(settings_for(str(db), ws_echo=True)).start()
    yield live
    live.stop()


async def test_echo_returns_each_frame(echo_server: LiveServer) -> None:
    async with websockets.connect(f"{echo_server.ws}/ws-echo") as ws:
        for text in ('{"t":"act","v":3,"d":{"action":"8H c2"}}', "x" * 700):
            await ws.send(text)
            assert await ws.recv() == text


async def test_echo_answers_mode_replies_with_the_primed_texts_in_turn(
        echo_server: LiveServer) -> None:
    async with websockets.connect(f"{echo_server.ws}/ws-echo?answers=1") as ws:
        await ws.send('["first", "second"]')
        got = []
        for _ in range(3):
            await ws.send("act")
            got.append(await ws.recv())
        assert got == ["first", "second", "first"]


@pytest.mark.parametrize("prime", ["not json", "[]", "[1, 2]", '{"a": "b"}'])
async def test_echo_answers_mode_closes_on_a_bad_priming_frame(
        echo_server: LiveServer, prime: str) -> None:
    async with websockets.connect(f"{echo_server.ws}/ws-echo?answers=1") as ws:
        await ws.send(prime)
        with pytest.raises(websockets.ConnectionClosed) as info:
            await ws.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 1003


def test_echo_is_off_by_default(tmp_path: Path) -> None:
    live = LiveServer(settings_for(str(tmp_path / "off.db"))).start()

    async def connect() -> None:
        async with websockets.connect(f"{live.ws}/ws-echo"):
            pass

    try:
        with pytest.raises(websockets.InvalidStatus):
            asyncio.run(connect())
        assert httpx.get(f"{live.http}/api/games").status_code == 200
    finally:
        live.stop()
