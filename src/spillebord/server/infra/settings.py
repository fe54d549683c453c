"""Server settings, read from the environment (docs/server.md lists them)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from spillebord.server.infra.quotas import Limits


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return default if raw in (None, "") else float(raw)


def _flag(name: str) -> bool:
    return os.environ.get(name, "").lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    db_url: str = "sqlite:///spillebord.db"
    bot_delay: float = 0.6          # seconds before each bot action (watchable pace)
    hint_seconds: float = 3.0       # solver budget for a hint
    verdict_seconds: float = 3.0    # solver budget for a verdict
    winnable_seconds: float = 8.0   # budget for finding a winnable deal
    solver_pool: str = "process"    # "process" (default) or "thread"
    bot_pool: str = "process"       # bots: "process" (default) or "thread"
    max_frame: int = 4096           # largest accepted WebSocket text frame, in bytes
    rate_per_second: float = 50.0   # messages per socket per second (burst = 2 seconds)
    warm_workers: bool = True      # start the bot and solver processes at start-up
    ws_echo: bool = False           # /ws-echo for the load benchmark only
    min_takeover: int = 5           # smallest takeover_seconds a room may set
    min_turn: int = 10              # shortest turn timer a table may set (server/room/turns.py)
    redis_url: str | None = None    # several workers: Redis pub/sub (docs/deploy.md)
    lease_seconds: float = 10.0     # shared mode: a game owner's lease (scale/owners.py)
    idle_seconds: float = 900.0     # a game with no socket that has not moved this long
    #                                 leaves memory and its lease (server/room/parking.py)
    # Accounts (docs/server.md, "Names and accounts")
    argon2_time: int = 1            # Argon2id passes
    argon2_memory_kib: int = 47104  # Argon2id memory (46 MiB)
    argon2_lanes: int = 1           # Argon2id parallelism
    session_days: float = 30.0      # a sign-in session lasts this long
    signin_free: int = 5            # failed sign-ins per name/address before slowing down
    signin_delay: float = 1.0       # the first wait after those; doubles with each failure
    signin_max_delay: float = 900.0  # the longest wait
    signin_forget: float = 3600.0   # a failure count starts again after this quiet time
    # Open tables (docs/server.md, "Open tables and quick match")
    min_fill: int = 5               # shortest wait before bots fill a table's open seats
    lobby_poll: float = 0.1         # seconds between a worker's looks for lobby changes
    chat_burst: int = 5             # chat lines a seat may say at once
    chat_every: float = 2.0         # then one line every this many seconds
    max_body_bytes: int = 65_536    # largest HTTP request body (413 above, unparsed)
    max_header_bytes: int = 16_384  # largest sum of HTTP request headers (431 above)
    allowed_origins: tuple[str, ...] = ()  # other sites allowed to post and connect
    trusted_proxies: tuple[str, ...] = ()  # X-Forwarded-For honoured from these (proxies.py)
    api_docs: bool = True           # /docs, /redoc and /openapi.json (off in production)
    drain_seconds: float = 0.0      # on SIGTERM: /readyz 503 this long before sockets close
    log_json: bool = False          # logs as JSON lines (server/infra/logs.py)
    metrics_token: str | None = None  # /metrics needs this bearer token (docs/metrics.md)
    # run the migrations at start: None = only with one worker (shared mode: ``spillebord
    # db upgrade`` is a step of its own, docs/deploy.md "Upgrade and roll back")
    migrate: bool | None = None
    limits: Limits = field(default_factory=Limits)  # quotas (server/infra/quotas.py)
    # The daily deal (docs/server.md, "Daily deal"): the secret it is chosen from (None:
    # generated once and kept in the database); never logged, so not in the repr.
    daily_secret: str | None = field(default=None, repr=False)
    # choose today's and the next days' deals in the background at start (off: each is
    # chosen when first asked for; the tests' servers, which mostly never ask)
    daily_ahead: bool = True
    # Tests only: days move by this many seconds (server/infra/dayclock.py); 0 in production.
    day_offset: float = 0.0

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            db_url=os.environ.get("SPILLEBORD_DB") or cls.db_url,
            bot_delay=_float("SPILLEBORD_BOT_DELAY", cls.bot_delay),
            hint_seconds=_float("SPILLEBORD_HINT_SECONDS", cls.hint_seconds),
            verdict_seconds=_float("SPILLEBORD_VERDICT_SECONDS", cls.verdict_seconds),
            winnable_seconds=_float("SPILLEBORD_WINNABLE_SECONDS", cls.winnable_seconds),
            solver_pool=os.environ.get("SPILLEBORD_SOLVER_POOL") or cls.solver_pool,
            bot_pool=os.environ.get("SPILLEBORD_BOT_POOL") or cls.bot_pool,
            rate_per_second=_float("SPILLEBORD_RATE", cls.rate_per_second),
            ws_echo=_flag("SPILLEBORD_WS_ECHO"),
            min_turn=int(_float("SPILLEBORD_MIN_TURN", cls.min_turn)),
            redis_url=os.environ.get("SPILLEBORD_REDIS") or None,
            lease_seconds=_float("SPILLEBORD_LEASE_SECONDS", cls.lease_seconds),
            idle_seconds=_float("SPILLEBORD_IDLE_SECONDS", cls.idle_seconds),
            argon2_time=int(_float("SPILLEBORD_ARGON2_TIME", cls.argon2_time)),
            argon2_memory_kib=int(_float("SPILLEBORD_ARGON2_MEMORY_KIB",
                                         cls.argon2_memory_kib)),
            argon2_lanes=int(_float("SPILLEBORD_ARGON2_LANES", cls.argon2_lanes)),
            session_days=_float("SPILLEBORD_SESSION_DAYS", cls.session_days),
            signin_free=int(_float("SPILLEBORD_SIGNIN_FREE", cls.signin_free)),
            signin_delay=_float("SPILLEBORD_SIGNIN_DELAY", cls.signin_delay),
            signin_max_delay=_float("SPILLEBORD_SIGNIN_MAX_DELAY", cls.signin_max_delay),
            lobby_poll=_float("SPILLEBORD_LOBBY_POLL", cls.lobby_poll),
            chat_burst=int(_float("SPILLEBORD_CHAT_BURST", cls.chat_burst)),
            chat_every=_float("SPILLEBORD_CHAT_EVERY", cls.chat_every),
            allowed_origins=tuple(o.strip() for o in
                                  os.environ.get("SPILLEBORD_ORIGINS", "").split(",")
                                  if o.strip()),
            trusted_proxies=tuple(p.strip() for p in
                                  os.environ.get("SPILLEBORD_TRUSTED_PROXIES", "").split(",")
                                  if p.strip()),
            api_docs=os.environ.get("SPILLEBORD_API_DOCS", "1").lower()
            not in ("0", "false", "no", "off"),
            drain_seconds=_float("SPILLEBORD_DRAIN_SECONDS", cls.drain_seconds),
            log_json=_flag("SPILLEBORD_LOG_JSON"),
            metrics_token=os.environ.get("SPILLEBORD_METRICS_TOKEN") or None,
            warm_workers=os.environ.get("SPILLEBORD_WARM", "1").lower()
            not in ("0", "false", "no", "off"),
            migrate=None if os.environ.get("SPILLEBORD_MIGRATE", "") == ""
            else _flag("SPILLEBORD_MIGRATE"),
            limits=Limits.from_env(),
            daily_secret=os.environ.get("SPILLEBORD_DAILY_SECRET") or None,
            daily_ahead=os.environ.get("SPILLEBORD_DAILY_AHEAD", "1").lower()
            not in ("0", "false", "no", "off"),
            day_offset=_float("SPILLEBORD_DAY_OFFSET", cls.day_offset),
        )
