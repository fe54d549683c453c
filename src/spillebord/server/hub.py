"""The hub: the app's services (settings, repository, writer, bus, serializer, compute)
and the live sessions — loading and adopting matches (lobby.py creates them), claiming
invites, reloading unfinished games at start."""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import time
from datetime import timedelta
from typing import Any

from spillebord import games
from spillebord.server.botaccounts.ladder import BotLadder
from spillebord.server.botaccounts.repo import BotAccountsRepo
from spillebord.server.chat.service import Chat
from spillebord.server.chat.storage import ChatRepo
from spillebord.server.errors import Refusal
from spillebord.server.http.ops import Ops
from spillebord.server.http.quotas import Quotas
from spillebord.server.infra import compute
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.metrics import Metrics
from spillebord.server.infra.scale import wiring
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.engine import Checkpointer, SqliteOwner, make_engine
from spillebord.server.infra.storage.repo import MatchRow, Repository, now
from spillebord.server.infra.storage.writer import GroupWriter
from spillebord.server.infra.warmup import Warmup
from spillebord.server.people.service import People
from spillebord.server.people.storage import PeopleRepo
from spillebord.server.ratings.service import Ratings
from spillebord.server.ratings.storage import RatingsRepo
from spillebord.server.room.bots import BotDriver
from spillebord.server.room.parking import Parking
from spillebord.server.room.ports import DriverPresence, Observers, RoomPorts
from spillebord.server.room.session import Session, token_hash
from spillebord.server.tables.service import Tables

log = logging.getLogger(__name__)


