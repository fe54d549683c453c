"""Bots playing their seats server-side, and bot takeover of absent humans.

One ``BotDriver`` task per running match wakes after every event and every
(dis)connection.  When the seat to move is a bot seat — or a human seat a bot plays by
the rule of turns.py (given up, its turn timer run out, or every socket gone for the
room's ``takeover_seconds``) — it waits the configured delay
(a watchable pace), asks the bot off the event loop, and submits the action through the
session like any client (a stale answer is simply dropped and recomputed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from spillebord import bots
from spillebord.server.errors import Refusal
from spillebord.server.infra import compute, logs
from spillebord.server.room import turns

if TYPE_CHECKING:
    from spillebord.core.protocol import State
    from spillebord.server.infra.compute import Compute
    from spillebord.server.room.session import Session

log = logging.getLogger(__name__)
LEASE_RETRY = 2.0  # seconds between attempts to take over another worker's bots
BOT_TIMEOUT = 60.0  # seconds; bot options are capped at 5 s of thinking (lobby.py)


def room_flow(session: Session) -> tuple[str, bool]:
    """(flow, low) of a room's bot calls in the fair queue (infra/fair_queue.py): a room
    with a human seat is its own flow; bots-only rooms are low, one flow per creator."""
    if any(seat.kind == "human" for seat in session.seats):
        return f"room:{session.id}", False
    return f"creator:{session.row.creator or session.id}", True

def _choose_in_thread(player: bots.Bot, state: State, seat: int, rng: random.Random) -> str:
    return str(player.choose(bots.Observation(state, seat, rng)))


class BotDriver:
    """``delay``: seconds before each bot move; ``pool``: "process" (compute workers) or
    "thread"; ``may_drive(match)``: whether this worker may play the match's bots now
    (shared mode: it owns the game); ``done_driving(match)``: the game ended."""

    def __init__(self, session: Session, compute: Compute,
                 may_drive: Callable[[str], Awaitable[bool]],
                 done_driving: Callable[[str], Awaitable[None]],
                 delay: float, pool: str) -> None:
        self.compute = compute
        self.may_drive = may_drive
        self.done_driving = done_driving
        self.delay = delay
        self.pool = pool
        self.session = session
        self.wake = asyncio.Event()
        self.players: dict[tuple[int, str], bots.Bot] = {}
        self.rngs: dict[int, random.Random] = {}
        self.for_human = False  # the last look found a bot playing a human seat
        session.on_change.append(self.wake.set)
        self.task = asyncio.create_task(self._run(), name=f"bots-{session.id}")

    def controller(self, seat: int | None) -> tuple[tuple[str, dict[str, Any]] | None,
                                                    float | None]:
        """Who plays ``seat`` now (bot name and options, or None for a human), and when
        to look again (None = only on wake): the rule of server/room/turns.py."""
        who, wait, _why = turns.controller(self.session, seat)
        return who, wait

    async def _run(self) -> None:
        s = self.session
        tag = logs.tag_game(s.id)  # not the socket's tag this task was started from
        delay = self.delay
        while s.running:
            self.wake.clear()
            if not await self.may_drive(s.id):  # another worker plays them
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=LEASE_RETRY)
                continue
            seat = s.state.to_move
            who, wait = self.controller(seat)
            for_human = who is not None and seat is not None and s.seats[seat].kind == "human"
            if for_human != self.for_human:  # the seat shows it (and stops showing it)
                self.for_human = for_human
                s.seats_changed()
            if who is None or seat is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=wait)
                continue
            if delay > 0:
                await asyncio.sleep(delay)
                if self.controller(seat)[0] != who:
                    continue
            version = s.version
            tag.seat = seat
            text = await self._choose(seat, who[0], who[1])
            if text is None:
                continue
            try:
                await s.act(seat, version, text, by_bot=True)
            except Refusal as exc:
                if exc.code not in ("stale", "not_your_turn", "game_over"):
                    log.warning("bot %s in %s refused: %s", who[0], s.id, exc.reason)
            # Give sockets a turn between bot actions even with no delay.
            await asyncio.sleep(0)
        await self.done_driving(s.id)

    async def _choose(self, seat: int, name: str, options: dict[str, Any]) -> str | None:
        s = self.session
        state = s.state
        rng = self.rngs.setdefault(seat, random.Random(secrets.randbits(64)))
        try:
            if self.pool == "process":
                # A bot that does not answer in time loses its turn to a random move.
                flow, low = room_flow(s)  # its turn in the fair queue (infra/fair_queue.py)
                return await asyncio.wait_for(self.compute.queued(
                    "bots", flow, compute.bot_choose, s.record().dumps(), seat, name,
                    options, rng.getrandbits(64), low=low), timeout=BOT_TIMEOUT)
            player = self.players.get((seat, name))
            if player is None:
                player = self.players[(seat, name)] = bots.load(s.row.game, name, **options)
            return await self.compute.run("thread", _choose_in_thread, player, state,
                                          seat, rng)
        except Exception:
            log.exception("bot %s failed in %s; playing a random legal action", name, s.id)
            if state is not s.state:
                return None
            legal = s.legal()[0]
            return rng.choice(legal) if legal else None

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
