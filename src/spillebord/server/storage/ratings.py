"""The ratings tables: finished matches waiting for the rater, rating one match exactly
once (the ``rated_matches`` mark and the new ratings in one transaction), leaderboards,
a player's ratings and history, and the ratings of seated players for the lobby."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.storage.models import (
    accounts,
    bot_accounts,
    matches,
    players,
    rated_matches,
    rating_history,
    ratings,
    seats,
)

Compute = Callable[[str, int, Sequence[Sequence[int]], dict[int, tuple[float, float]]],
                   tuple[str, dict[int, Any]]]
NEW = (25.0, 25.0 / 3)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


class RatingsRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def pending(self, limit: int = 100, since: datetime | None = None) -> list[str]:
        """Finished table matches the rater has not looked at, oldest first (``since``:
        only those finished since then — an index range, not every finished match)."""
        query = (select(matches.c.id)
                 .outerjoin(rated_matches, rated_matches.c.match_id == matches.c.id)
                 .where(matches.c.status == "finished", matches.c.seats > 1,
                        rated_matches.c.match_id.is_(None)))
        if since is not None:
            query = query.where(matches.c.finished >= since)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(matches.c.finished).limit(limit)).all()
        return [r.id for r in rows]

    def rate_match(self, match_id: str, when: datetime, compute: Compute) -> bool:
        """Look at one finished match once: whether this call did it (False: another
        worker or an earlier look already had)."""
        with self.engine.begin() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(insert(rated_matches).values(match_id=match_id,
                                                              rated=False, time=when))
            except IntegrityError:
                return False
            m = conn.execute(select(matches.c.game, matches.c.seats, matches.c.outcome,
                                    matches.c.status)
                             .where(matches.c.id == match_id)).one()
            sat = conn.execute(
                select(seats.c.seat, seats.c.kind, seats.c.player_id, players.c.name,
                       accounts.c.player_id.label("acc"),
                       bot_accounts.c.player_id.label("declared_bot"))
                .outerjoin(players, players.c.id == seats.c.player_id)
                .outerjoin(accounts, accounts.c.player_id == seats.c.player_id)
                .outerjoin(bot_accounts, bot_accounts.c.player_id == seats.c.player_id)
                .where(seats.c.match_id == match_id).order_by(seats.c.seat)).all()
            outcome = m.outcome or {}
            # a declared bot account is rated on the bot ladder (botaccounts/), not here
            named = [s for s in sat if s.kind == "human" and s.acc is not None and s.name
                     and s.declared_bot is None]
            who = {s.seat: s.player_id for s in named}
            if (m.status != "finished" or len(named) != m.seats
                    or len(set(who.values())) != m.seats or not outcome.get("ranking")):
                return True  # unrated: a bot, a guest, or one player in two seats
            klass, _ = compute(m.game, m.seats, outcome["ranking"],
                               {s: NEW for s in who})
            old = {r.player_id: (r.mu, r.sigma, r.games) for r in conn.execute(
                select(ratings).where(ratings.c.player_id.in_(list(who.values())),
                                      ratings.c.game == m.game, ratings.c.seat_class == klass))}
            before = {s: (old[p][0], old[p][1]) if p in old else NEW for s, p in who.items()}
            _, after = compute(m.game, m.seats, outcome["ranking"], before)
            for seat, pid in who.items():
                mu, sigma = after[seat]
                values = {"mu": mu, "sigma": sigma, "updated": when}
                if pid in old:
                    conn.execute(update(ratings).where(
                        ratings.c.player_id == pid, ratings.c.game == m.game,
                        ratings.c.seat_class == klass).values(games=old[pid][2] + 1, **values))
                else:
                    conn.execute(insert(ratings).values(player_id=pid, game=m.game,
                                                        seat_class=klass, games=1, **values))
                conn.execute(insert(rating_history).values(
                    match_id=match_id, player_id=pid, game=m.game, seat_class=klass,
                    mu_before=before[seat][0], sigma_before=before[seat][1], mu=mu,
                    sigma=sigma, time=when))
            conn.execute(update(rated_matches).where(rated_matches.c.match_id == match_id)
                         .values(rated=True))
            return True

    def leaderboard(self, game: str, klass: str, limit: int = 100) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games,
                       players.c.name)
                .join(players, players.c.id == ratings.c.player_id)
                .where(ratings.c.game == game, ratings.c.seat_class == klass)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), players.c.name)
                .limit(limit)).all()
        return [{"player_id": r.player_id, "name": r.name, "mu": r.mu, "sigma": r.sigma,
                 "games": r.games} for r in rows]

    def of_player(self, player_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        with self.engine.connect() as conn:
            now_rows = conn.execute(select(ratings).where(ratings.c.player_id == player_id)
                                    .order_by(ratings.c.game, ratings.c.seat_class)).all()
            hist = conn.execute(select(rating_history)
                                .where(rating_history.c.player_id == player_id)
                                .order_by(rating_history.c.time)).all()
        return ([{"game": r.game, "class": r.seat_class, "mu": r.mu, "sigma": r.sigma,
                  "games": r.games} for r in now_rows],
                [{"match_id": h.match_id, "game": h.game, "class": h.seat_class,
                  "mu_before": h.mu_before, "sigma_before": h.sigma_before, "mu": h.mu,
                  "sigma": h.sigma, "time": _aware(h.time).isoformat()} for h in hist])

    def for_players(self, player_ids: list[str]) -> dict[tuple[str, str, str],
                                                          tuple[float, float]]:
        """(player, game, class) → (μ, σ) for the given players."""
        if not player_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings.c.player_id, ratings.c.game, ratings.c.seat_class,
                                       ratings.c.mu, ratings.c.sigma)
                                .where(ratings.c.player_id.in_(player_ids))).all()
        return {(r.player_id, r.game, r.seat_class): (r.mu, r.sigma) for r in rows}
