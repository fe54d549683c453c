"""The database tables (SQLAlchemy Core).  Portable types only: the same schema runs on
SQLite and PostgreSQL.  The Alembic migrations in ``server/migrations`` create exactly
these tables; a test compares the two."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("name", String(20), nullable=True),  # display name (server/people/names.py)
    Column("name_key", String(80), nullable=True),  # casefolded name: unique
    Index("ux_players_name_key", "name_key", unique=True),
)

# A player with a password (issue 15).  The player id stays the same, so a guest who
# signs up keeps every game and statistic.
accounts = Table(
    "accounts",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("password_hash", String(255), nullable=False),  # Argon2id, PHC string
    Column("created", DateTime(timezone=True), nullable=False),
    Column("password_changed", DateTime(timezone=True), nullable=False),
)

# Signed-in sessions: the cookie's value is never stored, only its SHA-256.
auth_sessions = Table(
    "auth_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_auth_sessions_player", "player_id"),
)

# Failed sign-ins per account name and per address (SHA-256 of "name:..."/"addr:..."),
# for the slow-down after repeated failures.
sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("key_hash", String(64), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last", DateTime(timezone=True), nullable=False),
)

matches = Table(
    "matches",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("flags", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("deal", BigInteger, nullable=False),
    Column("salt", String(64), nullable=True),  # the deal commitment's salt (fairness.py)
    Column("status", String(16), nullable=False),  # running | finished
    Column("outcome", JSON, nullable=True),
    Column("takeover_seconds", Integer, nullable=True),
    Column("turn_seconds", Integer, nullable=True),  # the turn timer (bots_runner.py)
    Column("hints", Integer, nullable=True),  # solitaires: hints given (null = none)
    Column("creator", String(32), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True), nullable=True),
    # a ranked daily attempt's deal is sealed until its day is over (server/daily/service.py)
    Column("sealed_until", DateTime(timezone=True), nullable=True),
    Index("ix_matches_status", "status"),
    Index("ix_matches_finished", "finished"),  # the rater's recent look (ratings.py)
)

seats = Table(
    "seats",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("bot", String(64), nullable=True),
    Column("level", JSON, nullable=True),  # a bot's keyword options (incl. level), or null
    Column("token_hash", String(64), nullable=True),  # sha256 hex; null until claimed
    Column("player_id", String(32), nullable=True),
    Column("left", DateTime(timezone=True), nullable=True),  # gave up: a bot plays it
    Index("ix_seats_player", "player_id"),
    # One player, one seat per table, under any race and on every worker (issue 28);
    # seats without a player (bots, open seats) are NULL and never collide.
    Index("ux_seats_match_player", "match_id", "player_id", unique=True),
)

actions = Table(
    "actions",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # act | undo | redo
    Column("text", Text, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("by_bot", Boolean, nullable=False, default=False),
    Column("time", DateTime(timezone=True), nullable=False),
)

invites = Table(
    "invites",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("match_id", String(32), ForeignKey("matches.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("used", DateTime(timezone=True), nullable=True),
)

# Tables open to others (issue 15): public ones are listed in the lobby; any table with
# open seats may have them filled with bots of a level after a wait.  ``changed`` moves
# whenever the lobby's picture of the table changes (the lobby feeds poll it).
open_tables = Table(
    "open_tables",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("public", Boolean, nullable=False),
    Column("fill_after", Integer, nullable=True),  # seconds; null = never
    Column("fill_level", Integer, nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("changed", DateTime(timezone=True), nullable=False),
    Column("filled", DateTime(timezone=True), nullable=True),
    # out of the lobby since (creator away, or nobody joined: server/tables/expiry.py)
    Column("away", DateTime(timezone=True), nullable=True),
    Index("ix_open_tables_changed", "changed"),
)

# Table chat (issue 15): kept with the match, shown live to its sockets and in its replay.
# A quick phrase is stored as its key (each reader sees it in their own language).
chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("matches.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(32), nullable=True),
    Column("name", String(20), nullable=True),
    Column("text", Text, nullable=False),
    Column("phrase", String(32), nullable=True),
    Column("version", Integer, nullable=False),  # the game's version when it was said
    Column("time", DateTime(timezone=True), nullable=False),
    Index("ix_chat_match", "match_id"),
    Index("ix_chat_time", "time"),
)

# Ratings (issue 15): OpenSkill per named account, table game and seat-count class.
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("seat_class", String(8), primary_key=True),  # server/ratings/service.py seat_class
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

# One row per rated seat of a rated match: the rating before and after (the history
# chart).  The key makes a second update of the same match impossible.
rating_history = Table(
    "rating_history",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("seat_class", String(8), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("time", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_player", "player_id"),
)

# Every finished table match once looked at by the rater: rated or not (a guest or a
# bot seated), so the rater never looks again.
rated_matches = Table(
    "rated_matches",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("time", DateTime(timezone=True), nullable=False),
)

# The daily deal (issue 15): one deal per solitaire and Copenhagen calendar day, chosen
# once (server/daily/service.py says how), and each player's one ranked attempt at it.
daily_deals = Table(
    "daily_deals",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("day", String(10), primary_key=True),  # YYYY-MM-DD, Europe/Copenhagen
    Column("start", BigInteger, nullable=False),  # derived from the date
    Column("deal", BigInteger, nullable=False),  # the first proven-winnable deal ≥ start
    Column("created", DateTime(timezone=True), nullable=False),
    # the commitment's salt (server/daily/seal.py); null for days chosen before sealing
    Column("salt", String(64), nullable=True),
)

# The server's own secrets, generated once when the operator sets none (the daily-deal
# secret, server/daily/seal.py).  Never logged, never in the API.
server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

daily_attempts = Table(
    "daily_attempts",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("match_id", String(32), ForeignKey("matches.id"), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Index("ix_daily_attempts_player", "player_id"),
)

# Game owners (issue 20, shared mode only: scale/owners.py): the worker that owns a live
# game, its lease token (the fence every event write checks) and when the lease lapses
# unless renewed.  No foreign key: a lease row outlives nothing but a lease.
owners = Table(
    "owners",
    metadata,
    Column("match_id", String(32), primary_key=True),
    Column("worker", String(64), nullable=False),
    Column("token", String(64), nullable=False),  # new on every acquisition
    Column("epoch", BigInteger, nullable=False),  # 1, 2, …: how many owners it has had
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_owners_worker", "worker"),
)

# Post-game analyses (issue #33, server/analysis): one per finished match, kept so a
# replay does not pay for the solver or the bot again; ``version`` is the analysis code's
# (an older one is computed anew).
analyses = Table(
    "analyses",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("body", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

# "Spil igen" (issue 27, server/tables/rematch.py): the new match a finished table game's
# rematch opened — one per match (the primary key decides a race between workers).
# Who came along is read from the new match's seats.
rematches = Table(
    "rematches",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("new_match", String(32), ForeignKey("matches.id"), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


# Declared bot accounts and their ladder (server/botaccounts/, issue 32): separate from
# the players' ratings above.
bot_accounts = Table(
    "bot_accounts",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("about", String(200), nullable=True),  # who runs it, what it is
    Column("declared", DateTime(timezone=True), nullable=False),
)

bot_ladder = Table(
    "bot_ladder",
    metadata,
    # a declared account's player id, or "level:N" / "bot:NAME" for the site's own bots
    Column("entry", String(80), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("seat_class", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

bot_ladder_matches = Table(
    "bot_ladder_matches",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("time", DateTime(timezone=True), nullable=False),
)
