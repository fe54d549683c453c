"""The daily-deal routes (docs/protocol.md, "Daily deal"): today's deal, a ranked
attempt, the leaderboard and the last days (the rules in daily/service.py)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query

from spillebord.server.daily.deps import DailyDep
from spillebord.server.daily.service import RANKS, over, public, ranked, today
from spillebord.server.errors import Refusal
from spillebord.server.people.deps import Player, SignedIn
from spillebord.server.room import fairness

router = APIRouter(prefix="/api/daily")
DayQuery = Annotated[str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$")]


@router.get("/attempt/{match_id}")
async def daily_attempt(daily: DailyDep, match_id: str) -> dict[str, Any]:
    """Whether the match is a ranked daily attempt (``daily``) and, if it is, its game,
    day and whether it has finished (the play page says so).  Every game page asks, so
    "not one" is an ordinary answer, not an error."""
    found = await asyncio.to_thread(daily.repo.attempt_of, match_id[:64])
    if found is None:
        return {"match_id": match_id, "daily": False}
    game, day, finished = found
    return {"match_id": match_id, "daily": True, "game": game, "day": day,
            "finished": finished}


@router.get("/{game}")
async def daily_info(daily: DailyDep, game: str, player: Player) -> dict[str, Any]:
    """Today's deal of the game, the caller's attempt (a match id) and streak."""
    return await daily.info(daily.game(game), player)


@router.post("/{game}/play", status_code=201)
async def daily_play(daily: DailyDep, game: str, player: SignedIn) -> dict[str, Any]:
    """Start the signed-in account's one ranked attempt at today's deal."""
    key = daily.game(game)
    return await daily.play(key, player)


@router.get("/{game}/leaderboard")
async def daily_leaderboard(daily: DailyDep, game: str,
                            day: DayQuery = None) -> dict[str, Any]:
    """The attempts of a day (today by default), ranked."""
    key = daily.game(game)
    day = day or today()
    if day > today():
        raise Refusal("no_daily", f"the daily {key} deal of {day} is not played yet", 404)
    found = await daily.deal(key, day)
    attempts = await asyncio.to_thread(daily.repo.attempts, key, day)
    players = ranked(attempts)
    if not over(day):  # the attempts (their lines) open when the day is over
        players = [{**p, "match_id": None} for p in players]
    return {**public(found), "game": key, "ranks": list(RANKS), "players": players}


@router.get("/{game}/commitments")
async def daily_commitments(daily: DailyDep, game: str) -> dict[str, Any]:
    """The commitments of today's and the next days' deals (docs/protocol.md, "Checking
    a daily deal"); each deal is revealed when its day is over."""
    key = daily.game(game)
    return {"game": key, "algorithm": fairness.ALGORITHM, "today": today(),
            "days": await daily.commitments(key)}


@router.get("/{game}/days")
async def daily_days(daily: DailyDep, game: str) -> dict[str, Any]:
    """The last 30 days' deals up to today, newest first: the commitment of each, and
    the deal and its reveal once the day is over."""
    key = daily.game(game)
    return {"game": key, "days": [public(d) for d in await asyncio.to_thread(
        daily.repo.days, key, today())]}
