"""Security headers on every HTTP response, and a content security policy on the pages.

The pages (web/static) are plain ES modules and stylesheets from this origin with no
inline scripts, inline style attributes or event-handler attributes, so the policy
allows only ``'self'`` (plus ``data:`` images for the blank favicon); WebSockets go to
the same origin (``connect-src 'self'``).  A response that sets its own policy keeps it
(the API docs, apidocs.py).  Over TLS (the proxy says ``X-Forwarded-Proto: https`` and
uvicorn trusts it) responses also carry HSTS.  A pure ASGI middleware: WebSocket
traffic passes untouched.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # invite codes are in /join/ paths
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [*HEADERS, (b"content-security-policy", CSP.encode())]
        if scope.get("scheme") == "https":
            extra.append(HSTS)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in extra if k not in names]
            await send(message)

        await self.app(scope, receive, sending)
