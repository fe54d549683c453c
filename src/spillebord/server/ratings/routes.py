"""The rating routes (docs/protocol.md, "Ratings"): a leaderboard per table game and
seat-count class, and one player's ratings with their history."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from starlette.requests import HTTPConnection

from spillebord.core.rating import seat_class, shown
from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.people.service import check_player
from spillebord.server.ratings.service import Ratings
from spillebord.server.room.deps import RoomsDep
from spillebord.server.tables.storage import seat_people

router = APIRouter(prefix="/api")


def ratings(conn: HTTPConnection) -> Ratings:
    """The app's rating service (app.py puts it on ``app.state``)."""
    found: Ratings = conn.app.state.ratings
    return found


RatingsDep = Annotated[Ratings, Depends(ratings)]


@router.get("/leaderboard/{game}")
async def leaderboard(ratings: RatingsDep, game: str,
                      seats: Annotated[int, Query(ge=2, le=8)]) -> dict[str, Any]:
    """The rated players of a table game at this seat count's class, best first."""
    g = game_or_refuse(game)
    if g.is_solitaire or seats not in g.seat_counts:
        raise Refusal("bad_seats", f"{g.key} is not rated at {seats} seats")
    klass = seat_class(g.key, seats)
    rows = await asyncio.to_thread(ratings.repo.leaderboard, g.key, klass)
    return {"game": g.key, "class": klass,
            "players": [{"rank": i + 1, "name": r["name"], "player_id": r["player_id"],
                         "rating": shown(r["mu"], r["sigma"]), "mu": r["mu"],
                         "sigma": r["sigma"], "games": r["games"]}
                        for i, r in enumerate(rows)]}


@router.get("/players/{player_id}/ratings")
async def player_ratings(ratings: RatingsDep, player_id: str) -> dict[str, Any]:
    """A player's current ratings and every change (for the chart)."""
    check_player(player_id)
    now_rows, history = await asyncio.to_thread(ratings.repo.of_player, player_id)
    return {"player_id": player_id,
            "ratings": [{**r, "rating": shown(r["mu"], r["sigma"])} for r in now_rows],
            "history": [{**h, "rating_before": shown(h["mu_before"], h["sigma_before"]),
                         "rating": shown(h["mu"], h["sigma"])} for h in history]}


@router.get("/matches/{match_id}/players")
async def match_players(rooms: RoomsDep, ratings: RatingsDep,
                        match_id: str) -> dict[str, Any]:
    """Each seat's display name and rating (for the game page's seat list)."""
    session = await rooms.get(match_id)
    rooms.release(session)
    return {"seats": await asyncio.to_thread(seat_people, ratings.repo.engine, match_id)}
