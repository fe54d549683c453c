"""The ASGI app factory: ``create_app()`` wires the pages, the /api router, the
WebSocket endpoint and the services (server/services.py builds them), and reloads every unfinished
game at start.  Settings come from the environment (docs/server.md)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError

from spillebord import games
from spillebord.server.analysis import routes as analysis_routes
from spillebord.server.botaccounts import routes as bot_account_routes
from spillebord.server.daily import routes as daily
from spillebord.server.errors import Refusal, unavailable
from spillebord.server.http import api, apidocs, deflate, ops, pages
from spillebord.server.http.echo import serve_echo
from spillebord.server.http.guards import Guards
from spillebord.server.http.metrics import CountServerErrors
from spillebord.server.http.proxies import TrustedProxies
from spillebord.server.http.security import SecurityHeaders
from spillebord.server.http.ws import SocketsDep, serve_socket
from spillebord.server.infra import dayclock
from spillebord.server.infra.logs import install_json_lines, install_redaction
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage.health import READS
from spillebord.server.infra.warmup import WarmupGate
from spillebord.server.learn import routes as learn_routes
from spillebord.server.mygames import routes as mygames_routes
from spillebord.server.people import routes as people_routes
from spillebord.server.ratings import routes as ratings_api
from spillebord.server.services import Services
from spillebord.server.tables import routes as table_routes

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    dayclock.set_offset(settings.day_offset)
    if settings.day_offset:
        log.warning("the daily deal's clock is moved by %s s (SPILLEBORD_DAY_OFFSET: tests "
                    "only)", settings.day_offset)
    services = Services(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await services.start()
        services.ops.watch_sigterm()
        try:
            yield
        finally:
            await services.stop()

    docs = settings.api_docs
    app = FastAPI(title="Spillebord", lifespan=lifespan,
                  description=f"Danish card games ({', '.join(games.keys())}). "
                              "WebSocket protocol: docs/protocol.md",
                  docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json" if docs else None)
    if docs:
        apidocs.install(app)
    app.state.services = services  # for tests and tools; routes use http/deps.py
    for name, service in services.by_name().items():
        setattr(app.state, name, service)
    # Pages, modules and catalogues compressed (a game page's first load 152-169 KB
    # raw, the target is 150 KB); WebSocket messages have their own deflate, from the
    # same size on (http/deflate.py).
    deflate.install()
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    # Outermost last: the security headers also go on the guards' refusals.
    app.add_middleware(ops.RefuseWhileDraining, ops=services.ops)
    app.add_middleware(WarmupGate, warmup=services.warmup)  # 503 warming (warmup.py)
    app.add_middleware(Guards, max_body_bytes=settings.max_body_bytes,
                       max_header_bytes=settings.max_header_bytes,
                       allowed_origins=settings.allowed_origins)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(CountServerErrors, metrics=services.metrics)  # 5xx answers
    # Outermost: the client address and scheme every other part sees (proxies.py).
    app.add_middleware(TrustedProxies, proxies=settings.trusted_proxies)
    install_redaction()
    if settings.log_json:
        install_json_lines()

    @app.exception_handler(Refusal)
    async def refusal(request: Request, exc: Refusal) -> JSONResponse:
        services.metrics.refused(exc.code, "http")
        response = JSONResponse({"detail": exc.to_json()}, status_code=exc.status)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        if exc.code in people_routes.ENDED:  # an ended sign-in: clear its cookie too
            people_routes.drop_cookie(request, response)
        return response

    @app.exception_handler(DBAPIError)
    async def database_error(_request: Request, exc: DBAPIError) -> JSONResponse:
        # The database unreachable (issue 31): ``503 unavailable`` with a retry hint,
        # one log line per outage; any other database error stays a logged 500.
        if not READS.note(exc, "an HTTP request"):
            log.error("a database error answered 500", exc_info=exc)
            return JSONResponse({"detail": {"code": "internal", "reason": "the server "
                                            "failed; nothing changed"}}, status_code=500)
        return await refusal(_request, unavailable())

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # Same shape as every other refusal, with the field-level details kept.
        services.metrics.refused("bad_request", "http")
        errors = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
                  for e in exc.errors()]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        reason = f"{'.'.join(first['loc'][1:]) or 'request'}: {first['msg']}"
        return JSONResponse({"detail": {"code": "bad_request", "reason": reason,
                                        "errors": errors}}, status_code=422)

    @app.exception_handler(Exception)
    async def failed(_request: Request, _exc: Exception) -> JSONResponse:
        # A bug still answers in the API's shape (and is logged with its traceback).
        return JSONResponse({"detail": {"code": "internal",
                                        "reason": "the server failed on this request"}},
                            status_code=500)

    # The sockets first: a router tries its routes in order, and an HTTP route never
    # matches a WebSocket (nor a WebSocket route a request), so a game socket need
    # not be tried against every page and API route (≈ 0.2 ms CPU a socket opened).
    # The tables' routes (their paths overlap no other router's) come before it:
    # ``/ws/lobby`` must match before ``/ws/{match_id}`` would take it.
    app.include_router(table_routes.router)

    @app.websocket("/ws/{match_id}")
    async def ws_match(websocket: WebSocket, match_id: str, sockets: SocketsDep) -> None:
        async with services.quotas.socket(websocket) as admitted:  # sockets per address
            if admitted:
                await serve_socket(sockets, websocket, match_id)

    if settings.ws_echo:
        @app.websocket("/ws-echo")
        async def ws_echo(websocket: WebSocket) -> None:
            await serve_echo(websocket)

    app.include_router(ops.router)
    app.include_router(api.router)
    app.include_router(people_routes.router)
    app.include_router(mygames_routes.router)
    app.include_router(ratings_api.router)
    app.include_router(bot_account_routes.router)
    app.include_router(daily.router)
    app.include_router(learn_routes.router)  # issue #33: /learn/{game}, /api/learn
    app.include_router(analysis_routes.router)  # issue #33: /api/matches/{id}/analysis
    app.include_router(pages.router)
    app.add_exception_handler(404, pages.not_found)
    app.mount("/static", StaticFiles(directory=pages.STATIC, check_dir=False), name="static")

    return app
