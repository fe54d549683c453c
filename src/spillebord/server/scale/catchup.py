"""Catching a session up with the database: in a multi-worker deployment a game's owner
writes its events, so a worker with a replica of the game (sockets that reached it
rather than the owner) reads the events it has not applied (``actions WHERE seq >
version``) and the match's status whenever the bus announces a newer version, and a
worker that takes a game over does it once before its first event — applying them
exactly as a restart would replay them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from spillebord.server.infra.storage.models import actions, matches, seats
from spillebord.server.infra.storage.repo import EventRow, SeatRow, aware, now

if TYPE_CHECKING:
    from spillebord.server.room.session import Session


def read_since(engine: Engine, match_id: str, seq: int
               ) -> tuple[list[EventRow], dict[str, Any] | None]:
    """The events after ``seq`` in order, and the match row's status columns."""
    with engine.connect() as conn:
        rows = conn.execute(select(actions).where(actions.c.match_id == match_id,
                                                  actions.c.seq > seq)
                            .order_by(actions.c.seq)).all()
        status = None
        if rows:
            m = conn.execute(select(matches.c.status, matches.c.outcome, matches.c.finished)
                             .where(matches.c.id == match_id)).first()
            status = None if m is None else {"status": m.status, "outcome": m.outcome,
                                              "finished": aware(m.finished)}
    events = [EventRow(a.seq, a.kind, a.text, a.seat, bool(a.by_bot), aware(a.time) or now())
              for a in rows]
    return events, status


def read_seats(engine: Engine, match_id: str) -> list[SeatRow]:
    with engine.connect() as conn:
        return [SeatRow(s.seat, s.kind, s.bot, s.level, s.token_hash, s.player_id,
                        aware(s.left))
                for s in conn.execute(select(seats).where(seats.c.match_id == match_id)
                                      .order_by(seats.c.seat))]


def apply_missing(session: Session, events: list[EventRow],
                  status: dict[str, Any] | None) -> int:
    """Apply the events that follow the session's version; returns how many."""
    n = 0
    for e in events:
        if e.seq != session.version + 1:
            continue  # already applied (a concurrent catch-up got there first)
        session.apply_remote(e)
        n += 1
    if n and status is not None and status["status"] != session.row.status \
            and session.state.outcome is not None:
        session.row.status = status["status"]
        session.row.outcome = status["outcome"]
        session.row.finished = status["finished"] or now()
    return n
