"""permessage-deflate for the server's larger WebSocket messages only (docs/server.md,
"Compression of WebSocket messages").

Browsers offer permessage-deflate (RFC 7692) and uvicorn accepts it; the library under
uvicorn (``websockets``) then compresses every message the server sends.  For a game's
messages — the state after each action is a few hundred bytes — that was the largest
native cost of an action: zlib ≈ 8 % of the server's CPU in the flood of
bench/server_load.py, ≈ 7 µs for a 630-byte posthus state, to save ≈ 580 bytes a move
(docs/benchmarks/server.md, "Issue 26, session 12").

RFC 7692 lets a sender leave any message uncompressed (RSV1 clear on its first frame),
and such a message does not touch the receiver's compression context.  So a message
shorter than ``THRESHOLD`` bytes is sent as it is; a longer one (a lobby snapshot, a
state with many events after a reconnect, a large table's state) is compressed as
before.  1 KiB is the line the HTTP side draws too (GZipMiddleware's ``minimum_size``
in app.py), and the default ``threshold`` of Node's ``ws`` server.

``install()`` (app.py) makes the server side's negotiated extension a
``ThresholdDeflate``; the client side of the library (research/live.py) and what a
client sends (compressed or not) are untouched."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

THRESHOLD = 1024  # bytes: shorter messages are sent uncompressed


class ThresholdDeflate(PerMessageDeflate):
    """The server's permessage-deflate, leaving whole messages shorter than
    ``threshold`` bytes uncompressed."""

    threshold = THRESHOLD

    def encode(self, frame: Frame) -> Frame:
        # A whole message (one final text or binary frame) below the threshold: as it is,
        # RSV1 clear.  Anything else — a larger message, the frames of a fragmented one,
        # control frames — as the library does it.
        if frame.fin and len(frame.data) < self.threshold and (
                frame.opcode is Opcode.TEXT or frame.opcode is Opcode.BINARY):
            return frame
        return super().encode(frame)


_negotiate: Any = None  # the library's own ServerPerMessageDeflateFactory method


def _process_request_params(
        self: ServerPerMessageDeflateFactory, params: Sequence[ExtensionParameter],
        accepted_extensions: Sequence[Extension],
) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
    response, ext = _negotiate(self, params, accepted_extensions)
    ours = ThresholdDeflate(ext.remote_no_context_takeover, ext.local_no_context_takeover,
                            ext.remote_max_window_bits, ext.local_max_window_bits,
                            ext.compress_settings)
    return response, ours


def install() -> None:
    """Every permessage-deflate a server of this process negotiates from now on is a
    ``ThresholdDeflate`` (idempotent)."""
    global _negotiate
    if _negotiate is None:
        _negotiate = ServerPerMessageDeflateFactory.process_request_params
        factory: Any = ServerPerMessageDeflateFactory  # the library's class, once
        factory.process_request_params = _process_request_params
