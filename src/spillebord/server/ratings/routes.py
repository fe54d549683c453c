"""The rating routes (docs/protocol.md, "Ratings"): a leaderboard per table game and
seat-count class, one player's ratings with their history, and whether a match counts
for the ratings (issue 28)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from spillebord.core.rating import seat_class, shown
from spillebord.core.rating_rules import ESTABLISHED_GAMES, ESTABLISHED_OTHERS, established
from spillebord.server.appstate import from_state
from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.people.deps import Player
from spillebord.server.people.service import check_player
from spillebord.server.ratings.service import Ratings
from spillebord.server.ratings.storage import rated_status
from spillebord.server.room.deps import RoomsDep
from spillebord.server.tables.storage import seat_people

router = APIRouter(prefix="/api")


RatingsDep = Annotated[Ratings, Depends(from_state("ratings", Ratings))]


@router.get("/leaderboard/{game}")
async def leaderboard(ratings: RatingsDep, me: Player, game: str,
                      seats: Annotated[int, Query(ge=2, le=8)]) -> dict[str, Any]:
    """The established ratings of a table game at this seat count's class, best first
    (core/rating_rules.py); the caller's own provisional rating, if any, as ``mine``."""
    g = game_or_refuse(game)
    if g.is_solitaire or seats not in g.seat_counts:
        raise Refusal("bad_seats", f"{g.key} is not rated at {seats} seats")
    klass = seat_class(g.key, seats)
    repo = ratings.repo
    rows = await asyncio.to_thread(repo.leaderboard, g.key, klass, 1000)
    others = await asyncio.to_thread(repo.others, g.key, klass)

    def entry(r: dict[str, Any], rank: int | None) -> dict[str, Any]:
        return {"rank": rank, "name": r["name"], "player_id": r["player_id"],
                "rating": shown(r["mu"], r["sigma"]), "mu": r["mu"], "sigma": r["sigma"],
                "games": r["games"], "others": others.get(r["player_id"], 0),
                "provisional": not established(r["games"], others.get(r["player_id"], 0))}

    board = [r for r in rows if established(r["games"], others.get(r["player_id"], 0))]
    own = next((r for r in rows if r["player_id"] == me and r not in board), None)
    return {"game": g.key, "class": klass,
            "established": {"games": ESTABLISHED_GAMES, "others": ESTABLISHED_OTHERS},
            "players": [entry(r, i + 1) for i, r in enumerate(board[:100])],
            "mine": None if own is None else entry(own, None)}


@router.get("/players/{player_id}/ratings")
async def player_ratings(ratings: RatingsDep, player_id: str) -> dict[str, Any]:
    """A player's current ratings and every change (for the chart)."""
    check_player(player_id)
    repo = ratings.repo
    now_rows, history = await asyncio.to_thread(repo.of_player, player_id)
    counts = {(r["game"], r["class"]): (await asyncio.to_thread(
        repo.others, r["game"], r["class"], [player_id])).get(player_id, 0)
        for r in now_rows}
    return {"player_id": player_id,
            "ratings": [{**r, "rating": shown(r["mu"], r["sigma"]),
                         "others": counts[(r["game"], r["class"])],
                         "provisional": not established(r["games"],
                                                        counts[(r["game"], r["class"])])}
                        for r in now_rows],
            "history": [{**h, "rating_before": shown(h["mu_before"], h["sigma_before"]),
                         "rating": shown(h["mu"], h["sigma"])} for h in history]}


@router.get("/matches/{match_id}/rated")
async def match_rated(ratings: RatingsDep, match_id: str) -> dict[str, Any]:
    """Whether the game counts for the ratings and, if not, why (shown at the table)."""
    found = await asyncio.to_thread(rated_status, ratings.repo.engine, match_id[:64])
    if found is None:
        raise Refusal("not_found", "there is no such match", 404)
    return {"match_id": match_id, **found}


@router.get("/matches/{match_id}/players")
async def match_players(rooms: RoomsDep, ratings: RatingsDep,
                        match_id: str) -> dict[str, Any]:
    """Each seat's display name and rating (for the game page's seat list)."""
    session = await rooms.get(match_id)
    rooms.release(session)
    return {"seats": await asyncio.to_thread(seat_people, ratings.repo.engine, match_id)}
