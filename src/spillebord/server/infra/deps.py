"""FastAPI dependencies for the infrastructure every layer's routes may read (the
compute pool, the repository, the event bus, the settings, the quotas); app.py puts
each on ``app.state``.  Here, below the features, so a feature's routes can name them
without reaching up to http/."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.infra.bus import EventBus
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.quotas import Quotas
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage.repo import Repository

ComputeDep = Annotated[Compute, Depends(from_state("compute", Compute))]
RepoDep = Annotated[Repository, Depends(from_state("repo", Repository))]
BusDep = Annotated[EventBus, Depends(from_state("bus", EventBus))]
SettingsDep = Annotated[Settings, Depends(from_state("settings", Settings))]
QuotasDep = Annotated[Quotas, Depends(from_state("quotas", Quotas))]
