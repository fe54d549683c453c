"""The two seams for scale-out (issue 9): event fan-out and per-game serialisation.

One worker uses the in-process versions here.  A Redis/PostgreSQL version implements the
same two small interfaces: ``EventBus`` (announce a committed event of match X — its
version and the event itself; every subscriber, on any worker, is told, and the other
workers apply the event from the message) and ``MatchSerializer`` (``async with
hold(match_id)``: no two events of one game interleave, across workers).  The rooms and the
sessions use only these two interfaces; shared mode's pieces are built in scale/factory.py.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from spillebord.server.infra.storage.repo import EventRow

Listener = Callable[[int], None]


class EventBus(Protocol):
    def subscribe(self, match_id: str, listener: Listener) -> Callable[[], None]:
        """Call ``listener(version)`` after each event of the match; returns unsubscribe."""
        ...

    def announce(self, match_id: str, event: EventRow, finished: datetime | None) -> None:
        """``event`` was committed (``finished``: it ended the game then): tell every
        listener of the match its version, here at once and on the other workers with
        the event; never blocks."""
        ...

    def count(self, match_id: str) -> int:
        """How many listeners this worker has for the match (0: it may be dropped)."""
        ...

    def tell_local(self, match_id: str, version: int) -> None:
        """Tell this worker's listeners only (the worker found newer events itself)."""
        ...

    def set_presence(self, match_id: str, seat: int, count: int) -> None:
        """This worker has ``count`` sockets of the seat (for the other workers)."""
        ...

    def present_elsewhere(self, match_id: str, seat: int) -> bool:
        """Whether another worker has a socket of the seat."""
        ...


class MatchSerializer(Protocol):
    def hold(self, match_id: str) -> AbstractAsyncContextManager[None]: ...

    def local(self, match_id: str) -> AbstractAsyncContextManager[None]:
        """This worker's own lock for the match (``hold`` takes it too)."""
        ...

    def forget(self, match_id: str) -> None:
        """Drop the match's lock if nobody holds it."""
        ...


class Listeners:
    """The per-match listener table every bus keeps for its own worker's sockets."""

    def __init__(self, on_empty: Callable[[str], None] | None = None) -> None:
        self._groups: dict[str, set[Listener]] = defaultdict(set)
        self._on_empty = on_empty

    def subscribe(self, match_id: str, listener: Listener) -> Callable[[], None]:
        self._groups[match_id].add(listener)

        def unsubscribe() -> None:
            group = self._groups.get(match_id)
            if group is not None:
                group.discard(listener)
                if not group:
                    del self._groups[match_id]
                    if self._on_empty is not None:
                        self._on_empty(match_id)

        return unsubscribe

    def count(self, match_id: str) -> int:
        return len(self._groups.get(match_id, ()))

    def has(self, match_id: str) -> bool:
        return match_id in self._groups

    def of(self, match_id: str) -> list[Listener]:
        """A copy: a listener may unsubscribe while it is being called."""
        return list(self._groups.get(match_id, ()))

    def matches(self) -> list[str]:
        return list(self._groups)


class LocalBus:
    """In-process fan-out: listeners are plain callbacks that must not block."""

    def __init__(self) -> None:
        self._listeners = Listeners()

    def subscribe(self, match_id: str, listener: Listener) -> Callable[[], None]:
        return self._listeners.subscribe(match_id, listener)

    def count(self, match_id: str) -> int:
        return self._listeners.count(match_id)

    def announce(self, match_id: str, event: EventRow, finished: datetime | None) -> None:
        self.tell_local(match_id, event.seq)

    def tell_local(self, match_id: str, version: int) -> None:
        for listener in self._listeners.of(match_id):
            listener(version)

    def set_presence(self, match_id: str, seat: int, count: int) -> None:
        pass  # one worker: nobody else to tell

    def present_elsewhere(self, match_id: str, seat: int) -> bool:
        return False


class LocalSerializer:
    """One asyncio lock per game."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}

    def hold(self, match_id: str) -> asyncio.Lock:
        # The lock itself is the context manager (no generator-based wrapper: this is
        # on every action's path).
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    local = hold  # one worker: the local lock is the whole lock

    def forget(self, match_id: str) -> None:
        lock = self._locks.get(match_id)
        if lock is not None and not lock.locked():
            del self._locks[match_id]
