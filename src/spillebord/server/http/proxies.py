"""Trusted proxies: ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are honoured only
from the addresses in ``SPILLEBORD_TRUSTED_PROXIES`` (default: none — every request's
address is the peer's).  The shipped nginx setup sets it to 127.0.0.1 (docs/deploy.md).

The app decides, not the server that runs it: ``spillebord serve`` runs uvicorn with
its own proxy handling off, and so must a deployment that runs uvicorn directly
(``--no-proxy-headers``).  The header parsing is uvicorn's own middleware.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def trusting(app: ASGIApp, proxies: Iterable[str]) -> ASGIApp:
    """``app`` honouring the forwarded headers from ``proxies`` only."""
    trusted = [p for p in proxies if p]
    if not trusted:
        return app
    return cast(ASGIApp, ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=trusted))


class TrustedProxies:
    """The ASGI middleware form of ``trusting`` (for ``app.add_middleware``)."""

    def __init__(self, app: ASGIApp, proxies: tuple[str, ...] = ()) -> None:
        self.inner = trusting(app, proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.inner(scope, receive, send)
