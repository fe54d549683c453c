"""Test helpers: a real uvicorn server in a thread on a free loopback port with a
temporary SQLite file, and a small WebSocket client for the protocol."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
import websockets
from tests.services import OnLoopback, free_port

from spillebord.server.app import create_app
from spillebord.server.infra.compute import Compute, process_of
from spillebord.server.infra.quotas import Limits
from spillebord.server.infra.settings import Settings


class SharedPools:
    """The bot and solver worker processes of every LiveServer in this test process.

    A compute worker process costs ≈ 2–3 s of CPU before its first answer (a spawned
    Python importing the games, bots and solvers and loading their compiled kernels), and
    a server tier of ~90 servers started ~100 of them (issue 30, session 11).  While
    ``on`` (tests/server/conftest.py, for the whole session), each server's Compute makes
    a pool as the product does — the same executor, initializer and lane — the first
    time any server needs it, and every later server uses that one; the server's own
    shutdown leaves it running, ``close()`` ends them at the session's end.  What runs
    in them is a pure function of its arguments (a game record in, an action or a
    verdict out), so a server cannot tell.  A test of the processes themselves starts
    its server with ``own_compute=True``."""

    def __init__(self) -> None:
        self.on = False
        self.pools: dict[str, Executor] = {}

    def share(self, compute: Compute) -> None:
        make = compute._pool

        def pool(kind: str, name: str) -> Executor:
            if kind != "process":
                return make(kind, name)
            process = process_of(name)  # (the two low lanes share one)
            shared = self.pools.get(process)
            if shared is None or getattr(shared, "_broken", False):
                shared = self.pools[process] = make(kind, name)
                del compute._process[process]  # not this server's to stop
            return shared

        compute._pool = pool  # type: ignore[method-assign]

    def close(self) -> None:
        for pool in self.pools.values():
            pool.shutdown(wait=True, cancel_futures=True)
        self.pools.clear()
        self.on = False


SHARED = SharedPools()


class LiveServer(OnLoopback):
    """uvicorn serving ``create_app(settings)`` in a background thread (its compute
    processes shared with the other servers of the test process: :class:`SharedPools`)."""

    def __init__(self, settings: Settings, own_compute: bool = False) -> None:
        self.settings = settings
        self.port = free_port()
        self.app = create_app(settings)
        if SHARED.on and not own_compute and not settings.warm_workers:
            SHARED.share(self.app.state.services.compute)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="on", ws_ping_interval=None,
                                proxy_headers=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.exit: BaseException | None = None

    def _run(self) -> None:
        try:
            self.server.run()
        except SystemExit as exc:  # uvicorn exits when the app's start-up fails
            self.exit = exc

    def start(self) -> LiveServer:
        self.thread.start()
        # Generous: on a loaded 2-core machine (CI beside other work) a start that takes
        # 20 s is slow, not broken; a start that fails ends the wait at once (thread ends).
        deadline = time.monotonic() + 90
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"the test server did not start ({self.exit!r})")
            time.sleep(0.02)
        warmup = self.app.state.services.warmup  # the start-up's background part (warmup.py)
        while not (warmup.ready or warmup.failed):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the test server is still warming: {warmup.report()}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        # Until the shutdown has run (its compute processes stopped): the join ends when
        # it has; 20 s ran out at load ≈ 30 and the processes outlived the test.
        self.thread.join(timeout=120)

    @property
    def services(self) -> Any:
        return self.app.state.services


def settings_for(db_path: str, **overrides: Any) -> Settings:
    base: dict[str, Any] = {"db_url": f"sqlite:///{db_path}", "bot_delay": 0.0,
                            "hint_seconds": 2.0, "verdict_seconds": 2.0,
                            "winnable_seconds": 10.0, "rate_per_second": 1000.0,
                            # workers start on first use (the serve test covers warm-up)
                            "warm_workers": False,
                            # the tests stand in for the proxy (X-Forwarded-For/-Proto)
                            "trusted_proxies": ("127.0.0.1",),
                            # every test client is 127.0.0.1: quotas only where tested
                            # (test_quotas.py)
                            "limits": Limits.off(),
                            # Argon2 at 8 MiB: a hash costs ≈ 5 ms of CPU instead of ≈ 65
                            # (every server hashes once at start, every sign-up and
                            # sign-in once); test_accounts.py and test_signup_flood.py
                            # run with the production settings
                            "argon2_memory_kib": 8192,
                            # daily deals are chosen when first asked for (a solver
                            # process and ~4 s CPU a server saved; test_daily_ahead.py
                            # covers the choosing at start)
                            "daily_ahead": False}
    base.update(overrides)
    return Settings(**base)


@dataclass
class Client:
    """One WebSocket connection speaking the protocol; remembers the newest state."""

    conn: Any
    state: dict[str, Any] | None = None
    version: int = 0
    seen: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    seat_updates: list[list[dict[str, Any]]] = field(default_factory=list)

    @classmethod
    async def open(cls, base: str, match_id: str, token: str | None = None,
                   signed: Any = None) -> Client:
        """``signed``: an httpx client signed in as the seat's account (an account's
        seat answers only to a socket carrying its session cookie)."""
        url = f"{base}/ws/{match_id}" + (f"?token={token}" if token else "")
        headers = {}
        if signed is not None and signed.cookies.get("spillebord_session"):
            headers["Cookie"] = f"spillebord_session={signed.cookies['spillebord_session']}"
        conn = await websockets.connect(url, max_size=2**22, additional_headers=headers)
        return cls(conn)

    async def send(self, t: str, v: Any = None, **d: Any) -> None:
        await self.conn.send(json.dumps({"t": t, "v": self.version if v is None else v,
                                         "d": d}))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message; ``seats`` messages (the other seats' claims and presence)
        are kept in ``seat_updates`` and skipped."""
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.0, deadline - time.monotonic())
            text = await asyncio.wait_for(self.conn.recv(), left)
            self.raw.append(text)
            msg: dict[str, Any] = json.loads(text)
            if msg["t"] == "seats":
                self.seat_updates.append(msg["d"]["seats"])
                continue
            self.seen.append(msg)
            if msg["t"] == "state":
                self.state = msg["d"]
                self.version = msg["v"]
            return msg

    async def expect(self, t: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of type ``t``; state messages on the way are absorbed,
        anything else is a test failure."""
        while True:
            msg = await self.recv(timeout)
            if msg["t"] == t:
                return msg
            assert msg["t"] == "state", f"expected {t}, got {msg}"

    async def until(self, pred: Any, timeout: float = 60.0) -> dict[str, Any]:
        """Read until the newest state satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        while self.state is None or not pred(self.state):
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; last state {self.state}"
            msg = await self.recv(left)
            assert msg["t"] in ("state", "welcome"), msg
        return self.state

    async def close(self) -> None:
        await self.conn.close()


async def create(base: str, **body: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out


async def play_randomly(c: Client, rng: Any, max_actions: int = 150) -> dict[str, Any]:
    """Play the client's seat with random legal actions until the game is over; after
    ``max_actions`` of its own, resign when resigning is legal.  Any error fails."""
    sent_at = -1
    mine = 0
    while True:
        st = await c.until(lambda s, after=sent_at: s["outcome"] is not None
                           or (bool(s["legal"]) and c.version > after))
        if st["outcome"] is not None:
            return st
        legal = st["legal"]
        calm = [a for a in legal if a != "resign"]
        if mine >= max_actions and "resign" in legal:
            action = "resign"
        else:
            action = rng.choice(calm or legal)
        sent_at = c.version
        await c.send("act", action=action)
        mine += 1


def table_seats(game: Any) -> list[Any]:
    """'me' in seat 0 and random bots in the others, for the game's smallest table."""
    n = game.seat_counts[0]
    return ["me", *[{"bot": "random"} for _ in range(n - 1)]]
