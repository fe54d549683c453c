"""FastAPI dependencies of the edge's own routes: the operational services and the
infrastructure they read (app.py puts each on ``app.state``).  Each feature package has
its own (people/deps.py: the acting player and the session cookie; room/, tables/,
chat/, daily/deps.py), so a route names only the services it uses."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.http.metrics import Metrics
from spillebord.server.http.ops import Ops
from spillebord.server.infra.bus import EventBus
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.quotas import Quotas
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage.repo import Repository

OpsDep = Annotated[Ops, Depends(from_state("ops", Ops))]
MetricsDep = Annotated[Metrics, Depends(from_state("metrics", Metrics))]
ComputeDep = Annotated[Compute, Depends(from_state("compute", Compute))]
RepoDep = Annotated[Repository, Depends(from_state("repo", Repository))]
BusDep = Annotated[EventBus, Depends(from_state("bus", EventBus))]
SettingsDep = Annotated[Settings, Depends(from_state("settings", Settings))]
QuotasDep = Annotated[Quotas, Depends(from_state("quotas", Quotas))]
