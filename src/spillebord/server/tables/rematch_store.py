"""The database side of "Spil igen" (tables/rematch.py): the ``rematches`` row that
names a finished match's new table (written in the new match's own creating
transaction, so two workers opening it at once leave one table), who has come along
(the new table's claimed human seats), and a seat's claim there.  Blocking functions,
called off the event loop."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.models import invites, matches, rematches, seats
from spillebord.server.infra.storage.repo import already_seated, touch


def record(old: str, when: datetime) -> Callable[[Connection, str], None]:
    """The insert of the rematch row, for the new match's creating transaction (a second
    opener's insert fails on the primary key and its whole new match is rolled back)."""
    def write(conn: Connection, new: str) -> None:
        conn.execute(insert(rematches).values(match_id=old, new_match=new, created=when))
    return write


def new_match_of(engine: Engine, old: str) -> str | None:
    """The new table of the finished match ``old``'s rematch, if one was opened."""
    with engine.connect() as conn:
        found: str | None = conn.execute(select(rematches.c.new_match).where(
            rematches.c.match_id == old)).scalar()
    return found


def offer_of(engine: Engine, old: str) -> tuple[str, list[int]] | None:
    """(new match, the seats that came along) of ``old``'s rematch, if there is one."""
    with engine.connect() as conn:
        new: str | None = conn.execute(select(rematches.c.new_match).where(
            rematches.c.match_id == old)).scalar()
        if new is None:
            return None
        came = [int(s) for s in conn.execute(
            select(seats.c.seat).where(seats.c.match_id == new, seats.c.kind == "human",
                                       seats.c.token_hash.is_not(None))
            .order_by(seats.c.seat)).scalars()]
    return new, came


def claim(engine: Engine, new: str, seat: int, token_hash: str, player: str | None,
          when: datetime) -> bool:
    """Seat ``seat`` of the rematch table ``new`` for the seat's player (the same seat
    at the finished table).  False when it already holds this very token (asked twice:
    nothing to do).  Refused when the new game is over or bots took the seat."""
    try:
        with engine.begin() as conn:
            status = conn.execute(select(matches.c.status).where(
                matches.c.id == new)).scalar()
            if status != "running":
                raise Refusal("rematch_closed", "the new game has already finished", 410,
                              key="server.rematch_over")
            row = conn.execute(select(seats.c.kind, seats.c.token_hash).where(
                seats.c.match_id == new, seats.c.seat == seat)).first()
            if row is None or row.kind != "human":
                raise Refusal("rematch_closed", "the wait is over: a computer plays "
                                                "this seat at the new table", 409,
                              key="server.rematch_closed")
            if row.token_hash == token_hash:
                return False
            done = conn.execute(update(seats).where(
                seats.c.match_id == new, seats.c.seat == seat, seats.c.kind == "human",
                seats.c.token_hash.is_(None)).values(token_hash=token_hash,
                                                     player_id=player))
            if done.rowcount != 1:
                raise Refusal("seat_taken", "someone else has this seat at the new table",
                              409)
            conn.execute(update(invites).where(
                invites.c.match_id == new, invites.c.seat == seat,
                invites.c.used.is_(None)).values(used=when))
            touch(conn, new, when)
            return True
    except IntegrityError:
        raise already_seated() from None
