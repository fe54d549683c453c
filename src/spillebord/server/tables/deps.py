"""The FastAPI dependencies for the open tables and for creating a match."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from spillebord.server.tables.lobby import Lobby
from spillebord.server.tables.service import Tables


async def tables(conn: HTTPConnection) -> Tables:
    """The app's Tables (app.py puts it on ``app.state``)."""
    found: Tables = conn.app.state.tables
    return found


TablesDep = Annotated[Tables, Depends(tables)]


async def lobby(conn: HTTPConnection) -> Lobby:
    """The app's Lobby (app.py puts it on ``app.state``)."""
    found: Lobby = conn.app.state.lobby
    return found


LobbyDep = Annotated[Lobby, Depends(lobby)]
