"""The JSON API under /api (docs/protocol.md, "HTTP API")."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request
from pydantic import BaseModel

from spillebord import games
from spillebord.core.record import GameRecord
from spillebord.server.chat.deps import ChatDep
from spillebord.server.daily.deps import DailyDep
from spillebord.server.errors import Refusal
from spillebord.server.http.deps import QuotasDep, RepoDep
from spillebord.server.infra import compute
from spillebord.server.infra.quotas import client_address
from spillebord.server.people.deps import PeopleDep, PlayerHeader, SessionCookie
from spillebord.server.people.service import check_player
from spillebord.server.people.stats import best_on_deal, player_stats
from spillebord.server.room.deps import RoomsDep
from spillebord.server.room.session import Session, token_hash
from spillebord.server.tables.deps import LobbyDep, TablesDep
from spillebord.server.tables.lobby import CreateMatch

router = APIRouter(prefix="/api")


class Claim(BaseModel):
    player: str | None = None


@router.get("/games")
def list_games() -> list[dict[str, Any]]:
    """Every game offered to players (its manifest says ``ready``) with its flags, bot
    names (with each bot's declared options, the game's levels and default level),
    whether a solver exists, the page's renderer and the outcome reasons."""
    return [
        {**g.info(), **games.manifest(g.key).to_json(), "bots": list(compute.bot_names(g.key)),
         **compute.bot_catalogue(g.key),
         "solver": compute.solver_offers(g.key, "solve", "hint"),
         "winnable": compute.solver_offers(g.key, "pick_winnable_deal"),
         "difficulty": compute.rated_flags(g.key)}
        for g in map(games.load, games.ready_keys())
    ]


@router.post("/players", status_code=201)
async def new_player(request: Request, repo: RepoDep, quotas: QuotasDep) -> dict[str, str]:
    """A fresh player id for the browser to keep (statistics are kept per id)."""
    await quotas.new_guest(client_address(request))  # 429 past the quota
    player_id = secrets.token_urlsafe(12)
    await asyncio.to_thread(repo.create_player, player_id)
    return {"player_id": player_id}


@router.post("/matches", status_code=201)
async def new_match(request: Request, lobby: LobbyDep, people: PeopleDep, body: CreateMatch,
                    x_player: PlayerHeader = None,
                    session: SessionCookie = None) -> dict[str, Any]:
    """Create a match; returns the creator's seat token and one invite per open seat."""
    player = await people.acting(session, check_player(body.player or x_player))
    return await lobby.create(body.model_copy(update={"player": player}), player,
                              client_address(request))


@router.get("/matches/{match_id}")
async def match_info(rooms: RoomsDep, match_id: str) -> dict[str, Any]:
    session = await rooms.get(match_id)
    info = session.public_info()
    rooms.release(session)  # a finished game nobody watches is not kept in memory
    return info


@router.get("/invites/{code}")
async def invite_info(rooms: RoomsDep, repo: RepoDep, code: str) -> dict[str, Any]:
    """What an invite opens, without claiming it: the game, the seat, whether it is still
    free, and the deal's commitment (shown on the invite page before the seat is taken)."""
    found = None if len(code) > 64 else await asyncio.to_thread(
        repo.invite_info, token_hash(code))
    if found is None:
        raise Refusal("bad_invite", "this invite link does not exist", 404)
    match_id, seat, used = found
    session = await rooms.get(match_id)
    fair = session.fair_info()
    info = {"match_id": match_id, "game": session.row.game, "seat": seat, "used": used,
            "status": session.row.status,
            "commitment": fair["commitment"] if fair else None}
    rooms.release(session)
    return info


@router.post("/invites/{code}/claim")
async def claim_invite(tables: TablesDep, people: PeopleDep, code: str,
                       body: Annotated[Claim | None, Body()] = None,
                       x_player: PlayerHeader = None,
                       session: SessionCookie = None) -> dict[str, Any]:
    """Take the invited seat (single use); returns the seat token."""
    if len(code) > 64:
        raise Refusal("bad_invite", "this invite link does not exist", 404)
    player = await people.acting(
        session, check_player((body.player if body else None) or x_player))
    return await tables.claim(code, player)


