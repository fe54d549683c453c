"""The daily-deal tables: the deal of a day (chosen once: the first writer wins), the
one attempt per player and day, and the rows the leaderboards and streaks are built
from."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.infra.storage.models import (
    actions,
    daily_attempts,
    daily_deals,
    matches,
    players,
)


@dataclass(frozen=True)
class DayDeal:
    """A day's deal: ``start`` (where the search began), the deal and the commitment's
    salt (None for days chosen before deals were sealed, issue 28)."""

    day: str
    start: int
    deal: int
    salt: str | None


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


class DailyRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def deal_of(self, game: str, day: str) -> DayDeal | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(daily_deals.c.start, daily_deals.c.deal,
                                      daily_deals.c.salt).where(
                daily_deals.c.game == game, daily_deals.c.day == day)).first()
        return None if row is None else DayDeal(day, int(row.start), int(row.deal), row.salt)

    def keep_deal(self, game: str, day: str, start: int, deal: int, salt: str,
                  when: datetime) -> DayDeal:
        """Store the day's deal; when another worker stored it first, theirs stands."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(daily_deals).values(game=game, day=day, start=start,
                                                        deal=deal, salt=salt, created=when))
        except IntegrityError:
            pass
        found = self.deal_of(game, day)
        assert found is not None
        return found

    def days(self, game: str, last: str, limit: int = 30) -> list[DayDeal]:
        """The stored days up to ``last`` (days chosen ahead are not listed), newest
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(daily_deals).where(daily_deals.c.game == game,
                                                          daily_deals.c.day <= last)
                                .order_by(daily_deals.c.day.desc()).limit(limit)).all()
        return [DayDeal(r.day, int(r.start), int(r.deal), r.salt) for r in rows]

    def attempt(self, game: str, day: str, player_id: str) -> str | None:
        with self.engine.connect() as conn:
            found: str | None = conn.execute(select(daily_attempts.c.match_id).where(
                daily_attempts.c.game == game, daily_attempts.c.day == day,
                daily_attempts.c.player_id == player_id)).scalar()
        return found

    def attempt_day(self, match_id: str) -> str | None:
        """The day of the ranked attempt that is this match, or None."""
        found = self.attempt_of(match_id)
        return None if found is None else found[1]

    def attempt_of(self, match_id: str) -> tuple[str, str, bool] | None:
        """The game and day of the ranked attempt that is this match and whether it
        has finished, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(daily_attempts.c.game, daily_attempts.c.day,
                                      matches.c.status)
                               .join(matches, matches.c.id == daily_attempts.c.match_id)
                               .where(daily_attempts.c.match_id == match_id)).first()
        return None if row is None else (row.game, row.day, row.status == "finished")

    def days_played(self, game: str, player_id: str) -> list[str]:
        with self.engine.connect() as conn:
            return [r.day for r in conn.execute(
                select(daily_attempts.c.day).where(daily_attempts.c.game == game,
                                                   daily_attempts.c.player_id == player_id)
                .order_by(daily_attempts.c.day.desc()))]

    def attempts(self, game: str, day: str) -> list[dict[str, Any]]:
        """Every attempt of the day with its match's end and its events (for the
        clock): the rows the leaderboard is ranked from."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(daily_attempts.c.player_id, daily_attempts.c.match_id,
                       players.c.name, matches.c.status, matches.c.outcome,
                       matches.c.created)
                .join(matches, matches.c.id == daily_attempts.c.match_id)
                .join(players, players.c.id == daily_attempts.c.player_id)
                .where(daily_attempts.c.game == game, daily_attempts.c.day == day)).all()
            ids = [r.match_id for r in rows]
            events: dict[str, list[tuple[str, str, datetime]]] = {m: [] for m in ids}
            if ids:
                for a in conn.execute(select(actions.c.match_id, actions.c.kind,
                                             actions.c.text, actions.c.time)
                                      .where(actions.c.match_id.in_(ids))
                                      .order_by(actions.c.match_id, actions.c.seq)):
                    events[a.match_id].append((a.kind, a.text, _aware(a.time)))
        return [{"player_id": r.player_id, "match_id": r.match_id, "name": r.name,
                 "status": r.status, "outcome": r.outcome, "created": _aware(r.created),
                 "events": events[r.match_id]} for r in rows]

    def add_attempt(self, game: str, day: str, player_id: str, match_id: str,
                    when: datetime) -> bool:
        """Record the player's attempt of the day; False when there already is one."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(daily_attempts).values(game=game, day=day,
                                                           player_id=player_id,
                                                           match_id=match_id, created=when))
        except IntegrityError:
            return False
        return True
