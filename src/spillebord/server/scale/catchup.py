"""Bringing a worker's copy of a game (a replica: sockets that reached it rather than the
owner) up to date.  The owner ships each event it commits (scale/shipped.py), and the
replica applies them from the message (``apply_shipped``) exactly as a restart would
replay them; it reads the events it has not applied from the database (``actions WHERE
seq > version``, ``read_since``) and the match's status only to fill a gap — a version
that never came (a message lost while Redis was away, an announcement that carried only
a version) — and a worker that takes a game over reads them once before its first
event."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from spillebord.server.infra.storage.models import actions, matches, seats
from spillebord.server.infra.storage.repo import EventRow, SeatRow, aware, now
from spillebord.server.scale.shipped import Shipped

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


def apply_shipped(session: Session, shipped: list[Shipped]) -> int:
    """Apply the shipped events that follow the session's version, in order; returns
    how many (an event already applied is skipped; one after a gap waits for the read).
    The event that ended the game ends the copy too: the outcome is the state's own,
    as the owner wrote it."""
    n = 0
    for item in shipped:
        e = item.event
        if e.seq != session.version + 1:
            continue
        session.apply_remote(e)
        n += 1
        outcome = session.state.outcome
        if outcome is not None and session.running:
            session.row.status = "finished"
            session.row.outcome = outcome.to_json()
            session.row.finished = item.finished or e.time
    return n


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
