"""``GET /api/me/games`` (docs/protocol.md): the signed-in player's games on any
device.  Guests keep their list in the browser (localStorage), so the route needs a
sign-in: ``401 no_session`` without one."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from spillebord.server.errors import Refusal
from spillebord.server.http.deps import RepoDep
from spillebord.server.mygames.store import player_games
from spillebord.server.people.deps import SignedIn

router = APIRouter(prefix="/api")


@router.get("/me/games")
async def my_games(repo: RepoDep, player: SignedIn) -> dict[str, Any]:
    """The signed-in player's games, newest first (at most 50): running and finished,
    with the result, place, bonus and the other seats."""
    if player is None:
        raise Refusal("no_session", "sign in to see your games from the server", 401)
    games = await asyncio.to_thread(player_games, repo.engine, player)
    return {"player_id": player, "games": games}
