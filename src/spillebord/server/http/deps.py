"""FastAPI dependencies of the edge's own routes: the operational services and the
infrastructure they read (app.py puts each on ``app.state``).  Each feature package has
its own (people/deps.py: the acting player and the session cookie; room/, tables/,
chat/, daily/deps.py), so a route names only the services it uses."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from spillebord.server.http.metrics import Metrics
from spillebord.server.http.ops import Ops
from spillebord.server.http.quotas import Quotas
from spillebord.server.infra.bus import EventBus
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage.repo import Repository


async def ops(conn: HTTPConnection) -> Ops:
    found: Ops = conn.app.state.ops
    return found


OpsDep = Annotated[Ops, Depends(ops)]


async def metrics(conn: HTTPConnection) -> Metrics:
    found: Metrics = conn.app.state.metrics
    return found


MetricsDep = Annotated[Metrics, Depends(metrics)]


async def compute(conn: HTTPConnection) -> Compute:
    found: Compute = conn.app.state.compute
    return found


ComputeDep = Annotated[Compute, Depends(compute)]


async def repo(conn: HTTPConnection) -> Repository:
    found: Repository = conn.app.state.repo
    return found


RepoDep = Annotated[Repository, Depends(repo)]


async def bus(conn: HTTPConnection) -> EventBus:
    found: EventBus = conn.app.state.bus
    return found


BusDep = Annotated[EventBus, Depends(bus)]


async def settings(conn: HTTPConnection) -> Settings:
    found: Settings = conn.app.state.settings
    return found


SettingsDep = Annotated[Settings, Depends(settings)]


async def quotas(conn: HTTPConnection) -> Quotas:
    found: Quotas = conn.app.state.quotas
    return found


QuotasDep = Annotated[Quotas, Depends(quotas)]
