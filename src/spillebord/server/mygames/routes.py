"""``GET /api/me/games`` (docs/protocol.md): the signed-in player's games on any
device.  Guests keep their list in the browser (localStorage), so the route needs a
sign-in: ``401 no_session`` without one."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Request

from spillebord.server.errors import Refusal
from spillebord.server.mygames.store import player_games

router = APIRouter(prefix="/api")
SessionCookie = Annotated[str | None, Cookie(alias="spillebord_session")]


@router.get("/me/games")
async def my_games(request: Request, session: SessionCookie = None) -> dict[str, Any]:
    """The signed-in player's games, newest first (at most 50): running and finished,
    with the result, place, bonus and the other seats."""
    hub = request.app.state.hub
    player = await hub.people.session_player(session)
    if player is None:
        raise Refusal("no_session", "sign in to see your games from the server", 401)
    games = await asyncio.to_thread(player_games, hub.engine, player)
    return {"player_id": player, "games": games}
