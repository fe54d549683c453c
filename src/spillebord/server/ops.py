"""What an operator's tools ask a worker (docs/deploy.md, "Health, readiness, drain"):

- ``GET /healthz``: the process is alive and its event loop answers (always 200 while
  it runs; nothing is checked beyond that, so a slow database never restarts it);
- ``GET /readyz``: the worker should get traffic — the database answers, its schema is
  at the newest migration, Redis answers (shared mode only) and the worker is not
  draining; 200 or 503 with every check's result.

Both are read-only GETs without cookies or secrets; they say nothing about games.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from spillebord.server.storage import migrate

if TYPE_CHECKING:
    from spillebord.server.hub import Hub
    from spillebord.server.ws import Connection

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)
CHECK_SECONDS = 2.0  # a check that takes longer counts as failed


class Ops:
    """The worker's operational state: draining or not (server/drain.py drains)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.draining = False
        self.connections: set[Connection] = set()  # open game sockets

    async def _database(self) -> tuple[bool, bool]:
        """(reachable, migrations current)."""
        try:
            current = await asyncio.wait_for(
                asyncio.to_thread(migrate.is_current, self.hub.engine), CHECK_SECONDS)
        except Exception:  # unreachable or too slow
            log.warning("readiness: the database did not answer", exc_info=True)
            return False, False
        return True, current

    async def readiness(self) -> dict[str, Any]:
        reachable, current = await self._database()
        checks: dict[str, bool] = {"database": reachable, "migrations": current}
        redis = await self.hub.scale.redis_ok()
        if redis is not None:
            checks["redis"] = redis
        checks["not_draining"] = not self.draining
        return {"ready": all(checks.values()), "checks": checks}


def _ops(request: Request) -> Ops:
    ops: Ops = request.app.state.hub.ops
    return ops


@router.get("/healthz")
async def healthz() -> JSONResponse:
    return JSONResponse({"alive": True}, headers={"Cache-Control": "no-store"})


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    report = await _ops(request).readiness()
    return JSONResponse(report, status_code=200 if report["ready"] else 503,
                        headers={"Cache-Control": "no-store"})
