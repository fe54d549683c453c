"""Server settings, read from the environment (docs/server.md lists them)."""

from __future__ import annotations

import os
from dataclasses import dataclass


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
    redis_url: str | None = None    # several workers: Redis pub/sub (docs/deploy.md)

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
            redis_url=os.environ.get("SPILLEBORD_REDIS") or None,
            warm_workers=os.environ.get("SPILLEBORD_WARM", "1").lower()
            not in ("0", "false", "no", "off"),
        )
