"""The rating routes (docs/protocol.md, "Ratings"): a leaderboard per table game and
seat-count class, and one player's ratings with their history."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from spillebord.core.rating import seat_class, shown
from spillebord.server.errors import Refusal
from spillebord.server.hub import Hub
from spillebord.server.tables.lobby import check_player
from spillebord.server.tables.storage import seat_people

router = APIRouter(prefix="/api")


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.get("/leaderboard/{game}")
async def leaderboard(request: Request, game: str,
                      seats: Annotated[int, Query(ge=2, le=8)]) -> dict[str, Any]:
    """The rated players of a table game at this seat count's class, best first."""
    hub = hub_of(request)
    g = hub.game_or_refuse(game)
    if g.is_solitaire or seats not in g.seat_counts:
        raise Refusal("bad_seats", f"{g.key} is not rated at {seats} seats")
    klass = seat_class(g.key, seats)
    rows = await asyncio.to_thread(hub.ratings.repo.leaderboard, g.key, klass)
    return {"game": g.key, "class": klass,
            "players": [{"rank": i + 1, "name": r["name"], "player_id": r["player_id"],
                         "rating": shown(r["mu"], r["sigma"]), "mu": r["mu"],
                         "sigma": r["sigma"], "games": r["games"]}
                        for i, r in enumerate(rows)]}


@router.get("/players/{player_id}/ratings")
async def player_ratings(request: Request, player_id: str) -> dict[str, Any]:
    """A player's current ratings and every change (for the chart)."""
    check_player(player_id)
    now_rows, history = await asyncio.to_thread(hub_of(request).ratings.repo.of_player,
                                                player_id)
    return {"player_id": player_id,
            "ratings": [{**r, "rating": shown(r["mu"], r["sigma"])} for r in now_rows],
            "history": [{**h, "rating_before": shown(h["mu_before"], h["sigma_before"]),
                         "rating": shown(h["mu"], h["sigma"])} for h in history]}


@router.get("/matches/{match_id}/players")
async def match_players(request: Request, match_id: str) -> dict[str, Any]:
    """Each seat's display name and rating (for the game page's seat list)."""
    hub = hub_of(request)
    session = await hub.get(match_id)
    hub.release(session)
    return {"seats": await asyncio.to_thread(seat_people, hub.engine, match_id)}
