"""The WebSocket endpoint ``/ws/{match_id}`` (docs/protocol.md).

Each socket is a ``Connection``: a receive loop that validates every frame and turns it
into a session call, and a sender task that drains an outbox.  State messages are
coalesced (a socket that falls behind gets the newest full state, with every event it
missed listed), so a slow reader cannot grow memory or hold up the game.  What a frame
causes on its own socket (the state after an ``act``, a refusal) is sent by the receive
loop right after handling it; the sender task sends what others cause.  A solitaire
seat's questions to the solver (hints, verdicts) are http/questions.py's.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends
from starlette.websockets import WebSocket, WebSocketDisconnect

from spillebord.server.chat.service import Chat
from spillebord.server.daily.service import Daily
from spillebord.server.errors import Refusal, unavailable
from spillebord.server.http.inflow import Inflow
from spillebord.server.http.metrics import Metrics
from spillebord.server.http.ops import Ops
from spillebord.server.http.questions import Questions
from spillebord.server.infra import logs
from spillebord.server.infra.bus import EventBus
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage.health import READS
from spillebord.server.infra.storage.repo import Repository
from spillebord.server.people.service import People
from spillebord.server.room import wire
from spillebord.server.room.registry import Rooms
from spillebord.server.tables import leaving
from spillebord.server.tables.service import Tables

if TYPE_CHECKING:
    from spillebord.server.room.session import Session

log = logging.getLogger(__name__)
STATE = object()  # outbox marker: "send the newest state"
MAX_OUTBOX = 256
MAX_TEXT = 200  # longest action text or click target accepted
MAX_DEPTH = 16  # deepest nesting of objects and arrays accepted in a frame
MAX_VERSION = 2**63 - 1  # the largest ``v`` a client may send
HOLD_SECONDS = 5.0  # how long a socket at a sealed daily attempt may wait for its hello
SEALED_CLOSE = 4403  # the close code after ``daily_running``: the attempt is not watched


@dataclass(frozen=True)
class Sockets:
    """What a game socket uses (built per socket from the app's services)."""

    settings: Settings
    rooms: Rooms
    bus: EventBus
    chat: Chat
    daily: Daily
    compute: Compute
    metrics: Metrics
    ops: Ops
    people: People
    repo: Repository
    tables: Tables


async def sockets(ws: WebSocket) -> Sockets:
    """The services a game socket uses, read from ``app.state`` (app.py puts each there
    under its field's name) in one dependency: eleven ``*Dep`` sub-dependencies cost
    FastAPI eleven dependency solves for every socket opened (≈ a third of a new game's
    server CPU in bench/server_load.py's flood; docs/benchmarks/server.md)."""
    state = ws.app.state
    return Sockets(**{name: getattr(state, name) for name in SOCKET_SERVICES})


SOCKET_SERVICES = tuple(f.name for f in fields(Sockets))
SocketsDep = Annotated[Sockets, Depends(sockets)]


class Connection:
    def __init__(self, services: Sockets, ws: WebSocket, session: Session) -> None:
        self.services = services
        self.ws = ws
        self.session = session
        self.seat: int | None = None
        self.tag = logs.tag_game(session.id)  # this task's log lines name the match
        self.since = session.version
        self.outbox: collections.deque[object] = collections.deque()
        self.state_queued = False
        self.ready = asyncio.Event()
        self.inline = False  # the receive task is handling a frame; it sends afterwards
        self.draining = False
        self.closed = False
        self.close_code = 1008  # policy: a client that stopped reading
        self.restarting = False  # close with 1012 once the current frame is answered
        self.acked = False  # the frame being handled was an acknowledged action
        self.tasks: set[asyncio.Task[None]] = set()
        # A sealed daily attempt (issue 28) is watched by nobody but its own seat until
        # its day is over: a socket without that seat is held — sent nothing — until a
        # ``hello`` takes the seat; anything else ends it (``refuse_watch``).
        self.held = False
        self.inflow = Inflow(services.settings.rate_per_second)  # http/inflow.py
        self.questions = Questions(self, services.daily, services.compute, services.settings)

    # -- outgoing -------------------------------------------------------------------
    def push(self, item: object) -> None:
        if self.held:  # nothing of a sealed attempt reaches a socket without its seat
            return
        if item is STATE:
            if self.state_queued:
                return
            self.state_queued = True
        if len(self.outbox) >= MAX_OUTBOX:
            self.closed = True  # the client stopped reading; it can reconnect
            self.ready.set()
        self.outbox.append(item)
        if not self.inline:
            self.ready.set()

    def error(self, code: str, reason: str, ref: str | None = None,
              message: dict[str, object] | None = None) -> None:
        """``message``: a Refusal's to_json() (it adds the key and params, if any)."""
        self.services.metrics.refused(code)
        self.inflow.refused(code)  # a refusal costs the socket more of its budget
        d: dict[str, object] = {"code": code, "reason": reason, **(message or {})}
        if ref is not None:
            d["ref"] = ref
        self.push(wire.message("error", self.session.version, d))

    def on_event(self, _version: int) -> None:
        self.push(STATE)

    async def sender(self) -> None:
        try:
            await self._send_loop()
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True

    async def _send_loop(self) -> None:
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            await self._drain()
            if self.restarting and not self.inline:  # refuse_watch outside a frame
                self.closed = True
        await self.ws.close(code=self.close_code)

    def restart(self) -> None:
        """The worker drains: close with 1012 (the page reconnects at once) — after
        the frame being handled, if any, has been answered (an action in flight is
        acknowledged on this socket, not discovered after the reconnect)."""
        self.close_code = 1012
        if self.inline:
            self.restarting = True
            return
        self.closed = True
        self.ready.set()

    def flooded(self) -> None:
        """Over its budget too long (http/inflow.py): ``rate_limited`` with ``ref:
        "socket"``; the sender task sends it and closes the socket with 1008."""
        self.services.metrics.refused("rate_limited")
        log.info("a socket that flooded past its limit is closed")
        self.held = False
        self.close_code = 1008
        self.restarting = True  # the sender closes once the refusal is sent
        self.push(wire.message("error", self.session.version, {
            "code": "rate_limited", "ref": "socket",
            "reason": "too many messages for too long; this connection is closed"}))

    async def on_frame(self, text: str) -> None:
        """Handle one incoming frame, then send what it caused from this task (the
        answer to an action leaves without waking the sender task: one task switch
        less per action)."""
        received = time.perf_counter()
        self.inline = True
        try:
            await self.handle(text)
        finally:
            self.inline = False
        if self.outbox and not self.draining:
            try:
                await self._drain()
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.closed = True
        if self.acked:  # receive → acknowledged (metrics.py)
            self.acked = False
            self.services.metrics.acknowledged(self.session.row.game,
                                          time.perf_counter() - received)
        if self.restarting:  # answered: now close (this task; the loop ends after it)
            self.closed = True
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self.ws.close(code=self.close_code)
        if self.closed:
            self.ready.set()  # the sender task closes the socket

    async def _drain(self) -> None:
        """Send the outbox in order; one drainer at a time (the other returns at once:
        the running one sends whatever arrives meanwhile)."""
        if self.draining:
            return
        self.draining = True
        try:
            await self._send_outbox()
        finally:
            self.draining = False

    async def _send_outbox(self) -> None:
        while self.outbox and not self.closed:
            item = self.outbox.popleft()
            if item is STATE:
                self.state_queued = False
                try:
                    text = self.session.state_message(self.seat, self.since)
                except Exception:  # a game's view failed: report, keep the socket
                    log.exception("rendering match %s failed", self.session.id)
                    text = wire.message("error", self.session.version, {
                        "code": "internal", "reason": "the server could not show "
                                                      "this position; try sync"})
                self.since = self.session.version
            else:
                assert isinstance(item, str)
                text = item
            await self.ws.send_text(text)

    def welcome(self) -> None:
        """Queue a ``welcome`` and then the state for the socket's seat.  A state still
        queued from an earlier welcome (a ``hello`` answered before the sender ran) moves
        behind the new welcome: the page draws the first state after its role's welcome,
        so a state sent before it would be the only one and the board would stay empty."""
        if self.seat is None and self.session.sealed():
            self.refuse_watch(None)
            return
        self.held = False
        if STATE in self.outbox:
            self.outbox = collections.deque(x for x in self.outbox if x is not STATE)
        self.state_queued = False
        role = "spectator" if self.seat is None else "player"
        self.push(wire.message("welcome", self.session.version,
                       {"seat": self.seat, "role": role, "match": self.session.public_info()}))
        self.since = self.session.version
        self.push(STATE)

    def refuse_watch(self, ref: str | None) -> None:
        """A socket without the seat of a sealed daily attempt (a spectator, another
        account): ``error daily_running``, then the socket closes with 4403.  The
        attempt's line — its moves, as they are made — opens when its day is over."""
        self.held = False
        self.outbox = collections.deque(x for x in self.outbox if x is not STATE)
        self.state_queued = False
        self.error("daily_running", "this is a ranked attempt at today's daily deal: "
                   "nobody but its player can watch it until the day is over", ref)
        self.close_code = SEALED_CLOSE
        self.restarting = True  # close once the refusal is sent (on_frame, expire_hold)
        if not self.inline:
            self.ready.set()

    async def expire_hold(self) -> None:
        """A held socket that sent no ``hello`` within HOLD_SECONDS is refused."""
        await asyncio.sleep(HOLD_SECONDS)
        if self.held and not self.closed:
            self.refuse_watch(None)

    # -- incoming -------------------------------------------------------------------
    async def take_seat(self, token: str) -> bool:
        """Take the token's seat (leaving the socket's current one); a bad token changes
        nothing — a seated socket stays seated — and the caller says ``bad_token``.  A
        seat given up is refused (``seat_left``), and an account's seat answers only to
        a socket signed in as that account (``sign_in_needed``: after "Log ud" the old
        token opens nothing)."""
        seat = self.session.seat_for_token(token)
        if seat is None:
            return False
        row = self.session.seats[seat]
        if row.left is not None:
            raise leaving.seat_left()
        if row.player_id is not None and await self._signed_in() != row.player_id:
            person = await asyncio.to_thread(self.services.people.repo.person, row.player_id)
            if person is not None and person.account:
                raise Refusal("sign_in_needed", "this seat is an account's; sign in as "
                                                "that account to take it", 401)
        self.session.detach(self.seat)
        self.seat = self.tag.seat = seat
        self.session.attach(seat)
        return True

    async def _signed_in(self) -> str | None:
        """The account this socket's sign-in cookie names (None: not signed in)."""
        try:
            return await self.services.people.session_player(
                self.ws.cookies.get("spillebord_session"))
        except Refusal:
            return None

    async def handle(self, raw: str) -> None:
        limit = self.services.settings.max_frame
        if len(raw) > limit or (len(raw) * 4 > limit and len(raw.encode()) > limit):
            self.error("too_large", f"a message may be at most {limit} bytes")
            return
        try:
            msg = wire.loads(raw)
        except (wire.JSONDecodeError, RecursionError):
            msg = None
        t = msg.get("t") if isinstance(msg, dict) else None
        ref = t if isinstance(t, str) and t in HANDLERS else None
        if not isinstance(msg, dict) or not isinstance(t, str):
            self.error("malformed", 'a message is one JSON object '
                                    '{"t": type, "v": version, "d": data}')
            return
        # (nesting deeper than MAX_DEPTH takes more than MAX_DEPTH brackets)
        if raw.count("{") + raw.count("[") > MAX_DEPTH and too_deep(msg):
            self.error("malformed", f"a message nests at most {MAX_DEPTH} levels", ref)
            return
        d = msg.get("d", {})
        if d is None:
            d = {}
        if not isinstance(d, dict):
            self.error("malformed", "d must be an object", ref)
            return
        v = msg.get("v")
        handler = HANDLERS.get(t)
        if self.held and t != "hello":
            self.refuse_watch(ref)
            return
        if handler is None:
            self.error("unknown_type", f"unknown message type {t[:40]!r}", None)
            return
        try:
            await handler(self, v, d)
        except Refusal as exc:
            was_held, self.held = self.held, False
            self.error(exc.code, exc.reason, t, exc.to_json())
            if was_held:  # a hello that took no seat of a sealed attempt
                self.refuse_watch(t)
        except Exception as exc:
            if READS.note(exc, f"a {t} message"):  # an outage: logged once (issue 31)
                refusal = unavailable()
                self.error(refusal.code, refusal.reason, t, refusal.to_json())
                return
            log.exception("message %s failed in match %s", t, self.session.id)
            self.error("internal", "the server failed on this message; nothing changed", t)

    @staticmethod
    def _version(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_VERSION:
            raise Refusal("malformed", "v must be the version you saw "
                                       f"(an integer from 0 to {MAX_VERSION})")
        return v

    @staticmethod
    def _text(d: dict[str, Any], key: str) -> str:
        value = d.get(key)
        if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
            raise Refusal("malformed", f"d.{key} must be a non-empty string "
                                       f"of at most {MAX_TEXT} characters")
        return value

    async def on_hello(self, _v: Any, d: dict[str, Any]) -> None:
        if d.get("account") is True and "token" not in d:
            await self._hello_account()
            return
        token = self._text(d, "token")
        if self.services.rooms.shared and self.session.seat_for_token(token) is None:
            await self.services.rooms.refresh(self.session)  # claimed on another worker?
        if await self.take_seat(token):
            self.welcome()
        else:
            was_held, self.held = self.held, False
            self.bad_token("hello")
            if was_held:
                self.refuse_watch("hello")

    async def _hello_account(self) -> None:
        """``hello {"account": true}``: the seat of the socket's signed-in account at
        this match ("Dine spil" on another device: no token there).  The seat's token is
        not needed: the account's sign-in is the proof (the same check ``take_seat``
        makes of a token's account seat)."""
        player = await self._signed_in()
        if player is None:
            raise Refusal("sign_in_needed", "sign in to take your seat without its token",
                          401)
        if self.services.rooms.shared:
            await self.services.rooms.refresh(self.session)
        seat = next((s.seat for s in self.session.seats if s.player_id == player), None)
        if seat is None:
            raise Refusal("no_seat", "your account has no seat at this match", 404)
        if self.session.seats[seat].left is not None:
            raise leaving.seat_left()
        self.session.detach(self.seat)
        self.seat = self.tag.seat = seat
        self.session.attach(seat)
        self.welcome()

    def bad_token(self, ref: str | None) -> None:
        log.info("a token that opens no seat of the match")
        self.error("bad_token", "this token does not open a seat of this match", ref)

    async def on_leave(self, _v: Any, _d: dict[str, Any]) -> None:
        """Give up the seat (server/tables/leaving.py); the socket watches on as a spectator."""
        seat = self.seat
        await leaving.leave(self.services.tables, self.services.repo.leave_seat,
                            self.session, seat)
        self.session.detach(seat)
        self.seat = self.tag.seat = None
        self.welcome()

    async def on_rematch(self, _v: Any, _d: dict[str, Any]) -> None:
        """"Spil igen" at a finished table (server/tables/rematch.py): this seat's new seat."""
        seat = await self.services.tables.rematches.accept(self.session, self.seat)
        self.push(wire.message("rematch", self.session.version, seat))

    async def on_rewind(self, v: Any, _d: dict[str, Any]) -> None:
        """"Fortryd til sidste vindbare stilling" (solitaires): undo back to the last
        position of this line a solver verdict found winnable (each step an ordinary
        ``undo`` event)."""
        version = self._version(v)
        self._solitaire_seat()
        session = self.session
        await self.services.daily.refuse_help(session.id)
        if version != session.version:
            raise Refusal("stale", f"you asked on version {version}; "
                                   f"the game is at {session.version}")
        target = session.last_winnable()
        if target is None:
            raise Refusal("no_winnable", "no earlier position of this game is known to be "
                                         "winnable", key="server.no_winnable")
        while len(session.applied) > target:
            applied = session.applied
            await self.services.daily.refuse_undo(session.id, applied[-1])
            await session.undo(self.seat, session.version)
        self.acked = True

    async def on_ping(self, _v: Any, d: dict[str, Any]) -> None:
        self.push(wire.message("pong", self.session.version, d))

    async def on_sync(self, v: Any, _d: dict[str, Any]) -> None:
        self.since = min(self._version(0 if v is None else v), self.session.version)
        self.state_queued = False
        self.push(STATE)

    def refuse_late(self) -> None:
        """A ranked daily attempt takes no moves once its day is over (daily/service.py)."""
        if self.session.day_over():
            raise Refusal("daily_over", "the day of this ranked attempt is over: its deal "
                                        "is public now, so the attempt takes no more moves")

    async def on_act(self, v: Any, d: dict[str, Any]) -> None:
        self.refuse_late()
        await self.session.act(self.seat, self._version(v), self._text(d, "action"))
        self.acked = True

    async def on_undo(self, v: Any, _d: dict[str, Any]) -> None:
        self.refuse_late()
        applied = self.session.applied
        await self.services.daily.refuse_undo(self.session.id, applied[-1] if applied else None)
        await self.session.undo(self.seat, self._version(v))
        self.acked = True

    async def on_redo(self, v: Any, _d: dict[str, Any]) -> None:
        self.refuse_late()
        await self.session.redo(self.seat, self._version(v))
        self.acked = True

    def _solitaire_seat(self) -> None:
        self.session.solitaire_only()
        if self.seat is None:
            raise Refusal("spectator", "spectators cannot do that; connect with a seat token")
        if not self.session.running:
            raise Refusal("game_over", "the game has finished")

    async def on_click(self, v: Any, d: dict[str, Any]) -> None:
        self.refuse_late()
        version = self._version(v)
        target = self._text(d, "target")
        self._solitaire_seat()
        session = self.session
        if version != session.version:
            raise Refusal("stale", f"you clicked on version {version}; "
                                   f"the game is at {session.version}")
        try:
            meanings = [str(a) for a in session.game.click(session.state, target)]
        except ValueError as exc:
            raise Refusal.from_error("no_move", exc) from None
        if not meanings:
            raise Refusal("no_move", f"clicking {target} does nothing here",
                          key="server.click_nothing", params={"place": target},
                          places=("place",))
        if len(meanings) == 1:
            await session.act(self.seat, version, meanings[0])
            self.acked = True
        else:
            self.push(wire.message("choices", version, {"target": target, "actions": meanings}))

    async def on_chat(self, _v: Any, d: dict[str, Any]) -> None:
        """A line of table chat (server/chat/service.py): everyone at the match gets it.  A
        solitaire has no chat (nobody to talk to: docs/server.md, "Chat")."""
        if self.session.solitaire:
            raise Refusal("no_chat", "a solitaire has no chat", key="server.no_chat")
        player = None if self.seat is None else self.session.seats[self.seat].player_id
        await self.services.chat.say(self.session.id, self.seat, player, self.session.version, d)

    async def on_hint(self, _v: Any, _d: dict[str, Any]) -> None:
        self._solitaire_seat()
        await self.questions.ask("hint")

    async def on_verdict(self, _v: Any, _d: dict[str, Any]) -> None:
        self._solitaire_seat()
        await self.questions.ask("verdict")

Handler = Callable[[Connection, Any, dict[str, Any]], Awaitable[None]]
# The message types a client may send (docs/protocol.md, "Client → server"): nothing
# else reaches a method, whatever its name.
HANDLERS: dict[str, Handler] = {
    "hello": Connection.on_hello, "ping": Connection.on_ping, "sync": Connection.on_sync,
    "act": Connection.on_act, "undo": Connection.on_undo, "redo": Connection.on_redo,
    "click": Connection.on_click, "hint": Connection.on_hint,
    "verdict": Connection.on_verdict, "chat": Connection.on_chat,
    "leave": Connection.on_leave, "rematch": Connection.on_rematch,
    "rewind": Connection.on_rewind,
}


def too_deep(value: object) -> bool:
    """Whether objects and arrays nest more than MAX_DEPTH levels (iteratively: no
    recursion limit is ever reached, here or in the encoder)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


async def serve_socket(services: Sockets, ws: WebSocket, match_id: str) -> None:
    if services.ops.draining:  # going away: another worker takes it (server/http/ops.py)
        await services.ops.refuse_socket(ws)
        return
    await ws.accept()
    try:
        session = await services.rooms.get(match_id)
    except Refusal as exc:
        await ws.send_text(wire.message("error", 0, exc.to_json()))
        await ws.close(code=4404)
        return
    await services.tables.rematches.show(session)  # "Spil igen" made on any worker
    conn = Connection(services, ws, session)
    services.ops.connections.add(conn)
    token = ws.query_params.get("token")
    refused: Refusal | None = None
    try:
        seated = await conn.take_seat(token) if token else True
    except Refusal as exc:
        seated, refused = True, exc
    unsubscribe = services.bus.subscribe(session.id, conn.on_event)
    unchat = services.chat.listen(session.id, conn.push)
    # A sealed daily attempt's socket without its seat yet is held (sent nothing) until
    # its hello; else the welcome is always the first message, a bad ?token= refused
    # right after it.
    conn.held = seated and refused is None and conn.seat is None and session.sealed()
    if not conn.held:
        conn.welcome()
    if not seated:
        conn.bad_token(None)
    if refused is not None:
        conn.error(refused.code, refused.reason, None, refused.to_json())
    session.seat_listeners.append(conn.push)  # claims and presence of the other seats
    sender = asyncio.create_task(conn.sender())
    if conn.held:
        conn.tasks.add(hold := asyncio.create_task(conn.expire_hold()))
        hold.add_done_callback(conn.tasks.discard)
    log.info("socket opened (%s)", "spectator" if conn.seat is None else "seat")
    try:
        while not conn.closed:
            pause = conn.inflow.pause()  # over its budget: not read (http/inflow.py)
            if pause > 0:
                if conn.inflow.flooding():
                    conn.flooded()
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(asyncio.shield(sender), 5)
                    break
                await asyncio.sleep(pause)
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            conn.inflow.took()
            text = message.get("text")
            if text is None:
                conn.error("malformed", "send text frames with JSON, not binary")
                continue
            await conn.on_frame(text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conn.closed = True
        services.ops.connections.discard(conn)
        unsubscribe()
        session.seat_listeners.remove(conn.push)
        unchat()
        session.detach(conn.seat)
        sender.cancel()
        services.rooms.release(session)
        log.info("socket closed")