GC_THRESHOLDS = (10_000, 20, 20)  # the default is (700, 10, 10)


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.db_url)
        self.repo = Repository(self.engine)
        self.people = People(PeopleRepo(self.engine), settings)
        self.tables = Tables(self)
        self.chat = Chat(ChatRepo(self.engine), settings.chat_burst, settings.chat_every,
                         lambda: self.writer)
        self.ratings = Ratings(RatingsRepo(self.engine))
        self.bot_ladder = BotLadder(BotAccountsRepo(self.engine))  # botaccounts/
        from spillebord.server.daily.service import Daily  # daily.py's routes import the hub

        self.daily = Daily(self)
        # One worker: in-process bus and locks.  SPILLEBORD_REDIS (with PostgreSQL):
        # Redis pub/sub and PostgreSQL advisory locks across workers (scale/).
        self.scale = wiring.install(self)
        self.bus = self.scale.bus
        self.serializer = self.scale.serializer
        self.compute = Compute(settings.solver_pool, settings.bot_pool)
        self.ops = Ops(self)  # health, readiness, drain (server/ops.py)
        self.metrics = Metrics(self)  # /metrics (server/metrics.py)
        self.parking = Parking(self)  # idle games leave memory (server/parking.py)
        self.compute.observe = self.metrics.computed
        self.sessions: dict[str, Session] = {}
        self.quotas = Quotas(settings.limits, lambda m: m in self.sessions
                             and self.sessions[m].running)  # server/quotas.py
        self.drivers: dict[str, BotDriver] = {}
        self._writer: GroupWriter | None = None
        self._ports: RoomPorts | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._owner: SqliteOwner | None = None
        self.warmup = Warmup()  # the start-up in the background (server/warmup.py)
        self.loop: asyncio.AbstractEventLoop | None = None  # set by start()

    @property
    def writer(self) -> GroupWriter:
        assert self._writer is not None, "the hub is not started"
        return self._writer

    @property
    def ports(self) -> RoomPorts:
        """What every session is built with (its only view of the services)."""
        assert self._ports is not None, "the hub is not started"
        return self._ports

    # -- lifecycle ----------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._owner = SqliteOwner(self.engine)
        await asyncio.to_thread(migrate.at_start, self.engine, self.scale.shared,
                                self.settings.migrate, wiring.migrate_once)
        await self.scale.start()
        # The kernels, the services and the games, then the worker processes, in the
        # background: /healthz answers at once, /readyz says "warming" (warmup.py).
        self.warmup.start(self._serve, self.compute, self.settings.warm_workers)

    async def _serve(self) -> None:
        assert self.loop is not None
        self._writer = GroupWriter(self.engine)
        self._writer.observe = self.metrics.wrote
        if self.scale.parts is not None:  # only a game's owner writes its events
            self._writer.fence = self.scale.parts.owners.fence
        self._checkpointer = Checkpointer(self.engine)
        self._ports = RoomPorts(
            store=self._writer, announcer=self.bus, lock=self.serializer,
            presence=DriverPresence(self.bus.set_presence, self.bus.present_elsewhere,
                                    self._bot_playing),
            observer=Observers(self.metrics.committed, self.tables.feed.kick,
                               self.scale.lost),
            router=self.scale.router, loop=self.loop)
        # the games that moved within the idle time; the others stay parked (parking.py)
        since = now() - timedelta(seconds=self.settings.idle_seconds)
        rows = await asyncio.to_thread(self.repo.load_running, since)
        for row in rows:
            try:
                self.adopt(row)
            except Exception:  # a game whose code changed incompatibly: keep serving
                log.exception("could not reload match %s (%s)", row.id, row.game)
        log.info("reloaded %d unfinished games", len(rows))
        await self.tables.start()
        self.chat.start(poll=self.scale.shared)  # one worker: its lines go out directly
        self.ratings.start()
        self.bot_ladder.start()
        self.parking.start()
        # Import every game's bots and solver now, then move everything that exists at
        # start-up (modules, tables, reloaded games) out of the garbage collector's
        # reach: a full collection then scans only what the running games create, which
        # keeps its pauses short (they showed up as p99 latency).
        for key in list(games.keys()):
            compute.bot_names(key)
            compute.solver_offers(key, "solve", "hint")
            compute.solver_offers(key, "pick_winnable_deal")
        gc.collect()
        gc.freeze()
        # Fewer young collections: each one traverses every container the live games
        # created since the last, and at 700 allocations (the default) that was ~10 %
        # of the event loop's time under load (issue 7, docs/benchmarks/server.md).
        gc.set_threshold(*GC_THRESHOLDS)

    async def stop(self) -> None:
        await self.warmup.stop()
        for driver in list(self.drivers.values()):
            await driver.stop()
        self.drivers.clear()
        await self.tables.stop()
        await self.chat.stop()
        await self.ratings.stop()
        await self.bot_ladder.stop()
        await self.parking.stop()
        await self.scale.stop()
        if self._writer is not None:
            await asyncio.to_thread(self._writer.close)
            await asyncio.to_thread(self._checkpointer.close)
        await asyncio.to_thread(self.compute.close)
        self.engine.dispose()
        if self._owner is not None:
            self._owner.release()

    async def hand_over_bots(self) -> None:
        """Stop playing bots here (draining): in shared mode this worker takes no new
        games and lets go at once of those no socket here watches, so another worker's
        drivers take their bots over; the others go when their sockets have closed
        (``Ops.drain``)."""
        for driver in list(self.drivers.values()):
            await driver.stop()
        self.drivers.clear()
        await self.scale.release_leases(keep=lambda m: self.bus.count(m) > 0)

    def adopt(self, row: MatchRow) -> Session:
        session = Session(self.ports, row)
        self.sessions[row.id] = session
        self.ensure_driver(session)
        return session

    def ensure_driver(self, session: Session) -> None:
        """A bot driver for a running game with bot seats, bot takeover, a turn timer
        or a seat given up (server/turns.py)."""
        row = session.row
        needs_driver = (row.takeover_seconds is not None or row.turn_seconds is not None
                        or any(seat.kind == "bot" or seat.left is not None
                               for seat in session.seats))
        if session.running and needs_driver and session.id not in self.drivers:
            self.drivers[session.id] = BotDriver(self, session)

    # -- lookup -------------------------------------------------------------------
    async def get(self, match_id: str) -> Session:
        session = self.sessions.get(match_id)
        if session is not None:
            session.touched = time.monotonic()  # in use: not idle (parking.py)
            if self.scale.shared:  # another worker may have moved the game on
                await wiring.refresh(self, session)
            return session
        if len(match_id) > 32:
            raise Refusal("not_found", "there is no such match", 404)
        lock = self.loading_lock(match_id)
        try:
            async with lock:
                session = self.sessions.get(match_id)
                if session is None:
                    session = await self._load(match_id)
                session.touched = time.monotonic()
        finally:
            self.loading_done(match_id, lock)
        return session

    def loading_lock(self, match_id: str) -> asyncio.Lock:
        """The lock under which a match is loaded into memory or parked."""
        return self._loading.setdefault(match_id, asyncio.Lock())

    def loading_done(self, match_id: str, lock: asyncio.Lock) -> None:
        if not lock.locked():
            self._loading.pop(match_id, None)

    async def _load(self, match_id: str) -> Session:
        row = await asyncio.to_thread(self.repo.load_match, match_id)
        if row is None:
            raise Refusal("not_found", "there is no such match", 404)
        try:
            return self.adopt(row)
        except Exception:
            log.exception("could not load match %s (%s)", row.id, row.game)
            raise Refusal("internal", "this match cannot be loaded", 500) from None

    def _bot_playing(self, match_id: str, seat: int) -> bool:
        driver = self.drivers.get(match_id)
        return driver is not None and driver.controller(seat)[0] is not None

    def release(self, session: Session) -> None:
        """Forget a finished session nobody watches (it is reloaded on demand)."""
        if not session.running and self.bus.count(session.id) == 0:
            self.drop(session.id)

    def drop(self, match_id: str) -> BotDriver | None:
        """Take a session out of memory (its bot driver, returned to be stopped by the
        caller if it still runs, and its lock too)."""
        self.sessions.pop(match_id, None)
        self.serializer.forget(match_id)
        return self.drivers.pop(match_id, None)

    # -- invites ------------------------------------------------------------------
    async def claim(self, code: str, player: str | None) -> dict[str, Any]:
        token = new_token()
        match_id, seat = await asyncio.to_thread(
            self.repo.claim_invite, token_hash(code), token_hash(token), player)
        self.tables.feed.kick(match_id)  # an open table's seat was taken
        self.scale.seats_written(match_id)  # the other workers' sockets
        session = self.sessions.get(match_id)
        if session is not None:
            session.claim_seat(seat, token_hash(token), player)  # and this one's
        else:
            session = await self.get(match_id)
            self.release(session)
        fair = session.fair_info()
        return {"match_id": match_id, "seat": seat, "token": token,
                "play_url": f"/play/{match_id}#token={token}",
                "commitment": fair["commitment"] if fair else None}

    def game_or_refuse(self, key: str) -> games.Game:
        """The game players may open (its manifest says ``ready``), else a refusal."""
        try:
            game = games.load(key)
        except ValueError as exc:
            raise Refusal("unknown_game", str(exc)) from None
        if not games.manifest(key).ready:
            raise Refusal("unknown_game", f"{key!r} is not offered to players yet")
        return game
