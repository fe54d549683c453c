"""Ratings (issue 15; docs/server.md, "Ratings"): OpenSkill (Plackett-Luce, the
``openskill`` package) per named account, table game and seat-count class.

A finished table match is *rated* when every seat is a human whose player had an account
and a name from the game's first move; a bot or a guest at the table leaves it unrated
(bots are not given a made-up fixed rating). A seat a bot played for its player loses, a
pair's games beyond three a day move nobody, and a rating is provisional until
established (``core/rating_rules.py``, issue 28). Kugler is rated as teams (the game's
``teams()``), the other table games seat by seat; the outcome's ``ranking`` (groups best
first, ties sharing a group) gives the ranks. Each match is rated exactly once: the
rater marks it in ``rated_matches`` inside the very transaction that writes the new
ratings, so a second worker — or a second look after a crash — finds the mark and does
nothing. A sweeper on every worker looks for finished, unmarked matches once a second,
so a game whose worker died right after its last move is rated by another worker. After
its first look (every finished match) the sweeper looks only at matches finished since
its last look, less ``MARGIN`` (a game's end is committed a moment after its
``finished`` time), and at all of them again every ``FULL_EVERY`` seconds: a second's
look costs an index range, not a scan of every match ever played.

The number shown is ``1000 + 40 × (μ − 3σ)`` rounded: 1000 for a newcomer, rising as the
rating grows surer and better.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from spillebord.core.rating import rate, seat_class
from spillebord.server.infra.background import cancel, every
from spillebord.server.infra.storage.repo import now
from spillebord.server.ratings.storage import RatingsRepo

log = logging.getLogger(__name__)
SWEEP = 1.0
BATCH = 100  # matches rated per look at most
MARGIN = timedelta(seconds=60)  # a look goes this far back before the previous one
FULL_EVERY = 600.0  # seconds between looks at every finished match (the backstop)


class Ratings:
    def __init__(self, repo: RatingsRepo) -> None:
        self.repo = repo
        self.task: asyncio.Task[None] | None = None
        self.since: datetime | None = None  # None: the next look sees every match
        self._full_at = -FULL_EVERY  # monotonic time of the last look at every match

    def start(self) -> None:
        self.task = every(SWEEP, self.sweep_once, "ratings",
                          "rating finished matches failed", log)

    async def stop(self) -> None:
        await cancel(self.task)

    async def sweep_once(self) -> int:
        """Rate the finished matches not looked at yet (every one on a full look, else
        those finished since the previous look); the number this call rated."""
        started, clock = now(), time.monotonic()
        if clock - self._full_at >= FULL_EVERY:
            self.since, self._full_at = None, clock
        ids = await asyncio.to_thread(self.repo.pending, BATCH, self.since)
        done = 0
        for match_id in ids:
            if await asyncio.to_thread(self.repo.rate_match, match_id, now(), self.compute):
                done += 1
        if len(ids) < BATCH:  # all seen: the next look starts from here
            self.since = started - MARGIN
        return done

    @staticmethod
    def compute(game: str, seats: int, ranking: Sequence[Sequence[int]],
                before: dict[int, tuple[float, float]]) -> tuple[str, dict[int, Any]]:
        return seat_class(game, seats), rate(game, seats, ranking, before)
