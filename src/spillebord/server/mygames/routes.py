"""``GET /api/me/games`` (docs/protocol.md): "Dine spil" from the server — a signed-in
player's games on any device, a guest's (its ``X-Player`` id) in its browser, with what
the browser alone cannot know (the result, place or bonus, the others at the table).
Neither a guest id that is an account's (``sign_in_needed``) nor no player at all
(``no_player``) gets a list."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from spillebord.server.errors import Refusal
from spillebord.server.http.deps import RepoDep
from spillebord.server.mygames.store import player_games
from spillebord.server.people.deps import Player, SignedIn

router = APIRouter(prefix="/api")


@router.get("/me/games")
async def my_games(repo: RepoDep, player: Player, account: SignedIn) -> dict[str, Any]:
    """The caller's games, newest first (at most 50): running and finished, with the
    result, place, bonus and the other seats."""
    if player is None:
        raise Refusal("no_player", "sign in, or send your guest id (X-Player)", 401)
    games = await asyncio.to_thread(player_games, repo.engine, player,
                                    account=player == account)
    return {"player_id": player, "games": games}
