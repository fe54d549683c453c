"""The FastAPI dependency for the live rooms."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from spillebord.server.room.registry import Rooms


async def rooms(conn: HTTPConnection) -> Rooms:
    """The app's Rooms (app.py puts it on ``app.state``)."""
    found: Rooms = conn.app.state.rooms
    return found


RoomsDep = Annotated[Rooms, Depends(rooms)]
