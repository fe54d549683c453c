"""Which seats have a socket on some other worker (for bot takeover across workers).

Takeover plays for a human seat whose sockets have all been gone for a while; with
several workers a seat's socket may be on another worker, so each worker announces its
own connected seats on the bus (a snapshot on every change and every
``INTERVAL`` seconds) and keeps the others' newest snapshots.  A worker that has not
been heard from for ``EXPIRY`` seconds (it died) no longer counts, so its seats become
"away" and takeover can start once the room's timeout has passed.
"""

from __future__ import annotations

import json
import time
from typing import Any

INTERVAL = 2.0
EXPIRY = 3 * INTERVAL + 0.5
WATCH = -1  # not a seat: "this worker has sockets on the match" (redis_bus.py)


class PresenceTable:
    def __init__(self) -> None:
        self.local: dict[str, dict[int, int]] = {}
        # worker -> (monotonic time heard, {match: [seats]})
        self.remote: dict[str, tuple[float, dict[str, list[int]]]] = {}

    def set_local(self, match_id: str, seat: int, count: int) -> None:
        seats = self.local.setdefault(match_id, {})
        if count > 0:
            seats[seat] = count
        else:
            seats.pop(seat, None)
            if not seats:
                del self.local[match_id]

    def snapshot(self) -> str:
        return json.dumps({m: sorted(s) for m, s in self.local.items()},
                          separators=(",", ":"))

    def watched_elsewhere(self, match_id: str) -> bool:
        """Whether another worker has any socket on the match."""
        return any(match_id in seats for _t, seats in self.remote.values())

    def elsewhere(self, match_id: str, seat: int) -> bool:
        return any(seat in seats.get(match_id, ()) for _t, seats in self.remote.values())

    def receive(self, worker: str, payload: str, now: float | None = None) -> set[str]:
        """Store a worker's snapshot; returns the matches whose presence changed."""
        try:
            raw: Any = json.loads(payload)
            seats = {str(m): [int(x) for x in v] for m, v in raw.items()}
        except (ValueError, TypeError, AttributeError):
            return set()
        old = self.remote.get(worker, (0.0, {}))[1]
        self.remote[worker] = (time.monotonic() if now is None else now, seats)
        return {m for m in set(old) | set(seats) if sorted(old.get(m, [])) !=
                sorted(seats.get(m, []))}

    def expire(self, now: float | None = None) -> set[str]:
        """Forget workers not heard from lately; returns the matches that changed."""
        now = time.monotonic() if now is None else now
        changed: set[str] = set()
        for worker, (heard, seats) in list(self.remote.items()):
            if now - heard > EXPIRY:
                del self.remote[worker]
                changed |= set(seats)
        return changed
