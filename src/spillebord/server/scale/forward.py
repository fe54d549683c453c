"""Events for a game another worker owns (shared mode, issue 20).

nginx sends every socket of a game to one worker (``hash`` on the match id), which owns
the game, so this is the exception: a socket that reached another worker (its hashed
worker was down or draining, or a client connected to a worker directly).  Such a
worker's copy of the game is a replica, kept current by the bus.  An event there:

1. takes the game if nobody owns it (or its owner's lease has expired) — ``own``, which
   reads the game's newest events from the database first — and runs it here;
2. otherwise sends it to the owner as a direct Redis message (``F``), which runs it
   exactly as its own sockets' events (same checks, same version test) and answers
   (``R``): done, or the refusal;
3. with Redis down the event is refused (``unavailable``, nothing changed) at once;
   a forwarded event that is not answered within ``timeout`` (the owner died) is tried
   again from step 1 — the owner's lease expires ``lease_seconds`` after it stopped
   renewing.  The version test makes a retry of an event that did commit a ``stale``
   refusal, never a second application.

The owner's done answer carries the event it committed (scale/shipped.py), and the
replica applies it before the socket is answered — no database read — so the acting
socket sees its own move in the reply, as on the owner.  (The bus ships the same event
to every worker; whichever comes first is applied, the other is a repeat.)
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.writer import LeaseLost
from spillebord.server.room import wire
from spillebord.server.scale import shipped

if TYPE_CHECKING:
    from spillebord.server.room.ports import Room
    from spillebord.server.room.session import Session
    from spillebord.server.scale.owners import Owners
    from spillebord.server.scale.redis_bus import RedisBus
    from spillebord.server.scale.shipped import Shipped

log = logging.getLogger(__name__)
UNAVAILABLE = ("unavailable", "the game is moving to another server; nothing changed, "
                              "try again")


class Forwarder:
    def __init__(self, session_of: Callable[[str], Session | None], bus: RedisBus,
                 owners: Owners, own: Callable[[str], Awaitable[bool]],
                 receive: Callable[[str, list[Shipped], int], Awaitable[None]]) -> None:
        self.session_of = session_of  # the game's room in memory here, or None
        self.bus = bus
        self.owners = owners
        self.own = own
        self.receive = receive  # apply the owner's event here (read only for a gap)
        self.timeout = min(1.0, owners.ttl / 2)
        self.give_up = 2 * owners.ttl + 5  # seconds before an event is refused
        self.sent = 0  # events this worker forwarded (metrics.py)
        self.served = 0  # events this worker ran for another worker
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._owner_of: dict[str, str] = {}  # match -> its owner, as last seen
        self._tasks: set[asyncio.Task[None]] = set()

    async def event(self, session: Room, kind: str, seat: int | None, version: int,
                    text: str, by_bot: bool) -> None:
        """Run the event here if this worker owns (or can take) the game, else on its
        owner; raises the owner's Refusal."""
        match_id = session.id
        if match_id in self.owners.held:  # the owner: as one worker, no lock, no read
            try:
                await session.event_here(kind, seat, version, text, by_bot)
                return
            except LeaseLost:
                pass  # another worker took the game meanwhile: it runs the event
        if seat is None or not session.running:  # refused here: a spectator's event, or
            # a finished game (a game never runs again), needs no owner
            await session.event_here(kind, seat, version, text, by_bot)
            return
        give_up = time.monotonic() + self.give_up
        while True:
            owner: str | None = self._owner_of.get(match_id)  # live: no lease try
            if owner is None:
                if await self.own(match_id):
                    try:
                        await session.event_here(kind, seat, version, text, by_bot)
                        return
                    except LeaseLost:
                        pass  # taken over meanwhile: ask the new owner
                owner = await self.owners.owner_of(match_id)
            answer = None
            if owner is not None and owner != self.bus.worker:
                answer = await self._ask(owner, {
                    "k": "F", "m": match_id, "kind": kind, "seat": seat, "v": version,
                    "text": text, "bot": by_bot})
            if answer is None or answer.get("not_owner"):
                self._owner_of.pop(match_id, None)
                if time.monotonic() > give_up:
                    raise Refusal(*UNAVAILABLE, 503)
                if answer is not None or owner is None or owner == self.bus.worker:
                    await asyncio.sleep(0.05)  # released or moving: look again shortly
                continue
            assert owner is not None
            self._owner_of[match_id] = owner
            error = answer.get("error")
            if isinstance(error, dict):
                raise _refusal(error)
            await self.receive(match_id, shipped.many_from_json(answer.get("e")),
                               version + 1)
            return

    async def _ask(self, worker: str, message: dict[str, Any]) -> dict[str, Any] | None:
        """Send a forwarded event; its answer, or None when none came in time."""
        ident = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = fut
        try:
            try:
                await self.bus.send_direct(worker, wire.dumps({**message, "id": ident}))
            except (RedisError, OSError):  # Redis is down: nobody can be asked
                raise Refusal("unavailable", "the game's server cannot be reached; "
                                             "nothing changed, try again", 503) from None
            self.sent += 1
            return await asyncio.wait_for(fut, self.timeout)
        except TimeoutError:
            return None
        finally:
            self._waiting.pop(ident, None)

    # -- the owner's side ---------------------------------------------------------------
    def on_direct(self, sender: str, payload: str) -> None:
        """A direct message from another worker (the bus's ``Inbound.direct``): a
        forwarded event to run (``F``), or the answer to one of ours (``R``)."""
        try:
            message = wire.loads(payload)
        except wire.JSONDecodeError:
            log.warning("ignoring a malformed direct message")
            return
        if not isinstance(message, dict):
            return
        if message.get("k") == "R":
            fut = self._waiting.get(message.get("id", -1))
            if fut is not None and not fut.done():
                fut.set_result(message)
        elif message.get("k") == "F":
            task = asyncio.get_running_loop().create_task(self._serve(sender, message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, sender: str, message: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"k": "R", "id": message.get("id")}
        match_id = str(message.get("m"))
        session = self.session_of(match_id)
        if session is None or match_id not in self.owners.held:
            answer["not_owner"] = True
        else:
            seat = message.get("seat")
            try:
                version = int(message.get("v", -1))
                await session.event_here(str(message.get("kind")),
                                         seat if isinstance(seat, int) else None,
                                         version, str(message.get("text")),
                                         bool(message.get("bot")))
                self.served += 1
                answer["e"] = _committed(session, version + 1)
            except LeaseLost:
                answer["not_owner"] = True
            except Refusal as exc:
                answer["error"] = exc.to_json()
            except Exception:
                log.exception("a forwarded event failed in match %s", match_id)
                answer["error"] = {"code": "internal",
                                   "reason": "the server failed on this message; "
                                             "nothing changed"}
        try:
            await self.bus.send_direct(sender, wire.dumps(answer))
        except (RedisError, OSError) as exc:  # the sender times out and asks again
            log.warning("answering a forwarded event failed (%s)", exc)


def _committed(session: Session, seq: int) -> list[dict[str, Any]]:
    """The event ``seq`` the owner just committed, shipped (the version test made it
    that number); [] if it is not in memory (the asker then reads it)."""
    events = session.events
    if seq > len(events) or events[seq - 1].seq != seq:
        return []
    ended = seq == len(events) and not session.running
    return [shipped.to_json(events[seq - 1], session.row.finished if ended else None)]


def _refusal(error: dict[str, Any]) -> Refusal:
    """The owner's refusal again (its to_json() form)."""
    params = error.get("params")
    return Refusal(str(error.get("code")), str(error.get("reason")),
                   key=error.get("key") if isinstance(error.get("key"), str) else None,
                   params=params if isinstance(params, dict) else None,
                   cards=error.get("cards") or (), ranks=error.get("ranks") or (),
                   places=error.get("places") or ())
