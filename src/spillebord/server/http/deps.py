"""FastAPI dependencies of the edge's own routes: the operational services (app.py puts
each on ``app.state``), and, handed on from infra/deps.py, the infrastructure they
read.  Each feature package has its own (people/deps.py: the acting player and the
session cookie; room/, tables/, chat/, daily/deps.py), so a route names only the
services it uses."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.http.metrics import Metrics
from spillebord.server.http.ops import Ops
from spillebord.server.infra.deps import BusDep as BusDep
from spillebord.server.infra.deps import ComputeDep as ComputeDep
from spillebord.server.infra.deps import QuotasDep as QuotasDep
from spillebord.server.infra.deps import RepoDep as RepoDep
from spillebord.server.infra.deps import SettingsDep as SettingsDep

OpsDep = Annotated[Ops, Depends(from_state("ops", Ops))]
MetricsDep = Annotated[Metrics, Depends(from_state("metrics", Metrics))]
