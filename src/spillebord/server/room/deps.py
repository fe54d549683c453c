"""The FastAPI dependency for the live rooms."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.room.registry import Rooms

RoomsDep = Annotated[Rooms, Depends(from_state("rooms", Rooms))]
