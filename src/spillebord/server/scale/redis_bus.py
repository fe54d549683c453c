"""``RedisBus``: the ``EventBus`` seam across worker processes, over Redis pub/sub.

Every worker publishes ``"E <worker> <match> <version> <events>"`` on one channel after
each committed event — the events themselves, as stored (scale/shipped.py: a JSON list,
every event since the last message for that match) — and listens to the same channel
(``"S <worker> <json>"`` messages carry which seats have sockets on which worker:
presence.py; ``"N <worker> <topic> <arg>"`` are notices — ``note`` — that something other
than an event changed, e.g. a match's chat: the other workers read it then instead of
polling).  Its own sockets are told at once (no round trip); the other workers hear it
through Redis, apply the events to their copy of the match from the message
(``receive``), then tell their sockets.  Redis delivers the messages of one channel in
the order it received them, and a match's versions are published in order under the
match's lock, so every socket sees every event in order (a state message lists every
event since the previous one it got).

A receiver reads the database only to fill a gap: a version it never got (the events of
a message are missing or not the next ones, e.g. a newly watched match announced with
its version only), and after a reconnect, for every match its sockets watch, since it
may have missed announcements meanwhile.  When Redis is unreachable the worker keeps
serving its own sockets, logs it, counts it (``stats``), and retries with back-off:
unsent announcements are kept (at most ``KEEP`` events per match; beyond that only the
newest, and the receiver reads the rest) and sent on reconnect.  Nothing is dropped: the
database is the truth, and a message only spares the read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from spillebord.server.infra.bus import Listener, Listeners
from spillebord.server.infra.storage.repo import EventRow
from spillebord.server.room import wire
from spillebord.server.scale import shipped
from spillebord.server.scale.presence import INTERVAL, WATCH, PresenceTable
from spillebord.server.scale.shipped import Shipped

log = logging.getLogger(__name__)
READ = 1 << 62  # "the version announced" that always makes the receiver read (reconnect)
CHANNEL = "spillebord:events"
STOP_TIMEOUT = 5.0  # seconds any close or shutdown step may take
MAX_BACKOFF = 2.0
KEEP = 256  # unsent events kept per match while Redis is away (then only the newest)


class Inbound(Protocol):
    """What a worker does with what its bus hears (scale/replica.py ``Inbound``)."""

    async def receive(self, match_id: str, events: list[Shipped], version: int) -> int:
        """Apply the shipped events that follow the local copy, read the database when
        it is still behind ``version``; the local version."""
        ...

    def presence(self, match_id: str) -> None:
        """Another worker's sockets of the match came or went."""
        ...

    def note(self, topic: str, arg: str) -> None:
        """Another worker's notice (``RedisBus.note``)."""
        ...

    def direct(self, sender: str, payload: str) -> None:
        """A direct message to this worker (scale/forward.py)."""
        ...

    def current(self, match_id: str) -> int | None:
        """The version of a game this worker owns, else None."""
        ...

    def local_version(self, match_id: str) -> int:
        """The version this worker's copy of the match is at (0: none)."""
        ...


@dataclass
class BusStats:
    published: int = 0
    received: int = 0
    publish_failures: int = 0
    disconnects: int = 0
    reconnects: int = 0
    connected: bool = False


