"""The bot ladder's rater: every worker looks once a second for finished table matches
the ladder has not seen (each is looked at exactly once: repo.py), like the players'
rater in server/ratings/service.py but with the ladder's own tables and model."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta

from spillebord.server.botaccounts.repo import BotAccountsRepo
from spillebord.server.infra.background import cancel, every
from spillebord.server.infra.storage.repo import now

log = logging.getLogger(__name__)
SWEEP = 1.0
BATCH = 100
MARGIN = timedelta(seconds=60)  # a look goes this far back before the previous one
FULL_EVERY = 600.0  # seconds between looks at every finished match (the backstop)


class BotLadder:
    def __init__(self, repo: BotAccountsRepo) -> None:
        self.repo = repo
        self.task: asyncio.Task[None] | None = None
        self.since: datetime | None = None  # None: the next look sees every match
        self._full_at = -FULL_EVERY

    def start(self) -> None:
        self.task = every(SWEEP, self.sweep_once, "bot-ladder",
                          "rating matches on the bot ladder failed", log)

    async def stop(self) -> None:
        await cancel(self.task)

    async def sweep_once(self) -> int:
        """Look at the finished matches not seen yet; how many this call looked at."""
        started, clock = now(), time.monotonic()
        if clock - self._full_at >= FULL_EVERY:
            self.since, self._full_at = None, clock
        ids = await asyncio.to_thread(self.repo.pending, BATCH, self.since)
        done = 0
        for match_id in ids:
            if await asyncio.to_thread(self.repo.rate_match, match_id, now()):
                done += 1
        if len(ids) < BATCH:
            self.since = started - MARGIN
        return done
