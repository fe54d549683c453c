"""How much one WebSocket may send (issue 29: a flood must cost the server almost
nothing).  docs/protocol.md "Limits", docs/security.md.

Each socket has a token bucket of ``rate`` tokens a second (``SPILLEBORD_RATE``), holding
at most two seconds' worth.  A frame takes one token; a frame the server refuses (any
``error`` answer but ``rate_limited`` itself) takes ``REFUSAL_COST`` more, so a client
that keeps asking what is refused (``busy`` hints, stale or malformed frames) runs out
long before one that plays.  A frame that finds less than one token is answered
``rate_limited`` and does nothing.

While the bucket is in debt the socket is **not read** (``pause``): its frames wait in
the client's own buffers (TCP back-pressure), so a flood costs the server one cheap
refusal per token, not one per frame sent.  The seconds a socket spends paused add up to
its *strain*, which decays (time constant ``STRAIN_SECONDS``); past ``STRAIN_LIMIT``
the socket is flooding — it gets ``rate_limited`` with ``ref: "socket"`` and is closed
with 1008 (policy violation).  A page that sends a burst now and then is paused for a
moment and never comes near that; a client that floods for about seven seconds
(continuously over the rate) is cut off.
"""

from __future__ import annotations

import math
import time

REFUSAL_COST = 10.0    # tokens a refused frame costs on top of its own one
STRAIN_SECONDS = 10.0  # how fast the strain (seconds spent paused) decays
STRAIN_LIMIT = 5.0     # strain past which the socket is closed (1008)
UNCHARGED = frozenset({"rate_limited", "internal", "unavailable"})  # not the client's doing


class Inflow:
    """One socket's bucket (see the module docstring)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = 2 * rate
        self.last = time.monotonic()
        self.strain = 0.0
        self.strained = self.last

    def _refill(self, now: float) -> None:
        self.tokens = min(2 * self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def admit(self) -> bool:
        """Take one frame's token; False when there was less than one (refuse it)."""
        self._refill(time.monotonic())
        ok = self.tokens >= 1
        self.tokens -= 1
        return ok

    def refused(self, code: str) -> None:
        """The frame was answered with an error ``code``."""
        if code not in UNCHARGED:
            self.tokens -= REFUSAL_COST

    def pause(self) -> float:
        """Seconds to leave the socket unread before its next frame (0: read now); they
        count towards the strain."""
        now = time.monotonic()
        self._refill(now)
        if self.tokens >= 0:
            return 0.0
        wait = -self.tokens / self.rate
        self.strain = self.strain * math.exp((self.strained - now) / STRAIN_SECONDS) + wait
        self.strained = now
        return wait

    def flooding(self) -> bool:
        return self.strain > STRAIN_LIMIT
