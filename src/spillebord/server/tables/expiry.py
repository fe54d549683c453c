"""Public tables expire (issue 29, finding 6: quick-match players were seated at tables
whose host never came).  docs/server.md "Open tables and quick match":

- a public table whose creator has had no socket for ``table_away_seconds`` (60) leaves
  the lobby (``open_tables.away`` set, the lobby socket sends ``gone``); it comes back
  when the creator does;
- a public table that nobody joined within ``table_close_seconds`` (900) leaves the
  lobby for good (``public`` false): the match stays the creator's own, private game;
- quick match seats a player only at a table where every taken human seat has a socket
  (``all_present``), else it tries the next table or opens a new one.

The sweep runs on the worker that has the game in memory; presence counts the sockets
of every worker (sessions.py).  In shared mode a table no worker has in memory is left
as it is until one loads it.  A value of 0 switches the rule off.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from spillebord.server.infra.storage.models import matches, open_tables, seats
from spillebord.server.infra.storage.repo import now

if TYPE_CHECKING:
    from spillebord.server.infra.quotas import Limits
    from spillebord.server.room.registry import Rooms
    from spillebord.server.room.session import Session

log = logging.getLogger(__name__)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def public_tables(engine: Engine) -> list[tuple[str, datetime, bool, bool]]:
    """(match, created, away, someone joined) of the running public tables not filled
    by bots; "joined": a human seat other than the creator's is taken."""
    with engine.connect() as conn:
        heads = conn.execute(
            select(open_tables.c.match_id, open_tables.c.created, open_tables.c.away,
                   matches.c.creator)
            .join(matches, matches.c.id == open_tables.c.match_id)
            .where(open_tables.c.public.is_(True), open_tables.c.filled.is_(None),
                   matches.c.status == "running")).all()
        ids = [h.match_id for h in heads]
        taken: dict[str, int] = {}
        for start in range(0, len(ids), 500):
            for s in conn.execute(select(seats.c.match_id).where(
                    seats.c.match_id.in_(ids[start:start + 500]), seats.c.kind == "human",
                    seats.c.token_hash.is_not(None))):
                taken[s.match_id] = taken.get(s.match_id, 0) + 1
    return [(h.match_id, _aware(h.created), h.away is not None, taken.get(h.match_id, 0) > 1)
            for h in heads]


def mark(engine: Engine, match_id: str, *, away: bool, close: bool = False) -> bool:
    """Take the table out of the lobby (``away``; ``close``: for good) or put it back;
    True when this call changed it."""
    when = now()
    cond = [open_tables.c.match_id == match_id]
    cond.append(open_tables.c.away.is_(None) if away or close else
                open_tables.c.away.is_not(None))
    values: dict[str, object] = {"away": when if away or close else None, "changed": when}
    if close:
        values["public"] = False
    with engine.begin() as conn:
        return bool(conn.execute(update(open_tables).where(*cond).values(**values)).rowcount)


def creator_seat(session: Session) -> int | None:
    """The creator's seat: the seat of the creating player, else the first human seat
    that had a token when the table was made (the "me" seat)."""
    creator = session.row.creator
    for s in session.seats:
        if s.kind == "human" and creator is not None and s.player_id == creator:
            return s.seat
    return next((s.seat for s in session.seats
                 if s.kind == "human" and s.token_hash is not None), None)


class Expiry:
    """``limits``: the table timings (infra/settings.py); ``rooms``: this worker's live
    rooms; ``engine``: the database; ``kick``: the live lobby looks at a table again."""

    def __init__(self, limits: Limits, rooms: Rooms, engine: Engine,
                 kick: Callable[[str], None]) -> None:
        self.limits = limits
        self.rooms = rooms
        self.engine = engine
        self.kick = kick

    def all_present(self, match_id: str) -> bool:
        """Quick match may seat a player here: every taken human seat has a socket (a
        table not in memory here has none on one worker; shared mode: unknown, yes)."""
        if self.limits.table_away_seconds <= 0:
            return True
        session = self.rooms.sessions.get(match_id)
        if session is None:
            return self.rooms.shared
        return all(session.present(s.seat) for s in session.seats
                   if s.kind == "human" and s.token_hash is not None)

    async def sweep(self) -> None:
        """One look at every public table (the tables sweeper calls it each second)."""
        limits = self.limits
        away_after, close_after = limits.table_away_seconds, limits.table_close_seconds
        if away_after <= 0 and close_after <= 0:
            return
        engine = self.engine
        changed: list[str] = []
        at = now()
        for match_id, created, away, joined in await asyncio.to_thread(public_tables,
                                                                       engine):
            if close_after > 0 and not joined and at - created > timedelta(
                    seconds=close_after):
                if await asyncio.to_thread(mark, engine, match_id, away=True, close=True):
                    log.info("public table %s closed: nobody joined it", match_id)
                    changed.append(match_id)
                continue
            if away_after <= 0:
                continue
            gone = self._creator_away(match_id, created, at)
            if gone is None or gone == away:
                continue
            if await asyncio.to_thread(mark, engine, match_id, away=gone):
                changed.append(match_id)
        for match_id in changed:
            self.kick(match_id)

    def _creator_away(self, match_id: str, created: datetime, at: datetime) -> bool | None:
        """Whether the creator has been away long enough (None: not known here)."""
        limit = self.limits.table_away_seconds
        session = self.rooms.sessions.get(match_id)
        if session is None:  # nobody has opened it since it was loaded or made
            if self.rooms.shared:
                return None
            return (at - created).total_seconds() > limit
        seat = creator_seat(session)
        if seat is None or session.present(seat):
            return False
        return time.monotonic() - session.away_since[seat] > limit
