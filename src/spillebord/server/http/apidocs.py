"""The interactive API documentation (/docs: Swagger UI, /redoc: ReDoc) with a content
security policy of its own: the viewers' scripts from their CDN and the one inline
bootstrap script by its SHA-256 hash — no other script runs on those pages.  Production
settings turn the pages and /openapi.json off (``SPILLEBORD_API_DOCS=0``,
docs/deploy.md)."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse

CDN = "https://cdn.jsdelivr.net"
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def docs_csp(html: str) -> str:
    """The policy for ``html``: CDN scripts and the page's own inline scripts only."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in INLINE_SCRIPT.findall(html))
    return (f"default-src 'none'; script-src {CDN} {hashes}; "
            f"style-src {CDN} https://fonts.googleapis.com 'unsafe-inline'; "
            "font-src https://fonts.gstatic.com; "
            "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
            "connect-src 'self'; worker-src blob:; object-src 'none'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'")


def _page(html: str) -> HTMLResponse:
    return HTMLResponse(html, headers={"content-security-policy": docs_csp(html)})


def install(app: FastAPI) -> None:
    """/docs and /redoc for ``app`` (created with ``docs_url=None, redoc_url=None``)."""
    schema = app.openapi_url or "/openapi.json"
    swagger = bytes(get_swagger_ui_html(openapi_url=schema,
                                        title=f"{app.title} — API").body).decode()
    redoc = bytes(get_redoc_html(openapi_url=schema, title=f"{app.title} — API").body).decode()

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return _page(swagger)

    @app.get("/redoc", include_in_schema=False)
    def redoc_page() -> HTMLResponse:
        return _page(redoc)
