"""The services' background tasks: one that runs a piece of work every few seconds, and
stopping one (cancel it, wait for it to end)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from spillebord.server.infra.storage.health import READS


def every(seconds: float, work: Callable[[], Awaitable[object]], name: str, failed: str,
          log: logging.Logger) -> asyncio.Task[None]:
    """A task that waits ``seconds``, then runs ``work``, for ever; a failure is logged
    as a warning (``failed``) and the next round comes anyway — the database being
    unreachable once per outage, without a traceback."""

    async def run() -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except Exception as exc:
                if not READS.note(exc, name):  # an outage: one line (storage/health.py)
                    log.warning(failed, exc_info=True)

    return asyncio.create_task(run(), name=name)


async def cancel(task: asyncio.Task[None] | None) -> None:
    """Stop a background task: cancel it and wait until it has ended."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
