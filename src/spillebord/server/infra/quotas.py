"""Quotas (issue 29, docs/deploy.md "Limits"): how much one player and one address may
create and hold, so that one client cannot fill the database, the lobby or the sockets.

Two kinds of limit, each per player (the signed-in account or the guest id) and per
client address (``request.client.host``: the peer, or ``X-Forwarded-For`` from a
trusted proxy only, proxies.py):

- **rates** — at most ``n`` in a sliding window (matches and public tables created per
  minute, guests per address per hour, sign-ups per hour, sign-in tries per minute);
- **live at once** — matches, public tables and bots-only rooms created here that are
  still running and loaded (a parked or finished game holds nothing), and open sockets.

A refusal is ``429 rate_limited`` with ``Retry-After`` (HTTP; the API's JSON error with
``retry_after``) or, for a socket past its address's share, an ``error`` message
``rate_limited`` with ``ref: "socket"`` and ``retry_after`` before the socket closes.

Every count is kept in this worker's memory.  In shared mode (several workers, Redis)
the **rates** are also counted in Redis (``shared``: scale/shared_quotas.py), so they
hold across the workers; when Redis is away each worker counts alone.  The live counts
and sockets stay per worker (a client spread over N workers may hold up to N times
them; docs/deploy.md says how to bound that in front with nginx ``limit_conn``).
"""

from __future__ import annotations

import collections
import contextlib
import json
import math
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields
from typing import Protocol

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from spillebord.server.errors import Refusal

PLURAL = {"match": "matches", "table": "tables", "bot_room": "bot rooms"}
TOO_MANY = {"match": "server.too_many_matches", "table": "server.too_many_tables",
            "bot_room": "server.too_many_bot_rooms"}  # catalogue keys
MINUTE = 60.0
HOUR = 3600.0


@dataclass(frozen=True)
class Limits:
    """Every quota, its default and (docs/deploy.md) its ``SPILLEBORD_LIMIT_<NAME>``.
    A value of 0 switches that quota off."""

    matches_per_minute: int = 20           # matches created, per player
    matches_per_minute_address: int = 60   # ... per address (a school, a café: one address)
    matches_live: int = 20                 # running matches created and loaded, per player
    matches_live_address: int = 60         # ... per address
    tables_per_minute: int = 4             # public tables opened, per player
    tables_per_minute_address: int = 12    # ... per address
    tables_live: int = 2                   # public tables open at once, per player
    tables_live_address: int = 6           # ... per address
    bot_rooms_live: int = 2                # bots-only rooms running at once, per creator
    bot_rooms_live_address: int = 4        # ... per address
    guests_per_hour_address: int = 60      # new guest ids (POST /api/players), per address
    signups_per_hour_address: int = 20     # sign-up tries, per address
    signins_per_minute_address: int = 30   # sign-in tries (any outcome), per address
    sockets_address: int = 64              # open WebSockets (games and lobby), per address
    lesson_moves_per_minute_address: int = 120  # POST /api/learn/{game}, per address
    analyses_per_minute_address: int = 6   # analyses computed (not the kept ones), per
    #                                        address (GET /api/matches/{id}/analysis)
    analyses_waiting: int = 4              # analyses computing or waiting in this worker
    #                                        before more are refused (429 busy)
    table_away_seconds: int = 60           # a public table leaves the lobby when its
    #                                        creator has been away this long (tables/expiry.py)
    table_close_seconds: int = 900         # ... and for good when nobody joined it this long

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Limits:
        """The defaults, each overridden by ``SPILLEBORD_LIMIT_<NAME>``;
        ``SPILLEBORD_LIMITS=off`` switches every quota off (test rigs and benches)."""
        env = dict(os.environ) if env is None else env
        if env.get("SPILLEBORD_LIMITS", "").lower() == "off":
            return cls.off()
        values = {}
        for f in fields(cls):
            raw = env.get(f"SPILLEBORD_LIMIT_{f.name.upper()}", "")
            if raw.strip():
                values[f.name] = int(raw)
        return cls(**values)

    @classmethod
    def off(cls) -> Limits:
        return cls(**{f.name: 0 for f in fields(cls)})


