"""The FastAPI dependency for the daily deal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from spillebord.server.daily.service import Daily


async def daily(conn: HTTPConnection) -> Daily:
    """The app's Daily (app.py puts it on ``app.state``)."""
    found: Daily = conn.app.state.daily
    return found


DailyDep = Annotated[Daily, Depends(daily)]
