"""The bot accounts' routes (docs/protocol.md, "Bot accounts and the bot ladder"): sign
up as a declared bot, whether a player is one, and a game's bot ladder."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from spillebord.core.rating import seat_class, shown
from spillebord.server.botaccounts.repo import BotAccountsRepo
from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.infra.storage.repo import now
from spillebord.server.people import routes as people_routes
from spillebord.server.people.deps import people as people_of
from spillebord.server.people.service import check_player

router = APIRouter(prefix="/api")
Z95 = 1.96


class BotSignUpBody(BaseModel):
    name: str = Field(max_length=people_routes.LONG)
    password: str = Field(max_length=people_routes.LONG)
    about: str | None = Field(default=None, max_length=200)


def repo_of(request: Request) -> BotAccountsRepo:
    repo: BotAccountsRepo = request.app.state.bot_ladder.repo
    return repo


@router.post("/bot-account", status_code=201)
async def bot_sign_up(request: Request, response: Response,
                      body: BotSignUpBody) -> dict[str, object]:
    """Make a new account declared as a bot (a program plays it); signs in."""
    people = people_of(request)
    signed = await people.sign_up(None, None, body.name, body.password)
    about = (body.about or "").strip() or None
    await asyncio.to_thread(repo_of(request).declare, signed.player_id, about, now())
    out = people_routes._set_cookie(request, response, signed, people.settings.session_days)
    return {**out, "bot": True, "about": about}


@router.get("/bot-accounts/{player_id}")
async def bot_account(request: Request, player_id: str) -> dict[str, object]:
    """Whether a player is a declared bot, and what its owner says of it."""
    check_player(player_id)
    found = await asyncio.to_thread(repo_of(request).declared, player_id)
    if found is None:
        return {"player_id": player_id, "bot": False, "name": None, "about": None}
    return {**found, "bot": True}


@router.get("/bot-ladder/{game}")
async def bot_ladder(request: Request, game: str,
                     seats: Annotated[int, Query(ge=2, le=8)]) -> dict[str, Any]:
    """The bot ladder of a table game at this seat count's class, best first."""
    g = game_or_refuse(game)
    if g.is_solitaire or seats not in g.seat_counts:
        raise Refusal("bad_seats", f"{g.key} has no ladder at {seats} seats")
    klass = seat_class(g.key, seats)
    rows = await asyncio.to_thread(repo_of(request).board, g.key, klass)
    return {"game": g.key, "class": klass, "entries": [_entry(i, r) for i, r in
                                                       enumerate(rows)]}


def _entry(i: int, r: dict[str, Any]) -> dict[str, Any]:
    kind, _, what = r["entry"].partition(":")
    house = kind in ("level", "bot") and what != ""
    return {"rank": i + 1, "kind": kind if house else "account",
            "player_id": None if house else r["entry"],
            "name": None if house else r["name"], "about": None if house else r["about"],
            "level": int(what) if kind == "level" and house else None,
            "bot": what if kind == "bot" and house else None,
            "rating": shown(r["mu"], r["sigma"]), "mu": r["mu"], "sigma": r["sigma"],
            "ci95": [r["mu"] - Z95 * r["sigma"], r["mu"] + Z95 * r["sigma"]],
            "games": r["games"]}
