"""Open tables (issue 15): the lobby's rows, taking a free seat, quick-match lookup and
filling open seats with bots.  Plain blocking functions, called off the event loop.
Every "only one may win" step is a conditional UPDATE inside a transaction, so two
takers of the last seat — on one worker or two, SQLite or PostgreSQL — cannot both
get it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spillebord.core.rating import seat_class, shown
from spillebord.core.rating_rules import unrated_because
from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.models import (
    accounts,
    bot_accounts,
    invites,
    matches,
    open_tables,
    players,
    ratings,
    seats,
)
from spillebord.server.infra.storage.repo import already_seated, touch


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def open_row(match_id: str, public: bool, fill_after: int | None, fill_level: int | None,
             when: datetime) -> Callable[[Connection], None]:
    """The insert of a new table's row, for the match's own creating transaction."""
    def write(conn: Connection) -> None:
        conn.execute(insert(open_tables).values(
            match_id=match_id, public=public, fill_after=fill_after, fill_level=fill_level,
            created=when, changed=when, filled=None))
    return write


class TablesRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- taking a seat --------------------------------------------------------------
    def take_seat(self, match_id: str, seat: int | None, token_hash: str,
                  player_id: str | None, when: datetime) -> int:
        """Give the caller a free human seat of a public table (``seat``, or the first
        free one); the seat's invite, if any, is used up with it.  A second seat for
        the same player is refused by the unique index even when two takes race."""
        try:
            return self._take_seat(match_id, seat, token_hash, player_id, when)
        except IntegrityError:
            raise already_seated() from None

    def _take_seat(self, match_id: str, seat: int | None, token_hash: str,
                   player_id: str | None, when: datetime) -> int:
        with self.engine.begin() as conn:
            head = conn.execute(
                select(open_tables.c.public, open_tables.c.away, matches.c.status)
                .join(matches, matches.c.id == open_tables.c.match_id)
                .where(open_tables.c.match_id == match_id)).first()
            if head is None or not head.public or head.away is not None:
                raise Refusal("not_found", "there is no such public table", 404)
            if head.status != "running":
                raise Refusal("match_over", "this match has already finished", 410)
            rows = conn.execute(select(seats.c.seat, seats.c.kind, seats.c.token_hash,
                                       seats.c.player_id)
                                .where(seats.c.match_id == match_id)
                                .order_by(seats.c.seat)).all()
            if player_id is not None and any(r.player_id == player_id for r in rows):
                raise already_seated()
            free = [r.seat for r in rows if r.kind == "human" and r.token_hash is None]
            if seat is not None:
                if not any(r.seat == seat for r in rows):
                    raise Refusal("bad_seat", f"the table has no seat {seat}", 404)
                free = [seat]
            for candidate in free:
                done = conn.execute(update(seats).where(
                    seats.c.match_id == match_id, seats.c.seat == candidate,
                    seats.c.kind == "human", seats.c.token_hash.is_(None))
                    .values(token_hash=token_hash, player_id=player_id))
                if done.rowcount == 1:
                    conn.execute(update(invites).where(
                        invites.c.match_id == match_id, invites.c.seat == candidate,
                        invites.c.used.is_(None)).values(used=when))
                    touch(conn, match_id, when)
                    return int(candidate)
            if seat is not None:
                raise Refusal("seat_taken", "someone else has just taken this seat", 409)
            raise Refusal("table_full", "this table has no free seat any more", 409)

    # -- the lobby ------------------------------------------------------------------
    def listing(self, match_ids: list[str] | None = None) -> list[dict[str, Any]]:
        """The open public tables (running, at least one free human seat), oldest
        first; ``match_ids`` limits the list to those tables."""
        return self.listing_stamped(match_ids)[0]

    def listing_stamped(self, match_ids: list[str] | None = None
                        ) -> tuple[list[dict[str, Any]], dict[str, datetime]]:
        """``listing`` and the change stamp of each table in it (read with it)."""
        query = (select(open_tables, matches.c.game, matches.c.flags, matches.c.turn_seconds)
                 .join(matches, matches.c.id == open_tables.c.match_id)
                 .where(open_tables.c.public.is_(True), open_tables.c.away.is_(None),
                        matches.c.status == "running")
                 .order_by(open_tables.c.created))
        if match_ids is not None:
            if not match_ids:
                return [], {}
            query = query.where(open_tables.c.match_id.in_(match_ids))
        with self.engine.connect() as conn:
            heads = conn.execute(query).all()
            ids = [h.match_id for h in heads]
            seat_rows: dict[str, list[Any]] = defaultdict(list)
            for chunk in range(0, len(ids), 500):
                part = ids[chunk:chunk + 500]
                for s in conn.execute(
                        select(seats.c.match_id, seats.c.seat, seats.c.kind, seats.c.bot,
                               seats.c.level, seats.c.token_hash, seats.c.player_id,
                               players.c.name, accounts.c.player_id.label("acc"),
                               bot_accounts.c.player_id.label("declared"))
                        .outerjoin(players, players.c.id == seats.c.player_id)
                        .outerjoin(accounts, accounts.c.player_id == seats.c.player_id)
                        .outerjoin(bot_accounts,
                                   bot_accounts.c.player_id == seats.c.player_id)
                        .where(seats.c.match_id.in_(part)).order_by(seats.c.seat)):
                    seat_rows[s.match_id].append(s)
            pids = list({s.player_id for rows in seat_rows.values() for s in rows
                         if s.player_id is not None})
            rated = {(r.player_id, r.game, r.seat_class): shown(r.mu, r.sigma)
                     for start in range(0, len(pids), 500)
                     for r in conn.execute(select(ratings).where(
                         ratings.c.player_id.in_(pids[start:start + 500])))}
        out = []
        for h in heads:
            listed = [{"seat": s.seat, "kind": s.kind, "bot": s.bot,
                       "level": s.level.get("level") if isinstance(s.level, dict) else None,
                       "taken": s.kind == "bot" or s.token_hash is not None,
                       "name": s.name, "bot_account": s.declared is not None,
                       "rating": rated.get((s.player_id, h.game,
                                            seat_class(h.game, len(seat_rows[h.match_id]))))}
                      for s in seat_rows[h.match_id]]
            free = sum(1 for s in listed if not s["taken"])
            if free == 0:
                continue
            rows = seat_rows[h.match_id]
            why = unrated_because(  # before it starts: a free seat may yet be signed in
                ["bot" if r.declared is not None else r.kind for r in rows],  # bot account
                [not s["taken"] or (r.acc is not None and bool(r.name))
                 for s, r in zip(listed, rows, strict=True)],
                [r.player_id if s["taken"] else f"free {r.seat}"
                 for s, r in zip(listed, rows, strict=True)])
            out.append({"match_id": h.match_id, "game": h.game, "flags": dict(h.flags),
                        "seats": listed, "free": free,
                        "rated": {"rated": why is None, "why": why},
                        "created": _aware(h.created).isoformat(),
                        "fill_after": h.fill_after, "fill_level": h.fill_level,
                        "turn_seconds": h.turn_seconds})
        return out, {h.match_id: _aware(h.changed) for h in heads}

    def changed_since(self, since: datetime,
                      also: Collection[str] = ()) -> list[tuple[str, datetime]]:
        """(table, change stamp) of the tables changed after ``since``, and of ``also``
        whatever their stamp."""
        cond = open_tables.c.changed > since
        if also:
            cond = or_(cond, open_tables.c.match_id.in_(list(also)))
        with self.engine.connect() as conn:
            rows = conn.execute(select(open_tables.c.match_id, open_tables.c.changed)
                                .where(cond)).all()
        return [(r.match_id, _aware(r.changed)) for r in rows]

    def find_open(self, game: str, n: int, flags: dict[str, bool],
                  turn_seconds: int | None = None) -> list[str]:
        """Public tables of ``game`` with ``n`` seats, these flags and this turn timer
        (None: none) that have a free seat, oldest first (quick match)."""
        return [t["match_id"] for t in self.listing()
                if t["game"] == game and len(t["seats"]) == n and t["flags"] == flags
                and t["turn_seconds"] == turn_seconds]

    # -- bots filling open seats ----------------------------------------------------
    def due_fills(self, when: datetime) -> list[tuple[str, str, int]]:
        """(match, game, level) of running tables whose wait for bots is over."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(open_tables.c.match_id, open_tables.c.created,
                       open_tables.c.fill_after, open_tables.c.fill_level, matches.c.game)
                .join(matches, matches.c.id == open_tables.c.match_id)
                .where(open_tables.c.fill_after.is_not(None), open_tables.c.filled.is_(None),
                       matches.c.status == "running")).all()
        return [(r.match_id, r.game, int(r.fill_level or 0)) for r in rows
                if (when - _aware(r.created)).total_seconds() >= r.fill_after]

    def fill(self, match_id: str, bot: str, options: dict[str, Any],
             when: datetime) -> list[int]:
        """Seat the bot in every free human seat, once (the worker that marks the
        table filled does it; the others get [])."""
        with self.engine.begin() as conn:
            done = conn.execute(update(open_tables).where(
                open_tables.c.match_id == match_id, open_tables.c.filled.is_(None))
                .values(filled=when, changed=when))
            if done.rowcount != 1:
                return []
            free = [r.seat for r in conn.execute(
                select(seats.c.seat).where(seats.c.match_id == match_id,
                                           seats.c.kind == "human",
                                           seats.c.token_hash.is_(None)))]
            if free:
                conn.execute(update(seats).where(and_(
                    seats.c.match_id == match_id, seats.c.seat.in_(free),
                    seats.c.token_hash.is_(None))).values(kind="bot", bot=bot,
                                                          level=options or None))
                conn.execute(update(invites).where(
                    invites.c.match_id == match_id, invites.c.seat.in_(free),
                    invites.c.used.is_(None)).values(used=when))
            return free


def seat_people(engine: Engine, match_id: str) -> list[dict[str, Any]]:
    """Each seat's player name and rating for the match's game and seat count."""
    with engine.connect() as conn:
        head = conn.execute(select(matches.c.game, matches.c.seats)
                            .where(matches.c.id == match_id)).first()
        if head is None:
            return []
        klass = seat_class(head.game, head.seats)
        rows = conn.execute(
            select(seats.c.seat, players.c.name, ratings.c.mu, ratings.c.sigma,
                   bot_accounts.c.player_id.label("declared"))
            .outerjoin(players, players.c.id == seats.c.player_id)
            .outerjoin(bot_accounts, bot_accounts.c.player_id == seats.c.player_id)
            .outerjoin(ratings, and_(ratings.c.player_id == seats.c.player_id,
                                     ratings.c.game == head.game,
                                     ratings.c.seat_class == klass))
            .where(seats.c.match_id == match_id).order_by(seats.c.seat)).all()
    return [{"seat": r.seat, "name": r.name, "bot_account": r.declared is not None,
             "rating": None if r.mu is None else shown(r.mu, r.sigma)} for r in rows]
