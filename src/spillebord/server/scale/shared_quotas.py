"""The quotas' rates counted in Redis, so that several workers share them (issue 29;
docs/deploy.md "Limits").  Shared mode only (``SPILLEBORD_REDIS``).

A rate "``n`` per window" is a counter per key and window — the window by the clock
(``int(time / window)``), the key ``spillebord:quota:<what>:<key>:<window number>`` —
checked and counted by one Lua script, so that one spending is all counted or none
(every key under its limit) with no other worker in between.  The counters expire with
their window.  A fixed window by the clock lets a client spend up to twice a limit
across a window's edge (the workers' own sliding windows do not); the per-worker
sliding window still applies on top.

When Redis cannot be reached the quotas fall back to each worker's own count (logged
once per outage, tried again after ``RETRY_SECONDS``): a client spread over N workers
may then get up to N times a rate — as without Redis.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
RETRY_SECONDS = 10.0  # after a failure, how long the workers count alone
TIMEOUT = 0.5         # seconds a request may wait for Redis before counting locally

# KEYS: the counters; ARGV[1]: the window in ms; ARGV[1 + i]: the limit of KEYS[i].
# Returns 0 (all counted) or the milliseconds until the first full counter expires.
SPEND = """
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 1 then ttl = 1 end
    return ttl
  end
end
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then
    redis.call('PEXPIRE', key, ARGV[1])
  end
end
return 0
"""


class SharedRates:
    """The Redis side of ``Quotas.spend_all`` (infra/quotas.py)."""

    def __init__(self, url: str) -> None:
        self.client: Any = aioredis.Redis.from_url(url, socket_connect_timeout=TIMEOUT,
                                                   socket_timeout=TIMEOUT)
        self.script: Any = self.client.register_script(SPEND)
        self.down_until = 0.0

    async def spend(self, keys: Sequence[tuple[str, int]], window: float) -> float | None:
        """Count one spending for every (key, limit): the seconds to wait when a key is
        at its limit (nothing counted), 0 when counted, None when Redis is away (the
        caller counts in this worker only)."""
        if not keys or time.monotonic() < self.down_until:
            return None
        number = int(time.time() // window)
        try:
            wait = await self.script(
                keys=[f"spillebord:quota:{k}:{number}" for k, _n in keys],
                args=[math.ceil(window * 1000), *(n for _k, n in keys)])
        except (RedisError, OSError) as exc:
            self.down_until = time.monotonic() + RETRY_SECONDS
            log.warning("quotas: Redis is unreachable (%s); each worker counts alone "
                        "for %g s", type(exc).__name__, RETRY_SECONDS)
            return None
        return int(wait) / 1000

    async def close(self) -> None:
        await self.client.aclose()
