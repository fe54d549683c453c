""""Spil igen": a rematch with the same seats and a fresh fair deal (issue 27).

When a table game is over, every human seat is offered a rematch (the ``rematch``
socket message).  The first seat to accept opens the new table: the same game, variant,
seat count, bots (with their options), turn timer and takeover setting, and a new sealed
random deal (tables/lobby.py: a fresh commitment, like any table).  Each human seat
gets an invite held by the server; a seat that accepts claims its own (the same player
id) and is answered with its new token, so the seats that accept move to the new table
together.  The seats that do not accept stay open, and after ``WAIT`` seconds bots of
the table's level take them (the open-table sweeper, tables/service.py) — so the
players who said yes get a game even when somebody left.  The offer lives in the
worker's memory with the finished game (a restart ends it; docs/web.md).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spillebord import bots
from spillebord.server.errors import Refusal
from spillebord.server.tables.lobby import BotSeat, CreateMatch

if TYPE_CHECKING:
    from spillebord.server.room.session import Session
    from spillebord.server.tables.service import Tables

WAIT = 60  # seconds before bots take the seats nobody accepted for


@dataclass
class Offer:
    """The rematch of one finished match: the new table and who moved there."""

    match_id: str
    codes: dict[int, str]  # seat → the invite code the server holds for it
    tokens: dict[int, str] = field(default_factory=dict)  # seats that accepted
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def to_json(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "accepted": sorted(self.tokens)}


def table_level(session: Session) -> int | None:
    """The level of the table's bots (turns.table_bot's choice), if the game has levels."""
    from spillebord.server.room import turns

    options = turns.table_bot(session)[1]
    level = options.get("level")
    return level if isinstance(level, int) and level in bots.levels(session.row.game) \
        else None


async def _open(tables: Tables, min_fill: int, session: Session) -> Offer:

    r = session.row
    specs: list[Any] = []
    for seat in session.seats:
        if seat.kind == "bot":
            specs.append(BotSeat(bot=seat.bot, options=dict(seat.level or {})))
        else:
            specs.append("human")
    level = table_level(session)
    made = await tables.create(CreateMatch(
        game=r.game, flags=dict(r.flags), seats=specs, deal="random",
        takeover_seconds=r.takeover_seconds, turn_seconds=r.turn_seconds,
        fill_after=max(WAIT, min_fill) if level is not None else None,
        fill_level=level), None)
    return Offer(made["match_id"], {inv["seat"]: inv["code"] for inv in made["invites"]})


def _offer(session: Session) -> Offer | None:
    shown = session.rematch
    return shown if isinstance(shown, Offer) else None


async def accept(tables: Tables, min_fill: int, session: Session,
                 seat: int | None) -> dict[str, Any]:
    """The seat says yes: its seat at the new table (opened by the first yes)."""
    if seat is None:
        raise Refusal("spectator", "spectators have no seat to play again")
    if session.solitaire:
        raise Refusal("not_table", "a solitaire starts again from the start page")
    if session.running:
        raise Refusal("not_over", "the game is still running")
    row = session.seats[seat]
    if row.kind != "human" or row.left is not None:
        raise Refusal("seat_left", "this seat was given up; a bot played it",
                      key="server.seat_left")
    offer = _offer(session)
    if offer is None:
        async with session.rematch_lock:
            offer = _offer(session)
            if offer is None:
                offer = await _open(tables, min_fill, session)
                session.rematch = offer
    async with offer.lock:
        token = offer.tokens.get(seat)
        if token is None:
            claimed = await tables.claim(offer.codes[seat], row.player_id)
            token = offer.tokens[seat] = str(claimed["token"])
    session.seats_changed()  # every seat sees who is coming along
    return {"match_id": offer.match_id, "seat": seat, "token": token,
            "play_url": f"/play/{offer.match_id}#token={token}"}
