"""The small ports a game's session (its room) talks through, and their one-worker
implementations (issue 26).

A ``Session`` knows nothing of the services around it: it is built with one
``RoomPorts`` — where its events are written (``EventStore``), how a new version is
announced (``Announcer``), its per-game lock (``Lock``), who else has sockets of its
seats (``Presence``), who hears of its commits (``RoomObserver``) and where its events
run (``Router``: here, or on the game's owner in shared mode); the registry also brings a
room up to date before use (``Freshness``: a no-op on one worker).  One worker and shared
mode differ only in which implementations are passed in, chosen once when the services
are built (server/services.py; scale/factory.py builds the shared ones); the session has
no ``if shared``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from spillebord.server.infra.storage.repo import EventRow
    from spillebord.server.infra.storage.writer import Op


class EventStore(Protocol):
    def submit(self, ops: Sequence[Op], on_commit: Callable[[], None] | None,
               loop: asyncio.AbstractEventLoop | None) -> asyncio.Future[None]:
        """Write ``ops`` in one transaction; ``on_commit`` runs on ``loop`` once it is
        durable, before the future resolves (storage/writer.py)."""
        ...


class Announcer(Protocol):
    def announce(self, match_id: str, event: EventRow, finished: datetime | None) -> None:
        """Every socket of the match, on any worker, hears of the committed ``event``
        (``finished``: when it ended the game); the other workers get the event itself
        and apply it from the message (infra/bus.py).  Never blocks."""
        ...


class Lock(Protocol):
    def hold(self, match_id: str) -> AbstractAsyncContextManager[None]:
        """No two events of one game interleave while this is held."""
        ...


class Presence(Protocol):
    def sockets(self, match_id: str, seat: int, count: int) -> None:
        """This worker now has ``count`` sockets of the seat."""
        ...

    def elsewhere(self, match_id: str, seat: int) -> bool:
        """Whether another worker has a socket of the seat."""
        ...

    def bot_playing(self, match_id: str, seat: int) -> bool:
        """Whether a bot plays the (human) seat now (takeover)."""
        ...


class RoomObserver(Protocol):
    def committed(self, game: str, kind: str, by_bot: bool) -> None: ...

    def finished(self, match_id: str) -> None:
        """The game ended (an open table leaves the lobby)."""
        ...

    def lease_lost(self, match_id: str) -> None:
        """The store refused an event: another worker owns the game now."""
        ...


class Room(Protocol):
    """A room as a router sees it (room/session.py's ``Session``)."""

    @property
    def id(self) -> str: ...

    @property
    def running(self) -> bool: ...

    async def event_here(self, kind: str, seat: int | None, version: int, text: str,
                         by_bot: bool) -> None: ...


class Router(Protocol):
    async def event(self, room: Room, kind: str, seat: int | None, version: int,
                    text: str, by_bot: bool) -> None:
        """Run the event where the game's events run (``room.event_here`` on the
        worker that owns the game); raises its Refusal."""
        ...


@dataclass(frozen=True, slots=True)
class RoomPorts:
    store: EventStore
    announcer: Announcer
    lock: Lock
    presence: Presence
    observer: RoomObserver
    router: Router
    loop: asyncio.AbstractEventLoop


class HereRouter:
    """One worker: every game's events run here."""

    async def event(self, room: Room, kind: str, seat: int | None, version: int,
                    text: str, by_bot: bool) -> None:
        await room.event_here(kind, seat, version, text, by_bot)


class DriverPresence:
    """Presence from the bus (one worker: nobody elsewhere) and this worker's bot
    drivers."""

    def __init__(self, set_presence: Callable[[str, int, int], None],
                 elsewhere: Callable[[str, int], bool],
                 bot_playing: Callable[[str, int], bool]) -> None:
        self.sockets = set_presence
        self.elsewhere = elsewhere
        self.bot_playing = bot_playing


class Observers:
    """The room's commits told to metrics, the lobby feed and the leases."""

    def __init__(self, committed: Callable[[str, str, bool], None],
                 finished: Callable[[str], None], lease_lost: Callable[[str], None]) -> None:
        self.committed = committed
        self.finished = finished
        self.lease_lost = lease_lost
