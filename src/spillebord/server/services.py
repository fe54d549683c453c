"""The one place that builds this worker's services (issue 26), called by app.py only.

Each service is built once and gets only what it uses.  Single-process and shared mode
(SPILLEBORD_REDIS with PostgreSQL) differ only in the pieces wired in here: the bus, the
lock, the router of a game's events, the refresh of a replica and the notices to other
workers (server/scale/): every piece gets what it uses as constructor arguments."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from datetime import timedelta
from typing import Any

from spillebord import games
from spillebord.server.botaccounts.ladder import BotLadder
from spillebord.server.botaccounts.repo import BotAccountsRepo
from spillebord.server.chat.service import Chat
from spillebord.server.chat.storage import ChatRepo
from spillebord.server.daily.seal import SECRET_NAME
from spillebord.server.daily.service import Daily
from spillebord.server.daily.storage import DailyRepo
from spillebord.server.http.metrics import Live, Metrics
from spillebord.server.http.ops import Ops
from spillebord.server.infra import compute
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.quotas import Quotas
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.engine import Checkpointer, SqliteOwner, make_engine
from spillebord.server.infra.storage.repo import Repository, now
from spillebord.server.infra.storage.secrets import kept_secret
from spillebord.server.infra.storage.writer import GroupWriter
from spillebord.server.infra.warmup import Warmup
from spillebord.server.people.service import People
from spillebord.server.people.storage import PeopleRepo
from spillebord.server.ratings.service import Ratings
from spillebord.server.ratings.storage import RatingsRepo
from spillebord.server.room.bots import BotDriver
from spillebord.server.room.parking import Parking
from spillebord.server.room.ports import DriverPresence, Observers, RoomPorts
from spillebord.server.room.registry import Rooms
from spillebord.server.room.session import Session
from spillebord.server.scale import factory
from spillebord.server.tables.feed import LobbyFeed
from spillebord.server.tables.lobby import Lobby
from spillebord.server.tables.rematch import Rematches
from spillebord.server.tables.service import Tables
from spillebord.server.tables.storage import TablesRepo

log = logging.getLogger(__name__)
GC_THRESHOLDS = (10_000, 20, 20)  # the default is (700, 10, 10)


class Services:
    """Every service of one worker and its start and stop (app.py's lifespan)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        engine = self.engine = make_engine(settings.db_url)
        self.repo = Repository(engine)
        # One worker: in-process bus and locks.  SPILLEBORD_REDIS (with PostgreSQL): the
        # Redis bus, game leases, replicas and forwarding (server/scale/), each built
        # once with what it uses; the rooms and services get the same ports either way.
        transport = factory.transport(settings)
        self.bus = transport.bus
        self.serializer = transport.serializer
        self.compute = Compute(settings.solver_pool, settings.bot_pool,
                               observe=lambda pool, took: self.metrics.computed(pool, took))
        self._writer: GroupWriter | None = None
        self.rooms = Rooms(self.repo.load_match, self._driver, self.bus.count,
                           self.serializer.forget, shared=transport.shared)
        feed = LobbyFeed(TablesRepo(engine), settings.lobby_poll,
                         notify=transport.notice("lobby"))
        self.chat = Chat(ChatRepo(engine), settings.chat_burst, settings.chat_every,
                         lambda: self.writer, notify=transport.notice("chat"))
        # other workers' notices: their chat lines and lobby changes are read then
        scale = self.scale = factory.build(transport, self.rooms, engine,
                                           {"chat": self.chat.heard, "lobby": feed.heard,
                                            # "Spil igen" changed on another worker
                                            "rematch": lambda m: self.tables.rematches.heard(m)})
        # infra/quotas.py (issue 29); shared mode: the rates counted in Redis as well
        self._shared_rates = transport.shared_rates(settings.redis_url)
        self.quotas = Quotas(settings.limits, self._running, self._shared_rates)
        self.warmup = Warmup()  # the start-up in the background (infra/warmup.py)
        self.people = People(PeopleRepo(engine), settings)
        self.lobby = Lobby(self.repo, self.compute, self.rooms.adopt, feed.kick, settings,
                           self.quotas)
        # "Spil igen" (tables/rematch.py); shared mode tells the other workers' rooms
        rematches = Rematches(engine, self.rooms, self.lobby.create, scale.seats_written,
                              settings.min_fill, transport.notice("rematch"))
        self.tables = Tables(feed.repo, feed, self.rooms, self.lobby.create,
                             self.repo.claim_invite, scale.seats_written, settings.limits,
                             rematches)
        self.ratings = Ratings(RatingsRepo(engine))
        self.bot_ladder = BotLadder(BotAccountsRepo(engine))  # botaccounts/ (issue 32)
        self.daily = Daily(DailyRepo(engine), self.compute, self.people.repo.person,
                           self.lobby.create, lambda: settings.daily_secret or kept_secret(
                               engine, SECRET_NAME, now()))
        self.parking = Parking(self.rooms, settings.idle_seconds, self.bus.count,
                               scale.holds, self.bus.present_elsewhere, scale.let_go)
        self.ops = Ops(engine, scale, settings.drain_seconds, self.hand_over_bots,
                       lambda: self._writer, self.warmup)
        self.metrics = Metrics(Live(
            sessions=lambda: self.rooms.sessions.values(), scale=scale,
            parked=lambda: self.parking.parked, sockets=lambda: len(self.ops.connections),
            draining=lambda: self.ops.draining, inflight=lambda: self.compute.inflight,
            writer=lambda: self._writer, warm=lambda: self.warmup.ready))
        self._owner: SqliteOwner | None = None

    def _running(self, match_id: str) -> bool:
        """Whether the match is live in this worker (a quota counts live games)."""
        session = self.rooms.sessions.get(match_id)
        return session is not None and session.running

    def _driver(self, session: Session) -> BotDriver:
        s = self.settings
        return BotDriver(session, self.compute, self.scale.may_drive, self.scale.done_driving,
                         s.bot_delay, s.bot_pool)

    @property
    def writer(self) -> GroupWriter:
        assert self._writer is not None, "the services are not started"
        return self._writer

    def by_name(self) -> dict[str, Any]:
        """The services the routes' dependencies read (http/deps.py)."""
        return {"settings": self.settings, "repo": self.repo, "rooms": self.rooms,
                "people": self.people, "lobby": self.lobby, "tables": self.tables,
                "chat": self.chat, "ratings": self.ratings, "daily": self.daily,
                "ops": self.ops, "metrics": self.metrics, "compute": self.compute,
                "bus": self.bus, "quotas": self.quotas, "bot_ladder": self.bot_ladder,
                "warmup": self.warmup}

    # -- lifecycle ----------------------------------------------------------------
    async def start(self) -> None:
        self._owner = SqliteOwner(self.engine)
        await asyncio.to_thread(migrate.at_start, self.engine, self.scale.shared,
                                self.settings.migrate, factory.migrate_once)
        await self.scale.start()
        # The kernels, the services and the games, then the worker processes, in the
        # background: /healthz answers at once, /readyz says "warming" (infra/warmup.py).
        self.warmup.start(self._serve, self.compute, self.settings.warm_workers)

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        parts = self.scale.parts  # shared mode: only a game's owner writes its events
        writer = self._writer = GroupWriter(
            self.engine, observe=self.metrics.wrote,
            fence=None if parts is None else parts.owners.fence)
        self._checkpointer = Checkpointer(self.engine)
        self.rooms.bind(RoomPorts(
            store=writer, announcer=self.bus, lock=self.serializer,
            presence=DriverPresence(self.bus.set_presence, self.bus.present_elsewhere,
                                    self.rooms.bot_playing),
            observer=Observers(self.metrics.committed, self.tables.feed.kick,
                               self.scale.lost),
            router=self.scale.router,
            loop=loop), fresh=self.scale.fresh)
        # the games that moved within the idle time; the others stay parked (parking.py)
        since = now() - timedelta(seconds=self.settings.idle_seconds)
        rows = await asyncio.to_thread(self.repo.load_running, since)
        for row in rows:
            try:
                self.rooms.adopt(row)
            except Exception:  # a game whose code changed incompatibly: keep serving
                log.exception("could not reload match %s (%s)", row.id, row.game)
        log.info("reloaded %d unfinished games", len(rows))
        await self.tables.start()
        self.chat.start(poll=self.scale.shared)  # one worker: its lines go out directly
        self.ratings.start()
        if self.settings.daily_ahead:
            self.daily.start()  # today's and the next days' deals, chosen in the background
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
        await self.rooms.stop_drivers()
        await self.tables.stop()
        await self.chat.stop()
        await self.ratings.stop()
        await self.daily.stop()
        await self.bot_ladder.stop()
        await self.parking.stop()
        await self.scale.stop()
        if self._shared_rates is not None:
            with contextlib.suppress(Exception):  # Redis may be gone already
                await self._shared_rates.close()
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
        await self.rooms.stop_drivers()
        await self.scale.release_leases(keep=lambda m: self.bus.count(m) > 0)
