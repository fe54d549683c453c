"""Request guards in front of every route (docs/security.md): one pure ASGI middleware,
so a route added later gets them without asking.

- **Headers**: at most ``max_header_bytes`` in all (names and values) → ``431``.
- **Bodies**: at most ``max_body_bytes`` → ``413 too_large``, answered from the
  ``Content-Length`` header or, for a chunked body, as soon as the limit is passed —
  before anything parses it (the body is buffered here, never more than the limit).
- **Origin**: a state-changing request (any method but GET, HEAD, OPTIONS) and every
  WebSocket upgrade that carries an ``Origin`` header must come from this site (the
  Origin's host and port equal the ``Host`` header) or from ``allowed_origins``;
  otherwise ``403 bad_origin`` (a WebSocket is refused before the handshake).  Requests
  without ``Origin`` (the CLI, scripts, bots) are not cross-site requests of a browser
  and pass: a browser always sends ``Origin`` on such requests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _refusal(status: int, code: str, reason: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    body = json.dumps({"detail": {"code": code, "reason": reason}}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    return headers, body


def origin_allowed(origin: str, host: str | None, allowed: Iterable[str]) -> bool:
    """Same site (scheme aside: TLS may end at the proxy) or listed in ``allowed``."""
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
        return False
    return parts.netloc.lower() == host.strip().lower()


class Guards:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_header_bytes: int,
                 allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.max_body = max_body_bytes
        self.max_headers = max_header_bytes
        self.allowed = frozenset(o.rstrip("/") for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
        if sum(len(k) + len(v) for k, v in headers) > self.max_headers:
            await self._refuse(kind, receive, send, 431, "too_large",
                               f"request headers may be at most {self.max_headers} bytes")
            return
        named = {k.lower(): v for k, v in headers}
        method = scope.get("method", "GET")
        origin = named.get(b"origin")
        if origin is not None and (kind == "websocket" or method not in SAFE_METHODS):
            host = named.get(b"host")
            if not origin_allowed(origin.decode("latin-1"),
                                  host.decode("latin-1") if host else None, self.allowed):
                await self._refuse(kind, receive, send, 403, "bad_origin",
                                   "requests from another site are refused")
                return
        if kind == "http" and method not in SAFE_METHODS:
            await self._bounded(scope, receive, send, named.get(b"content-length"))
            return
        await self.app(scope, receive, send)

    async def _bounded(self, scope: Scope, receive: Receive, send: Send,
                       length: bytes | None) -> None:
        too_big = f"a request body may be at most {self.max_body} bytes"
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._refuse("http", receive, send, 413, "too_large", too_big)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._refuse("http", receive, send, 413, "too_large", too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(kind: str, receive: Receive, send: Send, status: int, code: str,
                      reason: str) -> None:
        if kind == "websocket":
            # Closing before accepting makes the server answer the handshake with 403.
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": code})
            return
        headers, body = _refusal(status, code, reason)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
