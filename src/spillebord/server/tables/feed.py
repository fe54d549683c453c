"""The live lobby: ``/ws/lobby`` sockets get the open public tables at once, then one
message per table that changed (``table``: its new picture; ``gone``: no longer open).

Every worker finds changes the same way — by reading the ``changed`` column of
``open_tables`` (indexed) while it has lobby sockets — so a table opened or taken on
another worker reaches this worker's sockets too; a change made here (``kick``) wakes
the read at once and names its table, so it is sent however late its transaction
committed after its stamp.  One worker reads every ``lobby_poll`` seconds.  In shared
mode a kick also sends a notice over Redis (``notify``), the other workers read when it
comes (``heard``; at most once per ``lobby_poll`` seconds), and otherwise only every
``SAFETY_POLL`` seconds, so a lost notice only delays a change.  For other workers'
changes each read looks back ``LOOKBACK`` seconds and remembers what it sent, so a
transaction that commits up to that long after its stamp is still seen, and nothing is
sent twice.  Sockets connecting between two changes share one encoded snapshot (a
change drops it; sockets listen before they read it, and the changes found while a
socket's snapshot is read wait for it); a change a socket's snapshot already showed
(the same table at the same stamp) is not sent to it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from spillebord.server.infra.background import cancel
from spillebord.server.infra.storage.health import READS
from spillebord.server.infra.storage.repo import now
from spillebord.server.room import wire
from spillebord.server.tables.storage import TablesRepo

log = logging.getLogger(__name__)
LOOKBACK = 10.0  # seconds a commit may lag its stamp on another worker (issue 15: a
# loaded machine committed a local table more than 2 s after its stamp and it was lost)
SNAPSHOT_AGE = 5.0  # seconds a snapshot is reused while nothing changed
MAX_QUEUE = 1024  # messages a slow lobby socket may fall behind before it is closed
SAFETY_POLL = 2.0  # seconds between reads without a notice (shared mode: ``notify``)


class LobbySocket:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        # The change stamp of each table in the snapshot this socket got (shared with
        # the other sockets that got the same one), while the look-back may still find
        # changes it already holds; None: send every change.
        self.known: dict[str, datetime] | None = None
        self.known_at = 0.0
        # While its snapshot is being read: the changes found meanwhile (table, stamp
        # — None for ``gone`` —, message), sent once the snapshot shows what it holds.
        self.waiting: list[tuple[str, datetime | None, str]] | None = None

    def push(self, text: str) -> None:
        if self.queue.qsize() >= MAX_QUEUE:
            self.queue.put_nowait(None)  # it stopped reading: close; it can reconnect
            return
        self.queue.put_nowait(text)


class LobbyFeed:
    def __init__(self, repo: TablesRepo, poll: float,
                 notify: Callable[[str], None] | None = None) -> None:
        self.repo = repo
        self.poll = poll
        self.sockets: set[LobbySocket] = set()
        self.wake = asyncio.Event()
        self.kicked: set[str] = set()  # tables changed here since the last poll
        self.sent: dict[str, datetime] = {}  # table → the change last sent
        self.since = now()
        self.task: asyncio.Task[None] | None = None
        # The encoded snapshot, shared by the sockets that connect before the next
        # change (500 sockets connecting need one listing, not 500).
        self._snapshot: tuple[float, str, dict[str, datetime]] | None = None
        self._changes = 0  # counts invalidations: a snapshot read across one is not kept
        # shared mode: tell the other workers a table changed (they call ``heard``)
        self.notify = notify

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="lobby-feed")

    async def stop(self) -> None:
        await cancel(self.task)

    def kick(self, match_id: str) -> None:
        """A table's lobby picture changed on this worker (already committed)."""
        self.kicked.add(match_id)
        self._drop_snapshot()
        self.wake.set()
        if self.notify is not None:
            self.notify(match_id)

    def heard(self, _match_id: str) -> None:
        """Another worker changed a table (committed): read the changes now."""
        self._drop_snapshot()
        if self.sockets:
            self.wake.set()

    def _drop_snapshot(self) -> None:
        self._snapshot = None
        self._changes += 1

    async def snapshot(self) -> tuple[str, dict[str, datetime]]:
        """The encoded ``lobby`` message and the change stamp of each table in it."""
        cached = self._snapshot
        if cached is not None and time.monotonic() - cached[0] < SNAPSHOT_AGE:
            return cached[1], cached[2]
        taken, changes = time.monotonic(), self._changes
        listed, stamps = await asyncio.to_thread(self.repo.listing_stamped)
        text = wire.dumps({"t": "lobby", "d": {"tables": listed}})
        if changes == self._changes:
            self._snapshot = (taken, text, stamps)
        return text, stamps

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=self.poll
                                       if self.notify is None else SAFETY_POLL)
            self.wake.clear()
            if not self.sockets:
                self.since = now()
                self.sent.clear()
                self.kicked.clear()
                continue
            try:
                await self._step()
            except Exception as exc:  # a database hiccup: the next poll tries again
                if not READS.note(exc, "the lobby poll"):  # an outage: one line
                    log.warning("lobby poll failed", exc_info=True)
                await asyncio.sleep(self.poll)
            if self.notify is not None:  # notices: at most one read per lobby_poll
                await asyncio.sleep(self.poll)

    async def _step(self) -> None:
        start = now()
        kicked, self.kicked = self.kicked, set()
        try:  # one trip to a thread for both reads (a loaded pool makes each trip cost)
            fresh, listed = await asyncio.to_thread(
                self._read, self.since - timedelta(seconds=LOOKBACK), kicked)
        except BaseException:
            self.kicked |= kicked  # the next poll sends them
            raise
        self.since = start
        horizon = start - timedelta(seconds=2 * LOOKBACK + 1)
        for m in [m for m, t in self.sent.items() if t < horizon]:
            del self.sent[m]
        if not fresh:
            return
        self._drop_snapshot()
        # Each message is encoded once for all sockets; every socket's own sender task
        # sends it, so one slow socket holds up nobody.
        # A socket whose snapshot already showed a table at this very change is not
        # sent it again: the look-back finds every change of the last LOOKBACK seconds,
        # so without this the first socket of an idle worker got every table opened in
        # those seconds twice (1,000 messages after the snapshot in bench/lobby_feed.py).
        messages = [(entry["match_id"], wire.dumps({"t": "table", "d": entry}))
                    for entry in listed]
        shown = {entry["match_id"] for entry in listed}
        gone = [wire.dumps({"t": "gone", "d": {"match_id": m}})
                for m in fresh if m not in shown]
        self.sent.update(fresh)
        forget = time.monotonic() - 2 * LOOKBACK - 1
        for sock in list(self.sockets):
            if sock.waiting is not None:  # its snapshot is on the way: sort them then
                sock.waiting += [(m, fresh[m], text) for m, text in messages]
                sock.waiting += [("", None, text) for text in gone]
                continue
            known = sock.known
            if known is not None and sock.known_at < forget:
                known = sock.known = None
            for m, text in messages:
                if known is None or known.get(m) != fresh[m]:
                    sock.push(text)
            for text in gone:
                sock.push(text)

    def _read(self, since: datetime,
              kicked: set[str]) -> tuple[dict[str, datetime], list[dict[str, Any]]]:
        """(On a thread) the tables changed and not yet sent, and their pictures.
        ``self.sent`` is only written by ``_step`` after this returns."""
        rows = self.repo.changed_since(since, kicked)
        fresh = {m: t for m, t in rows if m in kicked or self.sent.get(m) != t}
        return fresh, (self.repo.listing(list(fresh)) if fresh else [])

    async def serve(self, ws: WebSocket) -> None:
        """One lobby socket: the open tables, then the changes, until it closes.  The
        socket listens before the snapshot is read, so no change falls in between (a
        change already in the snapshot is sent again: messages are idempotent)."""
        sock = LobbySocket(ws)
        sock.waiting = []  # until its snapshot is read
        self.sockets.add(sock)
        sender: asyncio.Task[None] | None = None
        try:
            text, sock.known = await self.snapshot()
            sock.known_at = time.monotonic()
            await ws.send_text(text)
            # the changes found while the snapshot was read, less those it showed
            for m, stamp, change in sock.waiting or []:
                if stamp is None or sock.known.get(m) != stamp:
                    sock.push(change)
            sock.waiting = None
            sender = asyncio.create_task(self._send(sock))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.sockets.discard(sock)
            if sender is not None:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender

    async def _send(self, sock: LobbySocket) -> None:
        while True:
            text = await sock.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await sock.ws.close(code=1013)
                return
            await sock.ws.send_text(text)
