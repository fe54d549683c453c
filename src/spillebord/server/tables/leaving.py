"""A player gives up a seat at a table game ("Opgiv og forlad bordet", issue 27).

The seat is marked given up in the database (``seats.left``), a bot of the table's level
plays it from then on (room/turns.py; its events are ``by_bot``), and its seat token
opens it no more — the player may still watch as a spectator.  The seat keeps its
player: the rating side counts a seat a bot played as that player's loss (issue 28).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.repo import now

if TYPE_CHECKING:
    from spillebord.server.room.session import Session
    from spillebord.server.tables.service import Tables


def seat_left() -> Refusal:
    return Refusal("seat_left", "this seat was given up; a bot plays it now",
                   key="server.seat_left")


async def leave(tables: Tables, leave_seat: Callable[[str, int, datetime], bool],
                session: Session, seat: int | None) -> None:
    """Give up ``seat`` (the caller's): refused for spectators, solitaires (nothing to
    hand over: a solitaire is simply left), finished games and bot seats."""
    if seat is None:
        raise Refusal("spectator", "spectators have no seat to leave")
    if session.solitaire:
        raise Refusal("not_table", "a solitaire has no seat to hand over")
    if not session.running:
        raise Refusal("game_over", "the game has finished")
    row = session.seats[seat]
    if row.kind != "human" or row.left is not None:
        raise seat_left()
    when = now()
    if not await asyncio.to_thread(leave_seat, session.id, seat, when):
        raise Refusal("game_over", "the game has finished")
    tables.seats_written(session.id)  # the other workers' sockets
    session.seat_left(seat, when)  # and this one's
    tables.rooms.ensure_driver(session)
    tables.feed.kick(session.id)
