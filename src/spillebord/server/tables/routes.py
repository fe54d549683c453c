"""The open-table routes (docs/protocol.md, "Open tables and quick match"): the lobby
list, taking a free seat, quick match, and the live lobby socket ``/ws/lobby``."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, WebSocket
from pydantic import BaseModel, Field

from spillebord.server.infra.deps import QuotasDep
from spillebord.server.infra.quotas import client_address
from spillebord.server.people.deps import Player
from spillebord.server.tables.deps import TablesDep
from spillebord.server.tables.service import QuickMatch

router = APIRouter()


class Take(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=7)


@router.get("/api/lobby")
async def lobby(tables: TablesDep,
                game: Annotated[str | None, Query(max_length=32)] = None,
                seats: Annotated[int | None, Query(ge=1, le=8)] = None
                ) -> dict[str, list[dict[str, Any]]]:
    """The open public tables (a free human seat, running), oldest first."""
    listed = await asyncio.to_thread(tables.repo.listing)
    return {"tables": [t for t in listed
                       if (game is None or t["game"] == game)
                       and (seats is None or len(t["seats"]) == seats)]}


@router.post("/api/lobby/{match_id}/take")
async def take(tables: TablesDep, player: Player, match_id: str,
               body: Annotated[Take | None, Body()] = None) -> dict[str, Any]:
    """Take a free seat (``seat``, or the first free one) of a public table."""
    return await tables.take(match_id, body.seat if body else None, player)


@router.post("/api/quick")
async def quick(request: Request, tables: TablesDep, player: Player,
                body: QuickMatch) -> dict[str, Any]:
    """Quick match: a seat at the first public table that fits, or a new one."""
    return await tables.quick(body, player, client_address(request))


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, tables: TablesDep, quotas: QuotasDep) -> None:
    async with quotas.socket(websocket) as admitted:  # sockets per address
        if admitted:
            await websocket.accept()
            await tables.feed.serve(websocket)
