"""A solitaire seat's questions to the solver over its game socket (http/ws.py): ``hint``
and ``verdict`` (docs/protocol.md).

One question in flight per socket (another gets ``busy``), at most ``SEAT_QUEUE`` per
seat waiting in the solver's fair queue (infra/fair_queue.py, before the database is
asked anything), none at all in a ranked daily attempt (daily/service.py).  The same
question at the same position is answered again from the session (room/session.py
``known_answer``): no solver call, no hint counted, but it costs the socket as much of
its budget as a refusal (http/inflow.py).  A hint is counted with its answer ("vundet
med 4 tip"), and a verdict about the position still shown is kept for "Fortryd til
sidste vindbare stilling".
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol

from spillebord.server.errors import Refusal
from spillebord.server.infra import compute
from spillebord.server.room import wire

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from spillebord.server.daily.service import Daily
    from spillebord.server.http.inflow import Inflow
    from spillebord.server.infra.compute import Compute
    from spillebord.server.infra.settings import Settings
    from spillebord.server.room.session import Session

log = logging.getLogger(__name__)


class Asker(Protocol):
    """What the questions need of their socket (http/ws.py's ``Connection``)."""

    session: Session
    seat: int | None
    inflow: Inflow
    ws: WebSocket

    def push(self, item: object) -> None: ...

    def error(self, code: str, reason: str, ref: str | None = None,
              message: dict[str, object] | None = None) -> None: ...


class Questions:
    """One socket's questions to the solver; ``ask`` after the socket checked that it
    holds a seat of a running solitaire."""

    def __init__(self, socket: Asker, daily: Daily, computing: Compute,
                 settings: Settings) -> None:
        self.socket = socket
        self.daily = daily
        self.compute = computing
        self.settings = settings
        self.busy = False  # a question of this socket is with the solver
        self.tasks: set[asyncio.Task[None]] = set()

    async def ask(self, kind: str) -> None:
        """``kind``: "hint" or "verdict".  Refusal: no solver for the game, busy, or a
        ranked daily attempt."""
        session = self.socket.session
        needed = "hint" if kind == "hint" else "solve"
        if not compute.solver_offers(session.row.game, needed):
            raise Refusal("no_solver", f"{session.game.name_en} has no solver")
        known = session.known_answer(kind)
        if known is not None:
            await self._again(kind, session.version, known)
            return
        if self.busy:
            raise Refusal("busy", "the solver is still working on your last question")
        seat = f"{session.id}:{self.socket.seat}"
        queue = self.compute.queues["solver"]
        flow = self._flow()
        # busy past the seat's queue (fair_queue.py) — before the database is asked
        # whether this is a ranked attempt: a flood of questions costs no reads
        queue.hold(seat, flow)
        try:
            await self.daily.refuse_help(session.id)
        except BaseException:
            queue.release(seat)
            raise
        self.busy = True
        task = asyncio.create_task(self._answer(
            kind, session.version, session.record().dumps(), len(session.applied), flow))
        task.add_done_callback(lambda _task: queue.release(seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _again(self, kind: str, version: int, known: dict[str, Any]) -> None:
        """The same question at the same position (``version``): the answer already
        given, after the same ranked-day check as a new question; it costs the socket
        as much of its budget as a refusal (a page asks again now and then, a flood
        keeps asking: http/inflow.py)."""
        self.socket.inflow.repeated()
        await self.daily.refuse_help(self.socket.session.id)
        self.socket.push(wire.message(kind, version, known))

    def _flow(self) -> str:
        """Whose turn a question waits for in the solver's queue (fair_queue.py): the
        seat's player, else the socket's address."""
        socket = self.socket
        player = socket.session.seats[socket.seat or 0].player_id
        if player is not None:
            return player
        host = socket.ws.client.host if socket.ws.client else None
        return f"address:{host or socket.session.id}"

    async def _answer(self, kind: str, version: int, record: str, moves: int,
                      flow: str) -> None:
        """Ask the solver (in its queue) and send the answer to the socket."""
        s = self.settings
        socket = self.socket
        session = socket.session
        try:
            if kind == "hint":
                action, verdict = await self.compute.queued(
                    "solver", flow, compute.solver_hint_verdict, record, s.hint_seconds)
                # counted with the result ("vundet med 4 tip"), remembered at its position
                await session.hint_given(version, action, verdict)
                socket.push(wire.message("hint", version, {
                    "action": action, "verdict": verdict, "hints": session.row.hints}))
            else:
                verdict = await self.compute.queued(
                    "solver", flow, compute.solver_verdict, record, s.verdict_seconds)
                socket.push(wire.message("verdict", version, {"verdict": verdict}))
            if session.version == version:  # the position the verdict is about
                session.verdicts[moves] = verdict
        except Exception:
            log.exception("solver %s failed in %s", kind, session.id)
            socket.error("internal", "the solver failed; try again", kind)
        finally:
            self.busy = False
