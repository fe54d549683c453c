"""What an operator's tools ask a worker (docs/deploy.md, "Health, readiness, drain"):

- ``GET /healthz``: the process is alive and its event loop answers (always 200 while
  it runs; nothing is checked beyond that, so a slow database never restarts it);
- ``GET /readyz``: the worker should get traffic — the database answers, its schema is
  one this code serves (the newest migration, or newer), its writes do not keep failing
  and the worker is not draining; 200 or 503 with every check's result.  Redis down
  (shared mode) leaves it ready but ``degraded`` (play goes on).

Both are read-only GETs without cookies or secrets; they say nothing about games.

Drain (SIGTERM, or ``await ops.drain()``): the worker stops taking new game sockets
(their upgrade gets ``503``, which nginx retries on another worker) and state-changing
API calls (``503 draining``), answers ``/readyz`` with 503, stops its bot drivers and
releases the leases of the games no socket here watches (shared mode: another worker
takes them, bots included, at once), waits
``SPILLEBORD_DRAIN_SECONDS`` (0 by default: for balancers that poll ``/readyz``),
closes every game socket with code 1012 (*service restart*: the page
reconnects at once, through the proxy to another worker, and syncs), waits up to
``CLOSE_SECONDS`` for the sockets to go, releases the leases of the remaining games,
then lets uvicorn shut down as usual (every
acknowledged action was committed before it was acknowledged; the writer flushes
at shutdown).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from spillebord.server.http.metrics import Metrics, allowed
from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.health import READS

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from spillebord.server.infra.storage.writer import GroupWriter
    from spillebord.server.infra.warmup import Warmup
    from spillebord.server.scale.factory import ScaleOut

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)
CHECK_SECONDS = 2.0  # a check that takes longer counts as failed
CLOSE_SECONDS = 5.0  # the longest wait for the closed sockets to go
RESTART = 1012  # WebSocket close code "service restart": the page reconnects at once
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEGRADING = frozenset({"redis"})  # checks that, failing, leave the worker ready


class Restartable(Protocol):
    """An open game socket as draining sees it (http/ws.py's ``Connection``)."""

    def restart(self) -> None: ...


class Ops:
    """The worker's operational state: draining or not.  ``hand_over_bots``: stop
    this worker's bot drivers and let go of the games no socket here watches;
    ``writer``: the group writer once started (None before)."""

    def __init__(self, engine: Engine, scale: ScaleOut, drain_seconds: float,
                 hand_over_bots: Callable[[], Awaitable[None]],
                 writer: Callable[[], GroupWriter | None], warmup: Warmup) -> None:
        self.engine = engine
        self.warmup = warmup  # where the start-up is (infra/warmup.py)
        self.scale = scale
        self.drain_seconds = drain_seconds
        self.hand_over_bots = hand_over_bots
        self.writer = writer
        self.draining = False
        self.connections: set[Restartable] = set()  # open game sockets
        self._exit_task: asyncio.Task[None] | None = None

    # -- drain ------------------------------------------------------------------------
    def watch_sigterm(self) -> None:
        """Drain on SIGTERM, then hand the signal to the server (uvicorn's own handler:
        it then shuts down as it would have).  Only in the main thread (tests that run
        the app in a thread call ``drain`` themselves)."""
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        previous = signal.getsignal(signal.SIGTERM)

        def on_term() -> None:
            if not self.draining:
                self._exit_task = loop.create_task(self._drain_then_exit(loop, previous))

        loop.add_signal_handler(signal.SIGTERM, on_term)

    async def _drain_then_exit(self, loop: asyncio.AbstractEventLoop,
                               previous: Callable[[int, Any], Any] | int | None) -> None:
        try:
            await self.drain()
        except Exception:  # draining is a courtesy: exit all the same
            log.exception("draining failed")
        finally:
            loop.remove_signal_handler(signal.SIGTERM)
            if callable(previous):
                previous(signal.SIGTERM, None)
            else:
                signal.raise_signal(signal.SIGTERM)

    async def drain(self) -> None:
        self.draining = True
        log.warning("draining: %d game sockets", len(self.connections))
        await self.hand_over_bots()  # the other workers' drivers can start now
        grace = self.drain_seconds
        if grace > 0:
            await asyncio.sleep(grace)
        for conn in list(self.connections):
            conn.restart()
        deadline = time.monotonic() + CLOSE_SECONDS
        while self.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        await self.scale.release_leases()  # the rest of the games, with no event
        # of theirs in flight any more: another worker takes each at its next event
        log.warning("drained: %d game sockets left", len(self.connections))

    def _writes_failing(self) -> bool:
        writer = self.writer()
        return writer is not None and writer.health.keeps_failing()

    async def refuse_socket(self, ws: WebSocket) -> None:
        """A new game socket while draining: 503 before the upgrade (nginx tries the
        next worker), or — where the server cannot answer an upgrade with a response —
        a close with 1012 right away."""
        try:
            await ws.send_denial_response(Response(status_code=503,
                                                   headers={"Retry-After": "1"}))
        except RuntimeError:
            await ws.close(code=RESTART)

    async def database_check(self) -> tuple[bool, bool]:
        """(reachable, schema served by this code: current or newer)."""
        try:
            current = await asyncio.wait_for(
                asyncio.to_thread(migrate.is_current, self.engine), CHECK_SECONDS)
        except Exception as exc:  # unreachable or too slow: one line per outage
            READS.note(exc if not isinstance(exc, TimeoutError) else OSError("timeout"),
                       "the readiness check")
            return False, False
        return True, current

    async def readiness(self) -> dict[str, Any]:
        """Ready (200) when this worker can serve: the database answers at a schema
        this code serves, its writes do not keep failing, and it is not draining.
        Redis (shared mode) only *degrades* it — play goes on without it (a socket's
        moves on a worker other than the game's owner wait for Redis to be back) — so a
        balancer that follows ``/readyz`` keeps the site up: ``degraded`` names the
        checks that failed but do not stop it serving (issue 31)."""
        warmup = self.warmup
        reachable, current = await self.database_check()
        checks: dict[str, bool] = {"database": reachable, "migrations": current,
                                   "writes": not warmup.serving
                                   or not self._writes_failing()}
        redis = await self.scale.redis_ok()
        if redis is not None:
            checks["redis"] = redis
        checks["not_draining"] = not self.draining
        checks["warm"] = warmup.ready  # kernels and worker processes loaded (warmup.py)
        degraded = sorted(k for k in DEGRADING if checks.get(k) is False)
        ready = all(v for k, v in checks.items() if k not in DEGRADING)
        status = ("ready" if ready else "draining" if self.draining
                  else "warming" if not warmup.ready and warmup.failed is None
                  else "not_ready")
        report: dict[str, Any] = {"ready": ready, "status": status, "degraded": degraded,
                                  "checks": checks}
        if not warmup.ready:
            report["warming"] = warmup.report()
        return report


def _ops(request: Request) -> Ops:
    ops: Ops = request.app.state.ops
    return ops


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """This worker's Prometheus metrics (infra/metrics.py), behind the token if set."""
    state = request.app.state
    found: Metrics = state.metrics
    if not allowed(request, state.settings.metrics_token):
        return Response(status_code=404)
    found.database_up = (await _ops(request).database_check())[0]
    return Response(found.render(), media_type=CONTENT_TYPE_LATEST,
                    headers={"Cache-Control": "no-store"})


@router.get("/healthz")
async def healthz() -> JSONResponse:
    return JSONResponse({"alive": True}, headers={"Cache-Control": "no-store"})


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    report = await _ops(request).readiness()
    return JSONResponse(report, status_code=200 if report["ready"] else 503,
                        headers={"Cache-Control": "no-store"})


class RefuseWhileDraining:
    """State-changing HTTP requests get ``503 draining`` (nothing changed) while the
    worker drains: no new games, claims or chat lines start on a worker that is going."""

    def __init__(self, app: ASGIApp, ops: Ops) -> None:
        self.app = app
        self.ops = ops

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (self.ops.draining and scope["type"] == "http"
                and scope.get("method") in CHANGING):
            response = JSONResponse(
                {"detail": {"code": "draining",
                            "reason": "this server is restarting; try again"}},
                status_code=503, headers={"Retry-After": "1"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
