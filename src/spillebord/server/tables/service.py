"""Open tables as the API uses them: take a free seat of a public table, quick match
(the first public table that fits, else a new one), and the sweeper that seats bots of
the chosen level in a table's open seats once its wait is over (exactly once across
workers: the first worker to mark the table filled does it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, StrictInt

from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.infra.background import cancel, every
from spillebord.server.infra.storage.repo import now
from spillebord.server.room.session import new_token, token_hash
from spillebord.server.tables.expiry import Expiry
from spillebord.server.tables.feed import LobbyFeed
from spillebord.server.tables.lobby import CreateMatch, SeatSpec, level_bot
from spillebord.server.tables.storage import TablesRepo

if TYPE_CHECKING:
    from spillebord.server.infra.quotas import Limits
    from spillebord.server.room.registry import Rooms
    from spillebord.server.tables.rematch import Rematches

Create = Callable[..., Awaitable[dict[str, Any]]]  # Lobby.create

log = logging.getLogger(__name__)
SWEEP = 1.0  # seconds between looks for tables whose wait for bots is over


class QuickMatch(BaseModel):
    """``POST /api/quick``: a seat at a public table of this game, seat count, flags and
    turn timer; a new table (with these bot-filling choices) when none has a free seat."""

    game: str = Field(max_length=32)
    seats: int = Field(ge=1, le=8)
    flags: dict[str, bool] = Field(default_factory=dict, max_length=16)
    fill_after: int | None = None
    fill_level: int | None = None
    # The turn timer (room/turns.py): only a table with the same one fits (a player who
    # chose no limit is not rushed, one who chose 30 s does not wait minutes).
    turn_seconds: StrictInt | None = None


class Tables:
    """``create``: open a new match (tables/lobby.py); ``claim_invite``: the repository's
    claim of an invite code; ``seats_written(match)``: tell the other workers (shared
    mode) that seats of the match were written here; ``rematches``: "Spil igen"
    (tables/rematch.py)."""

    def __init__(self, repo: TablesRepo, feed: LobbyFeed, rooms: Rooms, create: Create,
                 claim_invite: Callable[[str, str, str | None], tuple[str, int]],
                 seats_written: Callable[[str], None], limits: Limits,
                 rematches: Rematches) -> None:
        self.repo = repo
        self.rematches = rematches
        self.feed = feed
        self.rooms = rooms
        self.create = create
        self.claim_invite = claim_invite
        self.seats_written = seats_written
        self._sweeper: asyncio.Task[None] | None = None
        # public tables leave the lobby (tables/expiry.py)
        self.expiry = Expiry(limits, rooms, repo.engine, feed.kick)
        self._expiry: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.feed.start()
        self._sweeper = every(SWEEP, self._fill_due, "tables-sweeper",
                              "filling open seats with bots failed", log)
        self._expiry = every(SWEEP, self.expiry.sweep, "tables-expiry",
                             "expiring public tables failed", log)

    async def stop(self) -> None:
        await cancel(self._sweeper)
        await cancel(self._expiry)
        await self.feed.stop()

    # -- seats ------------------------------------------------------------------------
    async def take(self, match_id: str, seat: int | None,
                   player: str | None) -> dict[str, Any]:
        """A free seat of a public table for the caller; returns its seat token."""
        if len(match_id) > 32:
            raise Refusal("not_found", "there is no such public table", 404)
        token = new_token()
        taken = await asyncio.to_thread(self.repo.take_seat, match_id, seat,
                                        token_hash(token), player, now())
        self.seats_written(match_id)  # the other workers' sockets
        session = self.rooms.sessions.get(match_id)
        if session is not None:
            session.claim_seat(taken, token_hash(token), player)  # and this one's
        self.feed.kick(match_id)
        return {"match_id": match_id, "seat": taken, "token": token,
                "play_url": f"/play/{match_id}#token={token}"}

    async def claim(self, code: str, player: str | None) -> dict[str, Any]:
        """The seat an invite code names, for the caller; returns its seat token."""
        token = new_token()
        match_id, seat = await asyncio.to_thread(
            self.claim_invite, token_hash(code), token_hash(token), player)
        self.feed.kick(match_id)  # an open table's seat was taken
        self.seats_written(match_id)  # the other workers' sockets
        session = self.rooms.sessions.get(match_id)
        if session is not None:
            session.claim_seat(seat, token_hash(token), player)  # and this one's
        else:
            session = await self.rooms.get(match_id)
            self.rooms.release(session)
        fair = session.fair_info()
        return {"match_id": match_id, "seat": seat, "token": token,
                "play_url": f"/play/{match_id}#token={token}",
                "commitment": fair["commitment"] if fair else None}

    async def quick(self, req: QuickMatch, player: str | None,
                    address: str | None = None) -> dict[str, Any]:
        """Sit down at the oldest public table that fits, or open one."""
        game = game_or_refuse(req.game)
        if game.is_solitaire or req.seats not in game.seat_counts:
            raise Refusal("bad_seats", f"{game.key} is played at "
                                       f"{', '.join(map(str, game.seat_counts))} seats")
        try:
            flags = game.check_flags(req.flags)
        except ValueError as exc:
            raise Refusal("bad_flags", str(exc)) from None
        for match_id in await asyncio.to_thread(self.repo.find_open, game.key, req.seats,
                                                flags, req.turn_seconds):
            if not self.expiry.all_present(match_id):  # someone seated is away
                continue
            try:
                return {**await self.take(match_id, None, player), "opened": False}
            except Refusal as exc:  # full meanwhile, over, or already mine: the next
                if exc.code not in ("table_full", "seat_taken", "match_over",
                                    "already_seated", "not_found"):
                    raise
        seats: list[SeatSpec] = ["me"]
        seats += ["human"] * (req.seats - 1)
        made = await self.create(CreateMatch(
            game=game.key, flags=flags, seats=seats,
            public=True, fill_after=req.fill_after, fill_level=req.fill_level,
            turn_seconds=req.turn_seconds), player, address)
        return {"match_id": made["match_id"], "seat": made["seat"], "token": made["token"],
                "play_url": made["play_url"], "opened": True}

    # -- bots filling open seats -------------------------------------------------------
    async def _fill_due(self) -> None:
        for match_id, game, level in await asyncio.to_thread(self.repo.due_fills, now()):
            await self.fill(match_id, game, level)

    async def fill(self, match_id: str, game: str, level: int) -> list[int]:
        bot = level_bot(game, level)
        options = {"level": level}
        seats = await asyncio.to_thread(self.repo.fill, match_id, bot, options, now())
        if not seats:
            return seats
        self.seats_written(match_id)  # the other workers' sockets
        session = await self.rooms.get(match_id)
        session.seat_bots(seats, bot, options)  # and this one's
        self.rooms.ensure_driver(session)
        self.feed.kick(match_id)
        log.info("match %s: bots at level %d took seats %s", match_id, level, seats)
        return seats
