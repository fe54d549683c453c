"""Ratings (issue 15; docs/server.md, "Ratings"): OpenSkill (Plackett-Luce, the
``openskill`` package) per named account, table game and seat-count class.

A finished table match is *rated* when every seat is a human whose player has an
account and a name; a bot or a guest at the table leaves it unrated (bots are not
given a made-up fixed rating).  Kugler is rated as teams (seat ``t`` with ``t + n/2``),
the other table games seat by seat; the outcome's ``ranking`` (groups best first, ties
sharing a group) gives the ranks.  Each match is rated exactly once: the rater marks it
in ``rated_matches`` inside the very transaction that writes the new ratings, so a
second worker — or a second look after a crash — finds the mark and does nothing.  A
sweeper on every worker looks for finished, unmarked matches once a second, so a game
whose worker died right after its last move is rated by another worker.

The number shown is ``1000 + 40 × (μ − 3σ)`` rounded: 1000 for a newcomer, rising as
the rating grows surer and better.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from spillebord.server.rating_math import rate, seat_class
from spillebord.server.storage.ratings import RatingsRepo
from spillebord.server.storage.repo import now

log = logging.getLogger(__name__)
SWEEP = 1.0


class Ratings:
    def __init__(self, repo: RatingsRepo) -> None:
        self.repo = repo
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._sweep(), name="ratings")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            try:
                await self.sweep_once()
            except Exception:
                log.warning("rating finished matches failed", exc_info=True)

    async def sweep_once(self) -> int:
        """Rate every finished match not looked at yet; the number this call rated."""
        done = 0
        for match_id in await asyncio.to_thread(self.repo.pending):
            if await asyncio.to_thread(self.repo.rate_match, match_id, now(), self.compute):
                done += 1
        return done

    @staticmethod
    def compute(game: str, seats: int, ranking: Sequence[Sequence[int]],
                before: dict[int, tuple[float, float]]) -> tuple[str, dict[int, Any]]:
        return seat_class(game, seats), rate(game, seats, ranking, before)
