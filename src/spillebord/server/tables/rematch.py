""""Spil igen": a rematch with the same seats and a fresh fair deal (issue 27).

When a table game is over, every human seat is offered a rematch (the ``rematch``
socket message).  The first seat to accept opens the new table: the same game, variant,
seat count, bots (with their options), turn timer and takeover setting, and a new sealed
random deal (tables/lobby.py: a fresh commitment, like any table).  Each seat that
accepts is seated at its own seat number there (the same player id) and answered with
its token, so the seats that accept move to the new table together.  The seats that do
not accept stay open, and after ``WAIT`` seconds bots of the table's level take them
(the open-table sweeper, tables/service.py) — so the players who said yes get a game
even when somebody left.

The offer is kept in the database (``rematches``, tables/rematch_store.py), so seats on
different workers meet at one table: the row is written in the new match's own
creating transaction, and of two workers opening at once the second's insert fails and
takes the first's table.  Who came along is the new table's claimed seats.  A seat's
token there is derived from a kept server secret (HMAC of the two matches and the seat),
so asking again — on any worker, after a lost answer — gives the same token.  The
finished room shows the offer (``Session.rematch``); a worker re-reads it when a socket
opens, on a refresh, and when another worker's notice says it changed (``heard``).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spillebord import bots
from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.repo import now
from spillebord.server.infra.storage.secrets import kept_secret
from spillebord.server.room.session import token_hash
from spillebord.server.tables import rematch_store as store
from spillebord.server.tables.lobby import BotSeat, CreateMatch

if TYPE_CHECKING:
    from spillebord.server.room.registry import Rooms
    from spillebord.server.room.session import Session

log = logging.getLogger(__name__)
WAIT = 60  # seconds before bots take the seats nobody accepted for
SECRET_NAME = "rematch"  # the kept secret the seats' tokens are derived from

Create = Callable[..., Awaitable[dict[str, Any]]]  # Lobby.create


@dataclass
class Offer:
    """The rematch of one finished match as its room shows it: the new table and the
    seats that moved there."""

    match_id: str
    accepted: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "accepted": sorted(self.accepted)}


def table_level(session: Session) -> int | None:
    """The level of the table's bots (turns.table_bot's choice), if the game has levels."""
    from spillebord.server.room import turns

    options = turns.table_bot(session)[1]
    level = options.get("level")
    return level if isinstance(level, int) and level in bots.levels(session.row.game) \
        else None


def seat_token(secret: str, old: str, new: str, seat: int) -> str:
    """The seat's token at the new table: the same on every worker and every asking."""
    digest = hmac.new(secret.encode(), f"rematch {old} {new} {seat}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


class Rematches:
    """``accept`` (a seat's "Spil igen"), ``show`` (read the offer into a finished
    room), ``heard`` (another worker changed it).  ``create``: Lobby.create;
    ``seats_written``: tell the other workers a match's seats changed; ``notify``
    (shared mode): tell them a finished match's offer changed."""

    def __init__(self, engine: Engine, rooms: Rooms, create: Create,
                 seats_written: Callable[[str], None], min_fill: int,
                 notify: Callable[[str], None] | None = None) -> None:
        self.engine = engine
        self.rooms = rooms
        self.create = create
        self.seats_written = seats_written
        self.min_fill = min_fill
        self.notify = notify
        self._secret: str | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def accept(self, session: Session, seat: int | None) -> dict[str, Any]:
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
        new = await asyncio.to_thread(store.new_match_of, self.engine, session.id)
        if new is None:
            async with session.rematch_lock:  # one opener on this worker
                new = await asyncio.to_thread(store.new_match_of, self.engine, session.id)
                if new is None:
                    new = await self._open(session)
        token = seat_token(await self._kept_secret(), session.id, new, seat)
        hashed = token_hash(token)
        if await asyncio.to_thread(store.claim, self.engine, new, seat, hashed,
                                   row.player_id, now()):
            self.seats_written(new)  # the other workers' sockets of the new table
            there = self.rooms.sessions.get(new)
            if there is not None:
                there.claim_seat(seat, hashed, row.player_id)  # and this one's
        await self.show(session)  # every seat here sees who is coming along
        if self.notify is not None:
            self.notify(session.id)  # and every seat on the other workers
        return {"match_id": new, "seat": seat, "token": token,
                "play_url": f"/play/{new}#token={token}"}

    async def _open(self, session: Session) -> str:
        """Open the new table (its rematch row in the same transaction); the table
        another worker opened first when it won the race."""
        r = session.row
        specs: list[Any] = []
        for s in session.seats:
            if s.kind == "bot":
                specs.append(BotSeat(bot=s.bot, options=dict(s.level or {})))
            else:
                specs.append("human")
        level = table_level(session)
        try:
            made = await self.create(CreateMatch(
                game=r.game, flags=dict(r.flags), seats=specs, deal="random",
                takeover_seconds=r.takeover_seconds, turn_seconds=r.turn_seconds,
                fill_after=max(WAIT, self.min_fill) if level is not None else None,
                fill_level=level), None, also=store.record(session.id, now()))
        except IntegrityError:
            first = await asyncio.to_thread(store.new_match_of, self.engine, session.id)
            if first is None:
                raise
            return first
        return str(made["match_id"])

    async def _kept_secret(self) -> str:
        if self._secret is None:
            self._secret = await asyncio.to_thread(kept_secret, self.engine, SECRET_NAME,
                                                   now())
        return self._secret

    async def show(self, session: Session) -> None:
        """Read a finished table game's offer into its room; its sockets here get a
        ``seats`` message when it changed.  Only a display: a failed read is logged and
        the next socket, refresh or notice reads it again.  Reads end in any order (two
        sockets, a notice and a yes at once): a read older than the one shown is
        dropped, so the room never goes back to fewer seats than it showed."""
        if session.solitaire or session.running:
            return
        read = session.rematch_reads.begin()
        try:
            found = await asyncio.to_thread(store.offer_of, self.engine, session.id)
        except Exception:
            log.warning("reading the rematch of %s failed", session.id, exc_info=True)
            return
        if found is None or not session.rematch_reads.take(read):
            return  # nothing yet, or a newer read (started later) is already shown
        offer = Offer(*found)
        shown = session.rematch
        if shown is None or shown.to_json() != offer.to_json():
            session.rematch = offer
            session.seats_changed()

    def heard(self, match_id: str) -> None:
        """Another worker changed the offer of ``match_id``: re-read it if the room is
        here."""
        session = self.rooms.sessions.get(match_id)
        if session is None:
            return
        task = asyncio.get_running_loop().create_task(self.show(session))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