class RedisBus:
    """``only_watched``: announce only matches another worker has sockets on (shared
    mode: with nginx hashing a game's sockets are on its owner, so an action costs no
    Redis traffic at all).  The presence snapshots say which; when one shows a match
    newly watched, the owner's version (``Inbound.current``) is announced at once, so
    the new watcher misses nothing in between.  What the bus hears goes to the
    ``Inbound`` given to ``start``."""

    def __init__(self, url: str, channel: str = CHANNEL, worker: str | None = None,
                 only_watched: bool = False) -> None:
        self.url = url
        self.channel = channel
        self.worker = worker or f"{os.getpid()}-{secrets.token_hex(4)}"
        self.only_watched = only_watched
        self.stats = BusStats()
        self._listeners = Listeners(on_empty=self._forget_if_idle)
        self._in: Inbound | None = None
        self._told: dict[str, int] = {}         # match -> newest version told locally
        # match -> (newest version, the events since the last message) not yet sent
        self._pending: dict[str, tuple[int, list[dict[str, Any]]]] = {}
        self._wake = asyncio.Event()
        self._known: dict[str, int] = {}        # match -> newest version announced
        self._inbox: dict[str, dict[int, Shipped]] = {}  # match -> events heard, by seq
        self._unread: set[str] = set()  # matches to read (announcements may be lost)
        self._busy: dict[str, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._client: aioredis.Redis | None = None
        self.presence = PresenceTable()
        self._presence_dirty = True
        # Direct messages (scale/forward.py): each worker also listens on a channel of
        # its own; ``Inbound.direct(sender, payload)`` gets what was sent to it.
        self.direct_channel = f"{channel}:w:{self.worker}"
        # Notices (``note``): sent after the change committed; ``Inbound.note`` on the
        # other workers.  A notice lost while Redis is down only delays (the receivers
        # also read on a slow timer).
        self._notes: set[tuple[str, str]] = set()

    # -- lifecycle ----------------------------------------------------------------------
    async def start(self, inbound: Inbound, timeout: float = 10.0) -> None:
        """Connect, and hand what is heard to ``inbound`` from now on."""
        self._in = inbound
        self._client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2,
                                               socket_timeout=5, health_check_interval=10)
        self._tasks = [asyncio.create_task(self._receive_loop(), name="redis-bus-receive"),
                       asyncio.create_task(self._send_loop(), name="redis-bus-send"),
                       asyncio.create_task(self._presence_loop(), name="redis-bus-presence")]
        # Start serving even if Redis is down (it is reported and retried), but wait a
        # little for the subscription so the first events are not missed.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), timeout)

    async def stop(self) -> None:
        tasks = self._tasks + list(self._busy.values())
        for task in tasks:
            task.cancel()
        if tasks:
            # Bounded: a task stuck in a dead connection's close must not hang shutdown.
            _done, stuck = await asyncio.wait(tasks, timeout=STOP_TIMEOUT)
            if stuck:
                log.warning("redis bus: %d tasks did not stop in time", len(stuck))
        self._tasks = []
        if self._client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._client.aclose(), STOP_TIMEOUT)

    # -- the EventBus seam ----------------------------------------------------------------
    async def ping(self, timeout: float = 1.0) -> bool:
        """Whether Redis answers a PING within ``timeout`` seconds (for /readyz)."""
        if self._client is None:
            return False
        try:
            return bool(await asyncio.wait_for(self._client.ping(), timeout))
        except Exception:  # down, refused, timed out: not ready
            return False

    def subscribe(self, match_id: str, listener: Listener) -> Callable[[], None]:
        first = not self._listeners.has(match_id)
        unsubscribe = self._listeners.subscribe(match_id, listener)
        if first:
            # the version the first socket got: an announcement of it is no news
            if self._in is not None:
                self._told[match_id] = max(self._in.local_version(match_id),
                                           self._told.get(match_id, 0))
            self._watch(match_id, 1)
        return unsubscribe

    def _watch(self, match_id: str, count: int) -> None:
        self.presence.set_local(match_id, WATCH, count)
        self._presence_dirty = True
        self._wake.set()

    def count(self, match_id: str) -> int:
        return self._listeners.count(match_id)

    def announce(self, match_id: str, event: EventRow, finished: datetime | None) -> None:
        """Tell this worker's listeners now and queue the event for the others (never
        blocks on Redis, never raises: the event is already committed)."""
        self._notify(match_id, event.seq)
        if self.only_watched and not self.presence.watched_elsewhere(match_id):
            return  # nobody else has a socket on it
        self._queue(match_id, event.seq, [shipped.to_json(event, finished)])

    def _queue(self, match_id: str, version: int, events: list[dict[str, Any]]) -> None:
        """Keep ``events`` (ending at ``version``) for the next message of the match."""
        pending = self._pending.get(match_id)
        if pending is None:
            self._pending[match_id] = (version, events)
        elif version >= pending[0]:
            kept = [*pending[1], *events]
            self._pending[match_id] = (version, kept[-KEEP:])
        self._wake.set()

    async def send_direct(self, worker: str, payload: str) -> None:
        """Publish ``payload`` to one worker only (raises RedisError or OSError).  Tried
        twice: after an outage the pool's first connection may be a dead one."""
        assert self._client is not None
        for attempt in (1, 2):
            try:
                await self._client.publish(f"{self.channel}:w:{worker}",
                                           f"D {self.worker} {payload}")
                return
            except (RedisError, OSError):
                if attempt == 2:
                    raise

    def note(self, topic: str, arg: str) -> None:
        """Tell the other workers (``Inbound.note(topic, arg)`` there); never blocks."""
        self._notes.add((topic, arg))
        self._wake.set()

    # -- presence (takeover across workers) -------------------------------------------
    def set_presence(self, match_id: str, seat: int, count: int) -> None:
        """This worker now has ``count`` sockets on ``seat`` of the match."""
        self.presence.set_local(match_id, seat, count)
        self._presence_dirty = True
        self._wake.set()

    def present_elsewhere(self, match_id: str, seat: int) -> bool:
        return self.presence.elsewhere(match_id, seat)

    async def _presence_loop(self) -> None:
        while True:
            await asyncio.sleep(INTERVAL)
            self._presence_dirty = True
            self._wake.set()
            for match_id in self.presence.expire():
                self._presence_changed(match_id)

    def _presence_changed(self, match_id: str) -> None:
        if self._in is not None:
            try:
                self._in.presence(match_id)
            except Exception:
                log.exception("presence hook failed for match %s", match_id)

    def tell_local(self, match_id: str, version: int) -> None:
        """Tell this worker's listeners only (a refresh found newer events itself)."""
        self._notify(match_id, version)

    def _notify(self, match_id: str, version: int) -> None:
        if self._listeners.has(match_id):
            self._told[match_id] = max(version, self._told.get(match_id, 0))
        for listener in self._listeners.of(match_id):
            try:
                listener(version)
            except Exception:
                log.exception("event listener failed for match %s", match_id)

    # -- sending ----------------------------------------------------------------------------
    async def _send_loop(self) -> None:
        backoff = 0.05
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending or self._presence_dirty or self._notes:
                batch, self._pending = self._pending, {}
                presence, self._presence_dirty = self._presence_dirty, False
                notes, self._notes = self._notes, set()
                try:
                    assert self._client is not None
                    async with self._client.pipeline(transaction=False) as pipe:
                        for match_id, (version, events) in batch.items():
                            pipe.publish(self.channel, f"E {self.worker} {match_id} "
                                                       f"{version} {wire.dumps(events)}")
                        if presence:
                            pipe.publish(self.channel,
                                         f"S {self.worker} {self.presence.snapshot()}")
                        for topic, arg in notes:
                            pipe.publish(self.channel, f"N {self.worker} {topic} {arg}")
                        await pipe.execute()
                    self.stats.published += len(batch)
                    backoff = 0.05
                except (RedisError, OSError) as exc:
                    self.stats.publish_failures += 1
                    log.warning("redis publish failed (%s); %d announcements kept, retrying",
                                exc, len(batch))
                    for match_id, (version, events) in batch.items():  # keep them,
                        later = self._pending.pop(match_id, None)  # in order
                        self._pending[match_id] = (version, events[-KEEP:])
                        if later is not None:
                            self._queue(match_id, *later)
                    self._presence_dirty = self._presence_dirty or presence
                    self._notes |= notes
                    await asyncio.sleep(backoff)
                    backoff = min(MAX_BACKOFF, backoff * 2)

    # -- receiving ------------------------------------------------------------------------
    async def _receive_loop(self) -> None:
        backoff = 0.05
        first = True
        while True:
            assert self._client is not None
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel, self.direct_channel)
                self.stats.connected = True
                self._subscribed.set()
                if not first:
                    self.stats.reconnects += 1
                    log.warning("redis bus reconnected; catching up watched matches")
                    self._resync_all()
                first = False
                backoff = 0.05
                while True:
                    message = await pubsub.get_message(timeout=30.0)
                    if message is not None:
                        self._on_message(message)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                if self.stats.connected:
                    self.stats.disconnects += 1
                    log.warning("redis bus disconnected (%s); retrying", exc)
                self.stats.connected = False
                await asyncio.sleep(backoff)
                backoff = min(MAX_BACKOFF, backoff * 2)
            finally:
                with contextlib.suppress(Exception):
                    # redis < 8.2 leaves aclose untyped, 8.2 types it: a typed name calls
                    # either without a per-version ignore
                    close: Callable[[], Awaitable[object]] = pubsub.aclose
                    await asyncio.wait_for(close(), STOP_TIMEOUT)

    def _on_message(self, message: dict[str, Any]) -> None:
        data = message.get("data")
        if isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        text = str(data)
        if text.startswith("D "):
            _d, sender, payload = [*text.split(" ", 2), "", ""][:3]
            if self._in is not None:
                try:
                    self._in.direct(sender, payload)
                except Exception:
                    log.exception("direct message hook failed")
            return
        if text.startswith("N "):
            _n, worker, topic, arg = [*text.split(" ", 3), "", "", ""][:4]
            if worker != self.worker and self._in is not None:
                try:
                    self._in.note(topic, arg)
                except Exception:
                    log.exception("notice hook failed (%s)", topic)
            return
        if text.startswith("S "):
            _s, worker, payload = [*text.split(" ", 2), "", ""][:3]
            if worker != self.worker:
                for match_id in self.presence.receive(worker, payload):
                    self._presence_changed(match_id)
                    self._announce_current(match_id)
            return
        parts = text.split(" ", 4)
        if len(parts) < 4 or parts[0] != "E" or not parts[3].isdigit():
            log.warning("ignoring a malformed bus message %r", text[:80])
            return
        worker, match_id, version = parts[1], parts[2], int(parts[3])
        self.stats.received += 1
        if worker == self.worker or not self._holding(match_id):
            return  # our own (listeners told when publishing), or a match we do not hold
        self._known[match_id] = max(version, self._known.get(match_id, 0))
        if len(parts) == 5:  # without events (an older worker): the receiver reads
            try:
                events = shipped.many_from_json(wire.loads(parts[4]))
            except wire.JSONDecodeError:
                events = []
            inbox = self._inbox.setdefault(match_id, {})
            for item in events:
                inbox[item.event.seq] = item
        self._schedule(match_id)

    def _announce_current(self, match_id: str) -> None:
        if not self.only_watched or self._in is None \
                or not self.presence.watched_elsewhere(match_id):
            return
        version = self._in.current(match_id)
        if version is not None:  # the version only: the new watcher reads if behind
            self._queue(match_id, version, [])

    def _holding(self, match_id: str) -> bool:
        return self._listeners.has(match_id)

    def _forget_if_idle(self, match_id: str) -> None:
        if not self._listeners.has(match_id):
            self._watch(match_id, 0)
        if match_id not in self._busy and not self._holding(match_id):
            self._known.pop(match_id, None)
            self._told.pop(match_id, None)
            self._inbox.pop(match_id, None)

    def _resync_all(self) -> None:
        # A read of everything the database has beyond the local version, once per
        # watched match, finds whatever was announced while we were away.
        for match_id in self._listeners.matches():
            self._unread.add(match_id)
            self._schedule(match_id)

    def _schedule(self, match_id: str) -> None:
        """One catch-up task per match at a time; announcements that arrive meanwhile
        are picked up by its loop, so versions are delivered in order."""
        if match_id not in self._busy:
            self._busy[match_id] = asyncio.create_task(self._deliver(match_id))

    async def _deliver(self, match_id: str) -> None:
        """Apply what was heard until the local copy has every announced version,
        telling the listeners each time it advanced.  A database that is briefly
        unreachable (a gap's read) is retried a bounded number of times; the next
        announcement retries again."""
        tries = 0
        try:
            while tries < 40:
                wanted = self._known.get(match_id, 0)
                heard = self._inbox.pop(match_id, {})
                events = [heard[seq] for seq in sorted(heard)]
                unread = match_id in self._unread
                self._unread.discard(match_id)
                try:
                    local = (wanted if self._in is None else await self._in.receive(
                        match_id, events, READ if unread else wanted))
                except asyncio.CancelledError:
                    raise
                except Exception:
                    tries += 1
                    log.warning("catching up match %s failed (attempt %d)", match_id,
                                tries, exc_info=True)
                    if unread:
                        self._unread.add(match_id)
                    await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2 ** tries))
                    continue
                if local > self._told.get(match_id, -1):
                    self._notify(match_id, local)
                if match_id in self._inbox or match_id in self._unread:
                    continue  # heard more meanwhile
                if self._known.get(match_id, 0) <= local:
                    return
                tries += 1
                await asyncio.sleep(0.02)
            log.error("match %s: could not catch up to version %d", match_id,
                      self._known.get(match_id, 0))
        finally:
            self._busy.pop(match_id, None)
