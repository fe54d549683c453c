"""The ratings tables: finished matches waiting for the rater, rating one match exactly
once (the ``rated_matches`` mark and the new ratings in one transaction), leaderboards,
a player's ratings and history, and the ratings of seated players for the lobby."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spillebord.core.rating import teams_of
from spillebord.core.rating_rules import (
    PAIR_LIMIT,
    PAIR_WINDOW,
    left_ranking,
    opponent,
    unrated_because,
)
from spillebord.server.infra.storage.models import (
    accounts,
    actions,
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
                                    matches.c.status, matches.c.created)
                             .where(matches.c.id == match_id)).one()
            sat = conn.execute(
                select(seats.c.seat, seats.c.kind, seats.c.player_id, players.c.name,
                       accounts.c.player_id.label("acc"), accounts.c.created.label("since"),
                       bot_accounts.c.player_id.label("declared_bot"))
                .outerjoin(players, players.c.id == seats.c.player_id)
                .outerjoin(accounts, accounts.c.player_id == seats.c.player_id)
                .outerjoin(bot_accounts, bot_accounts.c.player_id == seats.c.player_id)
                .where(seats.c.match_id == match_id).order_by(seats.c.seat)).all()
            first = conn.execute(select(func.min(actions.c.time))
                                 .where(actions.c.match_id == match_id)).scalar()
            began = _aware(first or m.created)
            outcome = m.outcome or {}
            # a declared bot account is rated on the bot ladder (botaccounts/), not here
            why = unrated_because(
                ["bot" if s.declared_bot is not None else s.kind for s in sat],
                [s.acc is not None and bool(s.name) and _aware(s.since) <= began for s in sat],
                [s.player_id for s in sat])
            if m.status != "finished" or len(sat) != m.seats or why is not None \
                    or not outcome.get("ranking"):
                return True  # unrated: a bot, a guest, or one player in two seats
            who = {s.seat: s.player_id for s in sat}
            # A human seat any of whose moves a bot made (takeover, timer, leaving).
            left = {r.seat for r in conn.execute(
                select(actions.c.seat).distinct().where(actions.c.match_id == match_id,
                                                        actions.c.by_bot.is_(True),
                                                        actions.c.seat.is_not(None)))}
            klass, _ = compute(m.game, m.seats, outcome["ranking"],
                               {s: NEW for s in who})
            old = {r.player_id: (r.mu, r.sigma, r.games) for r in conn.execute(
                select(ratings).where(ratings.c.player_id.in_(list(who.values())),
                                      ratings.c.game == m.game, ratings.c.seat_class == klass))}
            before = {s: (old[p][0], old[p][1]) if p in old else NEW for s, p in who.items()}
            ranking: Sequence[Sequence[int]] = outcome["ranking"]
            moving = set(who)
            if left:  # leaving loses, and nobody else gains or loses by it
                beside = {t for team in teams_of(m.game, m.seats) if left & set(team)
                          for t in team}
                ranking, moving = left_ranking(ranking, beside, m.seats), left
            elif self.pair_limited(conn, list(who.values()), when):
                return True
            _, after = compute(m.game, m.seats, ranking, before)
            for seat, pid in who.items():
                if seat not in moving:
                    continue
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

    @staticmethod
    def pair_limited(conn: Connection, pids: list[str], when: datetime) -> bool:
        """Whether two of these accounts already had ``PAIR_LIMIT`` games rated together
        (both ratings moved) in the ``PAIR_WINDOW`` before ``when``."""
        a, b = rating_history.alias("a"), rating_history.alias("b")
        rows = conn.execute(
            select(a.c.player_id.label("p"), b.c.player_id.label("q"),
                   func.count(func.distinct(a.c.match_id)).label("n"))
            .join(b, and_(b.c.match_id == a.c.match_id, b.c.player_id != a.c.player_id))
            .where(a.c.player_id.in_(pids), b.c.player_id.in_(pids),
                   a.c.time >= when - PAIR_WINDOW)
            .group_by(a.c.player_id, b.c.player_id)).all()
        return any(r.n >= PAIR_LIMIT for r in rows)

    def others(self, game: str, klass: str, pids: list[str] | None = None) -> dict[str, int]:
        """Player → how many distinct opponents (``rules.opponent``: other accounts on
        another team, by the game's ``teams()``) they had in rated games their rating
        moved in."""
        a = rating_history.alias("a")
        mine, theirs = seats.alias("mine"), seats.alias("theirs")
        query = (select(a.c.player_id, matches.c.seats.label("n"),
                        mine.c.seat.label("seat"), theirs.c.seat.label("other"),
                        theirs.c.player_id.label("them"))
                 .join(matches, matches.c.id == a.c.match_id)
                 .join(mine, and_(mine.c.match_id == a.c.match_id,
                                  mine.c.player_id == a.c.player_id))
                 .join(theirs, and_(theirs.c.match_id == a.c.match_id,
                                    theirs.c.player_id.is_not(None),
                                    theirs.c.player_id != a.c.player_id))
                 .where(a.c.game == game, a.c.seat_class == klass))
        if pids is not None:
            query = query.where(a.c.player_id.in_(pids))
        met: dict[str, set[str]] = {}
        teams: dict[int, list[tuple[int, ...]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                table = teams.setdefault(r.n, teams_of(game, r.n))
                met.setdefault(r.player_id, set())
                if opponent(table, r.seat, r.other):
                    met[r.player_id].add(r.them)
        return {p: len(them) for p, them in met.items()}

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


def rated_status(engine: Engine, match_id: str) -> dict[str, Any] | None:
    """Whether a table game counts for the ratings and, if not, why (rating_rules.py
    codes, plus ``pair_limit`` once the rater has looked): the rater's mark when it has
    looked (``final``), else what the seats say now — a free seat counts as one a
    signed-in player may still take.  None: no such match."""
    with engine.connect() as conn:
        m = conn.execute(select(matches.c.seats, matches.c.status, matches.c.created)
                         .where(matches.c.id == match_id)).first()
        if m is None:
            return None
        sat = conn.execute(
            select(seats.c.seat, seats.c.kind, seats.c.player_id, seats.c.token_hash,
                   players.c.name, accounts.c.created.label("since"))
            .outerjoin(players, players.c.id == seats.c.player_id)
            .outerjoin(accounts, accounts.c.player_id == seats.c.player_id)
            .where(seats.c.match_id == match_id).order_by(seats.c.seat)).all()
        first = conn.execute(select(func.min(actions.c.time))
                             .where(actions.c.match_id == match_id)).scalar()
        mark = conn.execute(select(rated_matches.c.rated)
                            .where(rated_matches.c.match_id == match_id)).scalar()
    began = _aware(first) if first is not None else None
    free = [s.kind == "human" and s.token_hash is None for s in sat]
    why = unrated_because(
        [s.kind for s in sat],
        [f or (s.since is not None and bool(s.name)
               and (began is None or _aware(s.since) <= began))
         for s, f in zip(sat, free, strict=True)],
        [f"free {s.seat}" if f else s.player_id for s, f in zip(sat, free, strict=True)])
    if mark is not None:
        return {"rated": bool(mark), "why": None if mark else why or "pair_limit",
                "final": True}
    return {"rated": why is None, "why": why, "final": False}
