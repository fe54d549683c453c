"""The repository: every database read and write the server makes, as plain blocking
functions (the async layer calls them through ``asyncio.to_thread`` or the group-commit
writer in writer.py).  Portable SQLAlchemy Core only — no dialect-specific SQL."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.models import (
    actions,
    invites,
    matches,
    open_tables,
    players,
    seats,
)


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str  # human | bot
    bot: str | None = None
    level: Any = None
    token_hash: str | None = None
    player_id: str | None = None
    left: datetime | None = None  # the player gave up the seat; a bot plays it


@dataclass(slots=True)
class EventRow:
    seq: int
    kind: str  # act | undo | redo
    text: str
    seat: int | None
    by_bot: bool = False
    time: datetime = field(default_factory=now)


@dataclass(slots=True)
class MatchRow:
    id: str
    game: str
    flags: dict[str, bool]
    seats: int
    deal: int
    status: str
    created: datetime
    takeover_seconds: int | None = None
    turn_seconds: int | None = None  # the turn timer; None = none
    hints: int = 0  # solitaires: hints given
    creator: str | None = None
    outcome: dict[str, Any] | None = None
    finished: datetime | None = None
    salt: str | None = None  # the deal commitment's salt; None for older matches
    sealed_until: datetime | None = None  # a ranked daily attempt: deal hidden until then
    seat_rows: list[SeatRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)


def aware(t: datetime | None) -> datetime | None:
    """A stored time with its zone: SQLite gives naive datetimes back; every stored time
    is UTC."""
    if t is not None and t.tzinfo is None:
        return t.replace(tzinfo=UTC)
    return t


class Repository:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- players -------------------------------------------------------------------
    def create_player(self, player_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(players).values(id=player_id, created=now()))

    def player_exists(self, player_id: str) -> bool:
        with self.engine.connect() as conn:
            row = conn.execute(select(players.c.id).where(players.c.id == player_id)).first()
        return row is not None

    # -- matches -------------------------------------------------------------------
    def create_match(self, m: MatchRow, invite_hashes: dict[int, str],
                     also: Callable[[Connection], None] | None = None) -> None:
        """Write the match, its seats and invites (and ``also``, e.g. its open-table
        row) in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(insert(matches).values(
                id=m.id, game=m.game, flags=m.flags, seats=m.seats, deal=m.deal, salt=m.salt,
                status=m.status, outcome=None, takeover_seconds=m.takeover_seconds,
                turn_seconds=m.turn_seconds,
                creator=m.creator, created=m.created, finished=None,
                **({"sealed_until": m.sealed_until} if m.sealed_until else {}),
            ))
            conn.execute(insert(seats), [
                {"match_id": m.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
                 "level": s.level, "token_hash": s.token_hash, "player_id": s.player_id}
                for s in m.seat_rows
            ])
            if invite_hashes:
                conn.execute(insert(invites), [
                    {"code_hash": h, "match_id": m.id, "seat": seat, "used": None}
                    for seat, h in invite_hashes.items()
                ])
            if also is not None:
                also(conn)

    def _load(self, conn: Connection, row: Any) -> MatchRow:
        m = MatchRow(
            id=row.id, game=row.game, flags=dict(row.flags), seats=row.seats,
            deal=int(row.deal), status=row.status, created=aware(row.created) or now(),
            takeover_seconds=row.takeover_seconds, turn_seconds=row.turn_seconds,
            hints=row.hints or 0,
            creator=row.creator,
            outcome=row.outcome, finished=aware(row.finished), salt=row.salt,
            sealed_until=aware(row.sealed_until),
        )
        for s in conn.execute(select(seats).where(seats.c.match_id == m.id)
                              .order_by(seats.c.seat)):
            m.seat_rows.append(SeatRow(s.seat, s.kind, s.bot, s.level, s.token_hash,
                                       s.player_id, aware(s.left)))
        for a in conn.execute(select(actions).where(actions.c.match_id == m.id)
                              .order_by(actions.c.seq)):
            m.events.append(EventRow(a.seq, a.kind, a.text, a.seat, bool(a.by_bot),
                                     aware(a.time) or now()))
        return m

    def _snapshot(self) -> Connection:
        """A connection whose reads share one snapshot on PostgreSQL (REPEATABLE READ):
        a match row and its events read by separate statements must agree — under READ
        COMMITTED a game's last event and its finish committed between them gave a
        copy at the final move that still said "running", on that worker for good
        (found by the operator drill, issue 31; tests/scale/test_load_snapshot.py)."""
        conn = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            conn.execution_options(isolation_level="REPEATABLE READ")
        return conn

    def load_match(self, match_id: str) -> MatchRow | None:
        with self._snapshot() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            return None if row is None else self._load(conn, row)

    def load_running(self, since: datetime | None = None) -> list[MatchRow]:
        """The running matches (``since``: only those created or moved since then)."""
        query = select(matches).where(matches.c.status == "running")
        if since is not None:
            moved = select(actions.c.match_id).where(actions.c.match_id == matches.c.id,
                                                     actions.c.time >= since)
            query = query.where(or_(matches.c.created >= since, moved.exists()))
        with self._snapshot() as conn:
            rows = conn.execute(query.order_by(matches.c.created)).all()
            return [self._load(conn, r) for r in rows]

    # -- invites -------------------------------------------------------------------
    def invite_info(self, code_hash: str) -> tuple[str, int, bool] | None:
        """The invite's match id, seat and whether it was used; None if unknown."""
        with self.engine.connect() as conn:
            inv = conn.execute(select(invites).where(invites.c.code_hash == code_hash)).first()
        return None if inv is None else (str(inv.match_id), int(inv.seat), inv.used is not None)

    def claim_invite(self, code_hash: str, token_hash: str,
                     player_id: str | None) -> tuple[str, int]:
        """Mark the invite used and give its seat the token; atomic (a conditional
        UPDATE, so two claims of one code cannot both succeed on any database).  A
        player already seated at the table is refused (``already_seated``, the unique
        index on seats decides even when a take races the claim)."""
        try:
            return self._claim_invite(code_hash, token_hash, player_id)
        except IntegrityError:
            raise already_seated() from None

    def _claim_invite(self, code_hash: str, token_hash: str,
                      player_id: str | None) -> tuple[str, int]:
        with self.engine.begin() as conn:
            inv = conn.execute(select(invites).where(invites.c.code_hash == code_hash)).first()
            if inv is None:
                raise Refusal("bad_invite", "this invite link does not exist", 404)
            status = conn.execute(select(matches.c.status)
                                  .where(matches.c.id == inv.match_id)).scalar_one()
            if status != "running":
                raise Refusal("match_over", "this match has already finished", 410)
            done = conn.execute(update(invites)
                                .where(invites.c.code_hash == code_hash,
                                       invites.c.used.is_(None))
                                .values(used=now()))
            if done.rowcount != 1:
                raise Refusal("invite_used", "this invite link has already been used", 410)
            # Conditional: a public table's seat may have been taken from the lobby or
            # filled with a bot meanwhile (then nothing is used up: the transaction
            # rolls back).
            seated = conn.execute(update(seats)
                                  .where(seats.c.match_id == inv.match_id,
                                         seats.c.seat == inv.seat, seats.c.kind == "human",
                                         seats.c.token_hash.is_(None))
                                  .values(token_hash=token_hash, player_id=player_id))
            if seated.rowcount != 1:
                raise Refusal("seat_taken", "someone else has taken this seat", 409)
            touch(conn, str(inv.match_id), now())
            return str(inv.match_id), int(inv.seat)

    @staticmethod
    def add_hint(conn: Connection, match_id: str) -> None:
        """One more hint given in the match (solitaires; shown with the result) — an op
        of the group writer (room/session.py ``hint_given``)."""
        conn.execute(update(matches).where(matches.c.id == match_id).values(
            hints=func.coalesce(matches.c.hints, 0) + 1))

    def leave_seat(self, match_id: str, seat: int, when: datetime) -> bool:
        """Mark a claimed human seat of a running match given up (once: a second
        leave changes nothing and answers False)."""
        with self.engine.begin() as conn:
            status = conn.execute(select(matches.c.status)
                                  .where(matches.c.id == match_id)).scalar_one_or_none()
            if status != "running":
                return False
            done = conn.execute(update(seats).where(
                seats.c.match_id == match_id, seats.c.seat == seat,
                seats.c.kind == "human", seats.c.left.is_(None))
                .values(left=when))
            return bool(done.rowcount == 1)

    # -- events (used by the writer inside its batch transaction) -------------------
    @staticmethod
    def event_row(match_id: str, e: EventRow) -> dict[str, Any]:
        """The actions-table row of an event (the writer inserts rows in bulk)."""
        return {"match_id": match_id, "seq": e.seq, "kind": e.kind, "text": e.text,
                "seat": e.seat, "by_bot": e.by_bot, "time": e.time}

    @staticmethod
    def write_finish(conn: Connection, match_id: str, outcome: dict[str, Any],
                     when: datetime) -> None:
        conn.execute(update(matches).where(matches.c.id == match_id)
                     .values(status="finished", outcome=outcome, finished=when))
        touch(conn, match_id, when)  # an open table's end reaches the live lobbies


def already_seated() -> Refusal:
    """One seat per player per table (the unique index of migration 0010)."""
    return Refusal("already_seated", "you already have a seat at this table", 409)


def touch(conn: Connection, match_id: str, when: datetime) -> None:
    """An open table's lobby picture changed (a no-op for a table that is not open)."""
    conn.execute(update(open_tables).where(open_tables.c.match_id == match_id)
                 .values(changed=when))
