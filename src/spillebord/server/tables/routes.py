"""The open-table routes (docs/protocol.md, "Open tables and quick match"): the lobby
list, taking a free seat, quick match, and the live lobby socket ``/ws/lobby``."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Cookie, Header, Query, Request, WebSocket
from pydantic import BaseModel, Field

from spillebord.server.http.quotas import client_address
from spillebord.server.hub import Hub
from spillebord.server.tables.lobby import check_player
from spillebord.server.tables.service import QuickMatch

router = APIRouter()
PlayerHeader = Annotated[str | None, Header(alias="X-Player")]
SessionCookie = Annotated[str | None, Cookie(alias="spillebord_session")]


class Take(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=7)


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.get("/api/lobby")
async def lobby(request: Request,
                game: Annotated[str | None, Query(max_length=32)] = None,
                seats: Annotated[int | None, Query(ge=1, le=8)] = None
                ) -> dict[str, list[dict[str, Any]]]:
    """The open public tables (a free human seat, running), oldest first."""
    listed = await asyncio.to_thread(hub_of(request).tables.repo.listing)
    return {"tables": [t for t in listed
                       if (game is None or t["game"] == game)
                       and (seats is None or len(t["seats"]) == seats)]}


@router.post("/api/lobby/{match_id}/take")
async def take(request: Request, match_id: str,
               body: Annotated[Take | None, Body()] = None,
               x_player: PlayerHeader = None,
               session: SessionCookie = None) -> dict[str, Any]:
    """Take a free seat (``seat``, or the first free one) of a public table."""
    hub = hub_of(request)
    player = await hub.people.acting(session, check_player(x_player))
    return await hub.tables.take(match_id, body.seat if body else None, player)


@router.post("/api/quick")
async def quick(request: Request, body: QuickMatch, x_player: PlayerHeader = None,
                session: SessionCookie = None) -> dict[str, Any]:
    """Quick match: a seat at the first public table that fits, or a new one."""
    hub = hub_of(request)
    player = await hub.people.acting(session, check_player(x_player))
    return await hub.tables.quick(body, player, client_address(request))


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    async with hub.quotas.socket(websocket) as admitted:  # sockets per address
        if admitted:
            await websocket.accept()
            await hub.tables.feed.serve(websocket)
