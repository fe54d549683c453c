"""permessage-deflate for the larger messages only (server/http/deflate.py): read on the
wire by a client that does its own handshake and framing, so the RSV1 bit of each
message the server sends is seen as sent."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.live import LiveServer, create, settings_for

from spillebord.server.http.deflate import THRESHOLD


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("deflate") / "deflate.db"
    live = LiveServer(settings_for(str(db))).start()
    yield live
    live.stop()


class RawSocket:
    """A WebSocket client on a plain TCP stream, offering permessage-deflate (window
    of 2^15, context takeover, as a browser does); it decompresses what the server
    compressed and remembers each message's RSV1 bit."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.inflate = zlib.decompressobj(wbits=-15)

    @classmethod
    async def open(cls, port: int, path: str) -> tuple[RawSocket, str]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                      "Sec-WebSocket-Extensions: permessage-deflate; "
                      "client_max_window_bits\r\n\r\n").encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        assert head.startswith("HTTP/1.1 101"), head
        extensions = [line.split(":", 1)[1].strip() for line in head.split("\r\n")
                      if line.lower().startswith("sec-websocket-extensions:")]
        return cls(reader, writer), ";".join(extensions)

    async def recv(self) -> tuple[bool, dict[str, Any], int]:
        """The next message: (compressed, the JSON, its size in bytes)."""
        first, second = await self.reader.readexactly(2)
        assert first & 0x80 and first & 0x0F == 0x1, f"not one final text frame: {first:#x}"
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        data = await self.reader.readexactly(size)
        compressed = bool(first & 0x40)
        if compressed:
            data = self.inflate.decompress(data + b"\x00\x00\xff\xff")
        return compressed, json.loads(data), len(data)

    def send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        assert len(data) < 126
        self.writer.write(bytes([0x81, 0x80 | len(data)]) + mask
                          + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    async def until_state(self) -> tuple[bool, dict[str, Any], int]:
        while True:
            got = await self.recv()
            if got[1]["t"] == "state":
                return got

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def test_small_messages_go_uncompressed_and_large_ones_compressed(
        server: LiveServer) -> None:
    match = await create(server.http, game="posthus")
    ws, extensions = await RawSocket.open(server.port,
                                          f"/ws/{match['match_id']}?token={match['token']}")
    try:
        assert extensions.startswith("permessage-deflate")  # negotiated
        compressed, welcome, _size = await ws.recv()
        assert welcome["t"] == "welcome" and not compressed
        compressed, state, size = await ws.until_state()
        assert size < THRESHOLD and not compressed  # a state after each action
        version = state["v"]
        for _ in range(40):  # enough events that "every event since 0" is over 1 KiB
            legal = [a for a in state["d"]["legal"] if a != "resign"]
            if not legal:
                break
            ws.send({"t": "act", "v": version, "d": {"action": legal[0]}})
            compressed, state, size = await ws.until_state()
            assert size < THRESHOLD and not compressed
            version = state["v"]
        ws.send({"t": "sync", "v": 0, "d": {}})
        compressed, full, size = await ws.until_state()
        assert size >= THRESHOLD and compressed, size
        assert len(full["d"]["events"]) == version  # decompressed whole (context intact)
        ws.send({"t": "ping", "v": version, "d": {"n": 1}})  # small again after a large
        compressed, pong, _size = await ws.recv()
        assert pong["t"] == "pong" and not compressed
        ws.send({"t": "sync", "v": 0, "d": {}})  # and large again, on the same context
        compressed, again, _size = await ws.until_state()
        assert compressed and again["d"]["events"] == full["d"]["events"]
    finally:
        await ws.close()
