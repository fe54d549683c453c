"""The FastAPI dependency for the daily deal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.daily.service import Daily

DailyDep = Annotated[Daily, Depends(from_state("daily", Daily))]
