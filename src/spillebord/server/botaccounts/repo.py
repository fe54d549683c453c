"""The bot accounts' tables: declaring an account a bot (at sign-up or by the operator),
which players are declared bots, and the bot ladder — rating a finished match once
(the ``bot_ladder_matches`` mark and the new ratings in one transaction, as the
players' rater does) and reading a game's ladder."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spillebord.core.rating import rate, seat_class
from spillebord.server.infra.storage.models import (
    accounts,
    bot_accounts,
    bot_ladder,
    bot_ladder_matches,
    matches,
    players,
    seats,
)

# A bot's strength does not drift (τ = 0), as in the analysis ladders (docs/analysis.md).
LADDER_MODEL = PlackettLuce(tau=0.0)
NEW = (25.0, 25.0 / 3)


def house_entry(bot: str | None, options: Any) -> str:
    """The ladder entry of one of the site's own bots: its level, else its name."""
    level = options.get("level") if isinstance(options, dict) else None
    return f"level:{level}" if level is not None else f"bot:{bot}"


class BotAccountsRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- declaring ------------------------------------------------------------------
    def declare(self, player_id: str, about: str | None, when: datetime) -> None:
        """Mark an account as a declared bot (again: its ``about`` is replaced).
        LookupError when the player has no account."""
        with self.engine.begin() as conn:
            if conn.execute(select(accounts.c.player_id)
                            .where(accounts.c.player_id == player_id)).first() is None:
                raise LookupError(f"{player_id} has no account")
            done = conn.execute(update(bot_accounts)
                                .where(bot_accounts.c.player_id == player_id)
                                .values(about=about))
            if done.rowcount == 0:
                conn.execute(insert(bot_accounts).values(player_id=player_id, about=about,
                                                         declared=when))

    def undeclare(self, player_id: str) -> bool:
        with self.engine.begin() as conn:
            return bool(conn.execute(bot_accounts.delete().where(
                bot_accounts.c.player_id == player_id)).rowcount)

    def player_by_name(self, name_key: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(players.c.id).where(players.c.name_key == name_key)
                               ).first()
        return None if row is None else str(row.id)

    def declared(self, player_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(bot_accounts.c.about, bot_accounts.c.declared,
                                      players.c.name)
                               .join(players, players.c.id == bot_accounts.c.player_id)
                               .where(bot_accounts.c.player_id == player_id)).first()
        if row is None:
            return None
        return {"player_id": player_id, "name": row.name, "about": row.about}

    # -- the ladder -----------------------------------------------------------------
    def pending(self, limit: int = 100, since: datetime | None = None) -> list[str]:
        """Finished table matches the ladder has not looked at, oldest first."""
        query = (select(matches.c.id)
                 .outerjoin(bot_ladder_matches, bot_ladder_matches.c.match_id == matches.c.id)
                 .where(matches.c.status == "finished", matches.c.seats > 1,
                        bot_ladder_matches.c.match_id.is_(None)))
        if since is not None:
            query = query.where(matches.c.finished >= since)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(matches.c.finished).limit(limit)).all()
        return [r.id for r in rows]

    def rate_match(self, match_id: str, when: datetime) -> bool:
        """Look at one finished match once (False: already looked at).  It goes on the
        ladder when every seat is a declared bot account or one of the site's bots, with
        at least one declared account and two different entries."""
        with self.engine.begin() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(insert(bot_ladder_matches).values(
                        match_id=match_id, rated=False, time=when))
            except IntegrityError:
                return False
            m = conn.execute(select(matches.c.game, matches.c.seats, matches.c.outcome)
                             .where(matches.c.id == match_id)).one()
            sat = conn.execute(
                select(seats.c.seat, seats.c.kind, seats.c.bot, seats.c.level,
                       seats.c.player_id, bot_accounts.c.player_id.label("declared"))
                .outerjoin(bot_accounts, bot_accounts.c.player_id == seats.c.player_id)
                .where(seats.c.match_id == match_id).order_by(seats.c.seat)).all()
            entry: dict[int, str] = {}
            for s in sat:
                if s.kind == "bot":
                    entry[s.seat] = house_entry(s.bot, s.level)
                elif s.declared is not None:
                    entry[s.seat] = str(s.declared)
            accounts_seated = [s for s in sat if s.declared is not None]
            ranking = (m.outcome or {}).get("ranking")
            if (len(entry) != m.seats or not accounts_seated or not ranking
                    or len(set(entry.values())) < 2):
                return True
            klass = seat_class(m.game, m.seats)
            old = {r.entry: (r.mu, r.sigma, r.games) for r in conn.execute(
                select(bot_ladder).where(bot_ladder.c.entry.in_(set(entry.values())),
                                         bot_ladder.c.game == m.game,
                                         bot_ladder.c.seat_class == klass))}
            before = {s: old[e][:2] if e in old else NEW for s, e in entry.items()}
            after = rate(m.game, m.seats, ranking, before, model=LADDER_MODEL)
            held: dict[str, list[tuple[float, float]]] = defaultdict(list)
            for seat, e in entry.items():
                held[e].append(after[seat])
            for e, new in held.items():  # an entry in several seats: the mean
                values = {"mu": sum(v[0] for v in new) / len(new),
                          "sigma": sum(v[1] for v in new) / len(new), "updated": when}
                if e in old:
                    conn.execute(update(bot_ladder).where(
                        bot_ladder.c.entry == e, bot_ladder.c.game == m.game,
                        bot_ladder.c.seat_class == klass).values(games=old[e][2] + 1,
                                                                 **values))
                else:
                    conn.execute(insert(bot_ladder).values(entry=e, game=m.game,
                                                           seat_class=klass, games=1,
                                                           **values))
            conn.execute(update(bot_ladder_matches)
                         .where(bot_ladder_matches.c.match_id == match_id)
                         .values(rated=True))
            return True

    def board(self, game: str, klass: str, limit: int = 100) -> list[dict[str, Any]]:
        """A game's ladder at one seat-count class, best (μ − 3σ) first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(bot_ladder.c.entry, bot_ladder.c.mu, bot_ladder.c.sigma,
                       bot_ladder.c.games, players.c.name, bot_accounts.c.about)
                .outerjoin(players, players.c.id == bot_ladder.c.entry)
                .outerjoin(bot_accounts, bot_accounts.c.player_id == bot_ladder.c.entry)
                .where(bot_ladder.c.game == game, bot_ladder.c.seat_class == klass)
                .order_by((bot_ladder.c.mu - 3 * bot_ladder.c.sigma).desc(),
                          bot_ladder.c.entry)
                .limit(limit)).all()
        return [{"entry": r.entry, "name": r.name, "about": r.about, "mu": r.mu,
                 "sigma": r.sigma, "games": r.games} for r in rows]
