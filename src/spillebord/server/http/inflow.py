"""How much one WebSocket may send (issue 29: a flood must cost the server almost
nothing).  docs/protocol.md "Limits", docs/security.md.

Each socket has a token bucket of ``rate`` tokens a second (``SPILLEBORD_RATE``), holding
at most two seconds' worth.  A frame takes one token; a frame the server refuses (any
``error`` answer but ``internal`` and ``unavailable``) takes ``REFUSAL_COST`` more, so a
client that keeps asking what is refused (``busy`` hints, stale or malformed frames)
runs out long before one that plays.  A question answered again from the answer already
given at the same position (a hint or verdict asked twice: http/questions.py) costs as much:
a page asks again now and then, a flood keeps asking, and its answers, cheap as they
are, must not come faster than its refusals did.

A socket with less than one token is **not read** until it has one again (``pause``):
its frames wait in the client's own buffers (TCP back-pressure) and are handled in
their turn, so a flood costs the server at most ``rate`` frames a second, whatever the
client sends.  A socket paused again and again — no second without a pause — for
``FLOOD_SECONDS`` on end is flooding: it gets ``rate_limited`` with ``ref: "socket"``
and is closed with 1008 (policy violation).  A page that sends a burst now and then is
paused for a moment and never comes near that.
"""

from __future__ import annotations

import math
import time

REFUSAL_COST = 10.0   # tokens a refused frame costs on top of its own one
FLOOD_SECONDS = 7.0   # paused this long on end (no second without a pause): closed (1008)
STREAK_GAP = 1.0      # a second without a pause ends a streak of pauses
UNCHARGED = frozenset({"internal", "unavailable"})  # refusals that are not the client's doing


class Inflow:
    """One socket's bucket (see the module docstring)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = 2 * rate
        self.last = time.monotonic()
        self.streak = 0.0  # when the current streak of pauses began
        self.paused = -math.inf  # when the socket was last paused

    def _refill(self, now: float) -> None:
        self.tokens = min(2 * self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def took(self) -> None:
        """A frame was read."""
        self.tokens -= 1

    def refused(self, code: str) -> None:
        """A frame was answered with an error ``code``."""
        if code not in UNCHARGED:
            self.tokens -= REFUSAL_COST

    def repeated(self) -> None:
        """A question was answered again from the answer already given (costs as much as
        a refusal: the module docstring)."""
        self.tokens -= REFUSAL_COST

    def pause(self) -> float:
        """Seconds to leave the socket unread before its next frame (0: read now)."""
        now = time.monotonic()
        self._refill(now)
        if self.tokens >= 1:
            return 0.0
        if now - self.paused > STREAK_GAP:
            self.streak = now
        self.paused = now
        return (1 - self.tokens) / self.rate

    def flooding(self) -> bool:
        """Whether the socket has been paused again and again for FLOOD_SECONDS."""
        return self.paused - self.streak > FLOOD_SECONDS
