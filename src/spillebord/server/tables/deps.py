"""The FastAPI dependencies for the open tables and for creating a match."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.tables.lobby import Lobby
from spillebord.server.tables.service import Tables

TablesDep = Annotated[Tables, Depends(from_state("tables", Tables))]
LobbyDep = Annotated[Lobby, Depends(from_state("lobby", Lobby))]