async def readable(rooms: RoomsDep, daily: DailyDep, match_id: str,
                   authorization: Annotated[str | None, Header()] = None
                   ) -> tuple[Session, int | None]:
    """The session and the caller's seat (None: no valid token), if the caller may read
    the record: the game is over, or it is the caller's own running solitaire."""
    session = await rooms.get(match_id)
    rooms.release(session)
    token = (authorization or "").removeprefix("Bearer ").strip()
    seat = session.seat_for_token(token) if token else None
    if session.running and not (session.solitaire and seat is not None):
        raise Refusal("running", "the record is available when the game is over", 403)
    await daily.refuse_record(match_id, seat)
    return session, seat


Readable = Annotated[tuple[Session, int | None], Depends(readable)]


@router.get("/matches/{match_id}/record")
async def match_record(found: Readable, match_id: str) -> dict[str, Any]:
    """The record and every event: finished games, or your own running solitaire."""
    session, _seat = found
    record = session.record().to_json()
    if session.sealed():  # a ranked daily attempt: no deal until its day is over
        record["deal"] = None
    return {
        "record": record,
        "events": [{**session.event_json(e), "time": e.time.isoformat()}
                   for e in session.events],
        "outcome": session.row.outcome,
        "status": session.row.status,
        "clock": session.clock().to_json() if session.solitaire else None,
    }


@router.get("/players/{player_id}/stats")
async def stats(repo: RepoDep, player_id: str) -> dict[str, Any]:
    """Games, wins and bonus points over time, and results against bots."""
    check_player(player_id)
    return await asyncio.to_thread(player_stats, repo.engine, player_id)


@router.get("/players/{player_id}/best")
async def best(repo: RepoDep, player_id: str, game: str,
               deal: Annotated[int, Query(ge=0, lt=2**63)],
               flags: str = "{}") -> dict[str, Any]:
    """The player's results on one solitaire deal (same variant flags, given as a JSON
    object): games finished, wins and the best result with its time and moves."""
    check_player(player_id)
    if game not in set(games.ready_keys()) or not games.load(game).is_solitaire:
        raise Refusal("unknown_game", f"{game!r} is not a solitaire here", 400)
    try:
        chosen = json.loads(flags)
    except ValueError:
        chosen = None
    if not isinstance(chosen, dict) or not all(
            isinstance(k, str) and isinstance(v, bool) for k, v in chosen.items()):
        raise Refusal("bad_flags", "flags must be a JSON object of true/false values", 400)
    return await asyncio.to_thread(best_on_deal, repo.engine, player_id, game,
                                   deal, chosen)


@router.get("/matches/{match_id}/replay")
async def replay_step(found: Readable, match_id: str,
                      step: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
    """The view after ``step`` effective actions of the record (same access as the
    record): the caller's seat view with a valid token, else the spectator view."""
    session, seat = found
    record = session.record()
    if step > len(record.actions):
        raise Refusal("bad_step", f"the record has {len(record.actions)} actions", 404)
    shortened = GameRecord(record.game, record.seats, record.deal, record.flags,
                           record.actions[:step])
    state = await asyncio.to_thread(shortened.replay, session.game)
    return {"step": step, "total": len(record.actions), "seat": seat,
            "view": state.view(seat), "to_move": state.to_move}


@router.get("/matches/{match_id}/chat")
async def match_chat(rooms: RoomsDep, chat: ChatDep, match_id: str) -> dict[str, Any]:
    """The match's chat, oldest first (everyone at the table and watching sees it)."""
    session = await rooms.get(match_id)
    rooms.release(session)
    return {"messages": await asyncio.to_thread(chat.repo.of_match, match_id)}