def client_address(conn: HTTPConnection) -> str | None:
    """The client's address as the quotas count it (proxies.py decides whom to trust)."""
    return conn.client.host if conn.client else None


def rate_limited(what: str, retry_after: float) -> Refusal:
    seconds = max(1, math.ceil(retry_after))
    return Refusal("rate_limited", f"too many {what}; try again in {seconds} s", 429,
                   key="server.rate_limited", params={"seconds": seconds},
                   retry_after=seconds)


class Window:
    """A sliding-window counter per key: the times of the last ``n`` events."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.times: dict[str, collections.deque[float]] = {}
        self._swept = time.monotonic()

    def wait(self, key: str, n: int, at: float) -> float:
        """Seconds until ``key`` may act again under ``n`` per window (0: now)."""
        past = self.times.get(key)
        if past is None:
            return 0.0
        while past and past[0] <= at - self.seconds:
            past.popleft()
        return 0.0 if len(past) < n else past[0] + self.seconds - at

    def add(self, key: str, at: float) -> None:
        self.times.setdefault(key, collections.deque()).append(at)
        if at - self._swept > self.seconds:  # forget the keys gone quiet
            self._swept = at
            for k in [k for k, d in self.times.items() if not d or d[-1] <= at - self.seconds]:
                del self.times[k]


class Shared(Protocol):
    """Rates counted across the workers (scale/shared_quotas.py ``SharedRates``)."""

    async def spend(self, keys: Sequence[tuple[str, int]], window: float
                    ) -> float | None: ...


class Quotas:
    """The counters of one worker.  ``alive(match_id)`` says whether a match still
    holds its creator's share (running and loaded here); ``shared``: the rates' shared
    counters in shared mode."""

    def __init__(self, limits: Limits, alive: Callable[[str], bool],
                 shared: Shared | None = None) -> None:
        self.limits = limits
        self.alive = alive
        self.shared = shared
        self.windows = {MINUTE: Window(MINUTE), HOUR: Window(HOUR)}
        self.held: dict[tuple[str, str], set[str]] = {}  # (kind, key) → match ids
        self.sockets: collections.Counter[str] = collections.Counter()

    # -- rates --------------------------------------------------------------------
    async def spend(self, what: str, per: Iterable[tuple[str | None, int]],
                    window: float = MINUTE) -> None:
        """Count one ``what`` for every (key, limit) given, or refuse (counting none)
        when any key is at its limit.  A None key or a 0 limit is skipped."""
        await self.spend_all([(what, per)], window)

    async def spend_all(self, groups: Iterable[tuple[str, Iterable[tuple[str | None, int]]]],
                        window: float = MINUTE) -> None:
        """``spend`` for several things at once: all counted, or none — here, and in
        Redis when shared (this worker's window first: a refusal costs no round trip)."""
        at = time.monotonic()
        counter = self.windows[window]
        keys = [(what, f"{what}:{key}", n) for what, per in groups
                for key, n in per if key is not None and n > 0]
        for what, k, n in keys:
            wait = counter.wait(k, n, at)
            if wait > 0:
                raise rate_limited(what.replace("_", " "), wait)
        if self.shared is not None and keys:
            shared = await self.shared.spend([(k, n) for _what, k, n in keys], window)
            if shared:
                raise rate_limited(keys[0][0].replace("_", " "), shared)
        for _what, k, _n in keys:
            counter.add(k, at)

    # -- matches ------------------------------------------------------------------
    async def creating(self, player: str | None, address: str | None, public: bool,
                       bots_only: bool) -> None:
        """Before a match is created (after its request was checked): refuse past a
        rate or a live count; counts the creation towards the rates."""
        lim = self.limits
        for kind, live, live_address, on in (
                ("match", lim.matches_live, lim.matches_live_address, True),
                ("table", lim.tables_live, lim.tables_live_address, public),
                ("bot_room", lim.bot_rooms_live, lim.bot_rooms_live_address, bots_only)):
            if not on:
                continue
            for key, n in ((player, live), (address, live_address)):
                if key is not None and n > 0 and self._live(kind, key) >= n:
                    raise Refusal("rate_limited", f"too many {PLURAL[kind]} "
                                  f"running at once (at most {n}); finish or leave one first",
                                  429, key=TOO_MANY[kind],
                                  params={"max": n},
                                  retry_after=60)
        groups: list[tuple[str, Iterable[tuple[str | None, int]]]] = [
            ("matches", [(player, lim.matches_per_minute),
                         (address, lim.matches_per_minute_address)])]
        if public:
            groups.append(("tables", [(player, lim.tables_per_minute),
                                      (address, lim.tables_per_minute_address)]))
        await self.spend_all(groups)

    def created(self, match_id: str, player: str | None, address: str | None,
                public: bool, bots_only: bool) -> None:
        for kind, on in (("match", True), ("table", public), ("bot_room", bots_only)):
            for key in (player, address):
                if on and key is not None:
                    self.held.setdefault((kind, key), set()).add(match_id)

    def _live(self, kind: str, key: str) -> int:
        held = self.held.get((kind, key))
        if not held:
            return 0
        held -= {m for m in held if not self.alive(m)}
        if not held:
            del self.held[(kind, key)]
        return len(held)

    # -- people ---------------------------------------------------------------------
    async def new_guest(self, address: str | None) -> None:
        await self.spend("guests", [(address, self.limits.guests_per_hour_address)], HOUR)

    async def sign_up(self, address: str | None) -> None:
        await self.spend("sign_ups", [(address, self.limits.signups_per_hour_address)], HOUR)

    async def sign_in(self, address: str | None) -> None:
        await self.spend("sign_in_tries", [(address, self.limits.signins_per_minute_address)])

    async def lesson_move(self, address: str | None) -> None:
        await self.spend("lesson_moves", [(address, self.limits.lesson_moves_per_minute_address)])

    async def analysis(self, address: str | None, waiting: int) -> None:
        """Before an analysis is computed (``waiting``: how many are computing or waiting
        in this worker now): refuse past the address's rate or a full queue."""
        n = self.limits.analyses_waiting
        if n > 0 and waiting >= n:
            raise Refusal("busy", "the server is analysing other games; try again in a "
                                  "moment", 429, key="server.analysis_busy", retry_after=10)
        await self.spend("analyses", [(address, self.limits.analyses_per_minute_address)])

    # -- sockets --------------------------------------------------------------------
    @asynccontextmanager
    async def socket(self, ws: WebSocket) -> AsyncIterator[bool]:
        """Hold one of the address's sockets while the body runs; yields False (and
        has refused the socket) when the address has all its sockets open."""
        address = client_address(ws)
        n = self.limits.sockets_address
        if address is not None and n > 0 and self.sockets[address] >= n:
            refusal = Refusal("rate_limited", f"at most {n} open connections from one "
                                              "address", 429, key="server.too_many_sockets",
                              params={"max": n}, retry_after=10)
            with contextlib.suppress(Exception):  # the client may be gone already
                await ws.accept()
                await ws.send_text(json.dumps({"t": "error", "v": 0,
                                               "d": {**refusal.to_json(), "ref": "socket"}},
                                              separators=(",", ":"), ensure_ascii=False))
                await ws.close(code=1013)  # try again later
            yield False
            return
        if address is not None:
            self.sockets[address] += 1
        try:
            yield True
        finally:
            if address is not None:
                self.sockets[address] -= 1
                if self.sockets[address] <= 0:
                    del self.sockets[address]
