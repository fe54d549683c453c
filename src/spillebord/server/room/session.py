"""One authoritative session (the game's room) per live game.

A ``Session`` holds the current state, the event log and the seats of one match, and
knows the rest of the server only through the small ports it is built with
(``RoomPorts``, server/room/ports.py).  Every event (an action, an undo, a redo) goes through
``_commit`` while the match is held (``Lock``): checked, committed to the database
(``EventStore``), then applied in memory and announced (``Announcer``) — so nothing is
acknowledged before it is durable and no two events of one game interleave.  Where an
event runs is the ``Router``'s choice: here, or in shared mode on the game's owner
(scale/forward.py).  The session is the only writer of its seats in memory, and every
seat change tells its sockets.  State messages are rendered per seat from
``state.view(seat)`` (the only thing a seat ever sees), cached per version.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from spillebord import games
from spillebord.core.protocol import Action, Game, State, action_text, replay
from spillebord.core.record import GameRecord
from spillebord.server.errors import Refusal, unavailable
from spillebord.server.infra import dayclock
from spillebord.server.infra.storage.health import StoreUnavailable
from spillebord.server.infra.storage.repo import EventRow, MatchRow, Repository, SeatRow, now
from spillebord.server.infra.storage.writer import LeaseLost, Op
from spillebord.server.room import fairness, turns, wire
from spillebord.server.room.clock import Clock, Tally
from spillebord.server.room.read_order import ReadOrder

if TYPE_CHECKING:
    from spillebord.server.room.ports import RoomPorts


class Shown(Protocol):
    """Something a room shows its sockets but does not own (a rematch offer)."""

    def to_json(self) -> dict[str, Any]: ...


CHECKPOINT = 32  # solitaires: a kept state every this many actions, for undo


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A new seat token (the player keeps it; the database keeps its hash)."""
    return secrets.token_urlsafe(24)


_dumps = wire.dumps


class Session:
    def __init__(self, ports: RoomPorts, row: MatchRow) -> None:
        self.ports = ports
        self.row = row
        self.id = row.id
        self.game: Game = games.load(row.game)
        self.solitaire = self.game.is_solitaire
        # Whether the game words its moves at all: the default ``Game.describe`` gives
        # None for every action, so a game that keeps it (posthus) skips the calls —
        # one per legal action of every position and one per event.
        self.describes = type(self.game).describe is not Game.describe
        self.seats: list[SeatRow] = row.seat_rows
        self.events: list[EventRow] = []
        self.tally = Tally(row.created)  # the clock of ``events`` (events are only added)
        self.applied: list[str] = []
        self.undone: list[str] = []
        start = self.game.new(deal=row.deal, seats=row.seats, **row.flags)
        self._state: State = start
        # Solitaires keep a checkpoint state every CHECKPOINT actions of the effective
        # line (not every state: a long game would fill the heap and slow the garbage
        # collector for every game); undo replays at most CHECKPOINT - 1 actions.
        self.checkpoints: dict[int, State] = {0: start}
        self._legal_cache: tuple[int, list[str], dict[str, Action]] | None = None
        self._render: dict[int | None, tuple[int, str]] = {}
        # Move facts (Game.describe) of the events, by seq, and of the legal actions.
        self.facts: dict[int, dict[str, Any]] = {}
        self._moves_cache: tuple[int, dict[str, Any]] | None = None
        self.connected: dict[int, int] = {}
        self.away_since: dict[int, float] = {s.seat: time.monotonic() for s in self.seats}
        self.touched = time.monotonic()  # the last event, socket or lookup (parking.py)
        self.on_change: list[Callable[[], None]] = []
        # The sockets of this worker, told a ``seats`` message when a seat's claim,
        # presence or bot changes (docs/protocol.md, "seats").
        self.seat_listeners: list[Callable[[str], None]] = []
        self._seats_sent = ""
        self._seats_due = False
        # When the table's last open seat was claimed (wall clock; turns.py): a turn
        # never starts before it.  None: full from the start, or since before a restart.
        self.full_since: float | None = None
        self._was_open = not turns.table_full(self)
        # Solver verdicts of positions on the current line, by the number of effective
        # actions (a new move after an undo drops the later ones): "Fortryd til sidste
        # vindbare stilling" (ws.py ``rewind``).
        self.verdicts: dict[int, str] = {}
        # The answer to the last hint asked at this version — (version, action, verdict):
        # the same question at the same position is answered from it, without a solver
        # call and without counting another hint (http/questions.py); the next event drops it.
        self.hint_answer: tuple[int, str | None, str] | None = None
        self.hint_counted = -1  # the version whose hint was counted: one hint a position
        # "Spil igen" (tables/rematch.py): the offer once a seat accepted, as read from
        # the database; the room only shows it (``to_json``), the tables feature makes it.
        self.rematch: Shown | None = None
        self.rematch_lock = asyncio.Lock()
        # Reads of the offer and, in shared mode, of the seats (scale/replica.py) run
        # off the loop and may end out of order: an older one never replaces a newer
        # read or a seat written here (room/read_order.py).
        self.rematch_reads = ReadOrder()
        self.seat_reads = ReadOrder()
        for e in row.events:
            self._apply_event(e)
        row.events = []

    # -- state --------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._state

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def running(self) -> bool:
        return self.row.status == "running"

    def record(self) -> GameRecord:
        return GameRecord(self.row.game, self.row.seats, self.row.deal, dict(self.row.flags),
                          tuple(self.applied))

    def legal(self) -> tuple[list[str], dict[str, Action]]:
        cache = self._legal_cache
        if cache is None or cache[0] != self.version:
            actions = self.state.legal_actions()
            by_text = {str(a): a for a in actions}
            cache = self._legal_cache = (self.version, list(by_text), by_text)
        return cache[1], cache[2]

    def moves(self) -> dict[str, Any]:
        """The move facts of the legal actions, by text (games that describe moves)."""
        if not self.describes:
            return {}
        cache = self._moves_cache
        if cache is None or cache[0] != self.version:
            texts, _ = self.legal()
            facts = {t: self.game.describe(self.state, t) for t in texts}
            cache = self._moves_cache = (
                self.version, {t: f for t, f in facts.items() if f is not None})
        return cache[1]

    def _apply_event(self, e: EventRow, nxt: State | None = None) -> None:
        """Apply a committed (or reloaded) event to the in-memory state; ``nxt`` is the
        resulting state when the caller already computed it."""
        self.touched = time.monotonic()
        self.hint_answer = None  # a new position: a new question
        before = self._state
        if e.kind == "act":
            self._advance(e.text, nxt)
            self.undone.clear()
            for index in [i for i in self.verdicts if i >= len(self.applied)]:
                del self.verdicts[index]
        elif e.kind == "undo":
            self._state = nxt if nxt is not None else self._before_last()
            self.undone.append(self.applied.pop())
            for index in [i for i in self.checkpoints if i > len(self.applied)]:
                del self.checkpoints[index]
        elif e.kind == "redo":
            self._advance(self.undone.pop(), nxt)
        # An undo is described as the move it takes back (from the state before that move).
        if self.describes:
            facts = (self.game.describe(self._state, e.text, before) if e.kind == "undo"
                     else self.game.describe(before, self.applied[-1], self._state))
            if facts is not None:
                self.facts[e.seq] = facts
        self.events.append(e)
        self.tally.add(e.kind, e.text, e.time)

    def apply_remote(self, e: EventRow) -> None:
        """Apply an event another worker committed; it must be the next one."""
        if e.seq != self.version + 1:
            raise ValueError(f"event {e.seq} does not follow version {self.version}")
        self._apply_event(e)

    def _advance(self, text: str, nxt: State | None) -> None:
        self._state = nxt if nxt is not None else self._state.apply(text)
        self.applied.append(text)
        if self.solitaire and len(self.applied) % CHECKPOINT == 0:
            self.checkpoints[len(self.applied)] = self._state

    def _before_last(self) -> State:
        """The state before the last effective action (replayed from a checkpoint)."""
        target = len(self.applied) - 1
        base = max(i for i in self.checkpoints if i <= target)
        return replay(self.checkpoints[base], self.applied[base:target])

    # -- seats ----------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int | None:
        wanted = token_hash(token)
        found = None
        for s in self.seats:  # compare with every seat: constant time in the token
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, wanted):
                found = s.seat
        return found

    def present(self, seat: int) -> bool:
        """Whether the seat has a socket on this worker or (shared mode) another."""
        return self.connected.get(seat, 0) > 0 or self.ports.presence.elsewhere(self.id, seat)

    def attach(self, seat: int | None) -> None:
        if seat is not None:
            self.connected[seat] = self.connected.get(seat, 0) + 1
            self.ports.presence.sockets(self.id, seat, self.connected[seat])
            self.announce_change()
            self.seats_changed()

    def detach(self, seat: int | None) -> None:
        self.touched = time.monotonic()
        if seat is not None:
            self.connected[seat] = max(0, self.connected.get(seat, 0) - 1)
            if self.connected[seat] == 0:
                self.away_since[seat] = time.monotonic()
            self.ports.presence.sockets(self.id, seat, self.connected[seat])
            self.announce_change()
            self.seats_changed()

    # The session is the only writer of its seats in memory, and each change tells
    # this worker's sockets (a ``seats`` message) and its bot driver.  The writers of
    # the database's seats (an invite claimed, a lobby seat taken, bots filling open
    # seats) tell the other workers through ``ScaleOut.seats_written``; those re-read
    # the seats into ``seats_read`` (scale/replica.py).
    def claim_seat(self, seat: int, token_hash: str, player: str | None) -> None:
        """A human took the seat (an invite claimed or a lobby seat taken) here."""
        row = self.seats[seat]
        row.token_hash, row.player_id = token_hash, player
        self._written_here()

    def seat_bots(self, seats: list[int], bot: str, options: dict[str, Any]) -> None:
        """Bots of ``bot`` with ``options`` took these open seats here."""
        for seat in seats:
            row = self.seats[seat]
            row.kind, row.bot, row.level = "bot", bot, options
        self._written_here()

    def seats_read(self, fresh: list[SeatRow], mark: int) -> bool | None:
        """The seats as the database had them when the read ``mark`` (``seat_reads.
        begin()``) began — another worker may have written them; whether any changed,
        None when the read is older than the seats shown (a newer read or a write here
        came first: nothing applied)."""
        if not self.seat_reads.take(mark):
            return None
        changed = False
        for old, new in zip(self.seats, fresh, strict=False):
            if (old.kind, old.bot, old.level, old.token_hash, old.player_id, old.left) != (
                    new.kind, new.bot, new.level, new.token_hash, new.player_id, new.left):
                old.kind, old.bot, old.level = new.kind, new.bot, new.level
                old.token_hash, old.player_id = new.token_hash, new.player_id
                old.left = new.left
                changed = True
        if changed:
            self._seats_written()
        return changed

    def seat_left(self, seat: int, when: datetime) -> None:
        """The seat's player gave it up here: a bot plays it from now on (turns.py)."""
        self.seats[seat].left = when
        self._written_here()

    def _written_here(self) -> None:
        """A seat was written here (after the database): any read begun before is
        older."""
        self.seat_reads.written()
        self._seats_written()

    def _seats_written(self) -> None:
        full = turns.table_full(self)
        if full and self._was_open:
            self.full_since = time.time()
        self._was_open = not full
        self.announce_change()  # the bot driver looks again
        self.seats_changed()  # every socket here sees the seats

    def announce_change(self) -> None:
        """Tell this worker's watchers (the bot driver) that seats or the position
        changed; the sockets hear of new events through the bus."""
        for callback in self.on_change:
            callback()

    def seats_changed(self) -> None:
        """A seat was claimed, or its presence changed: tell this worker's sockets (one
        ``seats`` message after the current handler — a hello's own welcome goes first —
        for a burst of changes)."""
        if self.seat_listeners and not self._seats_due:
            self._seats_due = True
            asyncio.get_running_loop().call_soon(self.tell_seats)

    def tell_seats(self) -> None:
        """Send every listening socket a ``seats`` message if the seats changed since
        the last one."""
        self._seats_due = False
        text = _dumps(self.seat_list())
        if self.rematch is not None:
            text += f',"rematch":{_dumps(self.rematch.to_json())}'
        if text == self._seats_sent:
            return
        self._seats_sent = text
        turn = "" if self.row.turn_seconds is None else f',"turn":{self._turn_text()}'
        message = f'{{"t":"seats","v":{self.version},"d":{{"seats":{text}{turn}}}}}'
        for listener in list(self.seat_listeners):
            listener(message)

    # -- events -------------------------------------------------------------------
    def _check(self, seat: int | None, version: int) -> None:
        if seat is None:
            raise Refusal("spectator", "spectators cannot act; connect with a seat token")
        if not self.running:
            raise Refusal("game_over", "the game has finished")
        if version != self.version:
            raise Refusal("stale", f"you acted on version {version}; "
                                   f"the game is at {self.version}")

    # The router runs an event here (one worker, or the game's owner) or on the
    # game's owner (scale/forward.py): ``event_here`` is where it is checked and run.
    async def act(self, seat: int | None, version: int, text: str, by_bot: bool = False) -> None:
        await self.ports.router.event(self, "act", seat, version, text, by_bot)

    async def undo(self, seat: int | None, version: int) -> None:
        await self.ports.router.event(self, "undo", seat, version, "", False)

    async def redo(self, seat: int | None, version: int) -> None:
        await self.ports.router.event(self, "redo", seat, version, "", False)

    async def event_here(self, kind: str, seat: int | None, version: int, text: str,
                         by_bot: bool) -> None:
        """Check and commit the event on this worker (LeaseLost: it owns the game no
        longer, nothing was written)."""
        if kind == "act":
            await self._act(seat, version, text, by_bot)
        elif kind == "undo":
            await self._undo(seat, version)
        elif kind == "redo":
            await self._redo(seat, version)
        else:
            raise Refusal("malformed", f"unknown event kind {kind[:20]!r}")

    async def _act(self, seat: int | None, version: int, text: str, by_bot: bool) -> None:
        async with self.ports.lock.hold(self.id):
            self._check(seat, version)
            if self.state.to_move != seat:
                raise Refusal("not_your_turn", f"it is seat {self.state.to_move}'s turn")
            if not by_bot and seat is not None and self.seats[seat].left is not None:
                # given up: only the bot plays it, even for a second tab still open on it
                raise Refusal("seat_left", "this seat was given up; a bot plays it now",
                              key="server.seat_left")
            _texts, by_text = self.legal()
            action = by_text.get(action_text(text))
            if action is None:
                try:
                    action = self.game.parse_action(self.state, text)
                except ValueError as exc:
                    raise Refusal.from_error("illegal", exc) from None
                if str(action) not in by_text:
                    raise Refusal("illegal", f"{text!r} is not a legal action here",
                                  key="server.not_legal", params={"action": text})
            canonical = str(action)
            # The action is one of the cached legal actions, so apply it without
            # recomputing the legal list (State.apply would check it again).
            try:
                nxt = self.state.apply_legal(by_text[canonical])
            except ValueError as exc:
                raise Refusal.from_error("illegal", exc) from None
            await self._commit(EventRow(self.version + 1, "act", canonical, seat, by_bot), nxt)

    async def _undo(self, seat: int | None, version: int) -> None:
        self.solitaire_only()  # where the event runs: a forwarded one is checked once
        async with self.ports.lock.hold(self.id):
            self._check(seat, version)
            if not self.applied:
                raise Refusal("nothing_to_undo", "there is nothing to undo")
            await self._commit(EventRow(self.version + 1, "undo", self.applied[-1], seat),
                               self._before_last())

    async def _redo(self, seat: int | None, version: int) -> None:
        self.solitaire_only()
        async with self.ports.lock.hold(self.id):
            self._check(seat, version)
            if not self.undone:
                raise Refusal("nothing_to_redo", "there is nothing to redo")
            nxt = self.state.apply(self.undone[-1])
            await self._commit(EventRow(self.version + 1, "redo", self.undone[-1], seat), nxt)

    # -- help (solitaires) ---------------------------------------------------------
    def known_answer(self, kind: str) -> dict[str, Any] | None:
        """The answer already given at this position to a ``hint`` (the last hint's) or a
        ``verdict`` question (a decided verdict of the current line), else None."""
        if kind == "hint":
            known = self.hint_answer
            if known is None or known[0] != self.version:
                return None
            return {"action": known[1], "verdict": known[2], "hints": self.row.hints}
        verdict = self.verdicts.get(len(self.applied))
        return None if verdict in (None, "unknown") else {"verdict": verdict}

    async def hint_given(self, version: int, action: str | None, verdict: str) -> None:
        """A solver answered a hint asked at ``version``: counted ("vundet med 4 tip") —
        in memory at once, in the database through the group writer (with the events'
        batch, not a transaction of its own) before this returns — and remembered for
        the same question at the same position — unless the solver could not decide the
        position in its budget (a loaded server): then asking again solves again.  One
        hint a position: not counted again when that position was already answered (two
        questions in flight together, or an undecided answer asked again — the server's
        load is not the player's hint)."""
        if version == self.version:
            if self.hint_answer is not None and self.hint_answer[0] == version:
                return
            if verdict != "unknown":  # undecided in its budget: asked again, solved again
                self.hint_answer = (version, action, verdict)
            if self.hint_counted == version:
                return
            self.hint_counted = version
        self.row.hints += 1
        match_id = self.id
        await self.ports.store.submit([lambda conn: Repository.add_hint(conn, match_id)],
                                      None, self.ports.loop)

    def solitaire_only(self) -> None:
        """Refuse what only solitaires have (undo, redo, hints, clicks)."""
        if not self.solitaire:
            raise Refusal("not_solitaire", "only solitaires have undo, redo, hints and clicks")

    async def _commit(self, e: EventRow, nxt: State) -> None:
        """Write ``e`` (and the end of the game, in the same transaction), then apply it."""
        match_id = self.id
        ops: list[Op] = [Repository.event_row(match_id, e)]
        outcome = nxt.outcome
        finished: datetime | None = None
        if outcome is not None:
            finished = now()
            out_json = outcome.to_json()
            ops.append(lambda conn: Repository.write_finish(conn, match_id, out_json,
                                                            finished or now()))
        await self._write_and_apply(ops, e, nxt, finished)

    async def _write_and_apply(self, ops: list[Op], e: EventRow, nxt: State,
                               finished: datetime | None) -> None:
        # The writer applies and announces the event (``on_commit``, on this loop) as
        # soon as it is durable, even when this caller — a socket that went away — was
        # cancelled meanwhile, so memory never lags the database and every announcement
        # takes this one path.  (A callback, not a shielded task: one task per action
        # was a tenth of the server's time under load.)
        def on_commit() -> None:
            self._apply_committed(e, nxt, finished)
            self.ports.announcer.announce(self.id, e, finished)  # every socket, any worker
            self.announce_change()  # the bot driver

        try:
            await self.ports.store.submit(ops, on_commit, self.ports.loop)
        except LeaseLost:
            self.ports.observer.lease_lost(self.id)  # a replica from now on
            raise
        except StoreUnavailable:  # an outage: say so, with a retry hint (issue 31)
            raise unavailable() from None
        except RuntimeError:
            raise Refusal("internal", "the game could not be saved; nothing changed",
                          500) from None

    def _apply_committed(self, e: EventRow, nxt: State, finished: datetime | None) -> None:
        self._apply_event(e, nxt)
        self.ports.observer.committed(self.row.game, e.kind, e.by_bot)
        outcome = nxt.outcome
        if outcome is not None:
            self.row.status = "finished"
            self.row.outcome = outcome.to_json()
            self.row.finished = finished
            self.ports.observer.finished(self.id)  # an open table's end leaves the lobby

    # -- messages -----------------------------------------------------------------
    def event_json(self, e: EventRow) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": e.seq, "kind": e.kind, "seat": e.seat, "action": e.text}
        if e.by_bot:
            out["by"] = "bot"
        facts = self.facts.get(e.seq)
        if facts is not None:
            out["move"] = facts
        return out

    def state_message(self, seat: int | None, since: int) -> str:
        """The full ``state`` message for ``seat`` with the events after ``since``."""
        version = self.version
        cached = self._render.get(seat)
        if cached is None or cached[0] != version:
            state = self.state
            texts, _ = self.legal()
            outcome = state.outcome
            body = {
                "seat": seat,
                "view": state.view(seat),
                "legal": texts if seat is not None and state.to_move == seat else [],
                "to_move": state.to_move,
                "outcome": None if outcome is None else outcome.to_json(),
                "status": self.row.status,
            }
            if seat is not None and state.to_move == seat:
                moves = self.moves()
                if moves:
                    body["moves"] = moves
            if self.solitaire:
                body["clock"] = self.clock().to_json()
                body["can_undo"] = bool(self.applied) and self.running
                body["can_redo"] = bool(self.undone) and self.running
            cached = (version, _dumps(body)[:-1])  # open object: events are appended
            self._render[seat] = cached
        # Text splicing on purpose: the body is encoded once per version and seat (every
        # socket of that seat and every spectator shares it), and each message appends
        # only its own events.  bench/state_message.py (2 cores, two runs at load 13):
        # 0.5-0.8 µs a message against 2.1-7.7 µs for encoding the whole message from
        # the cached dict and 1.3-3.5 µs with the view as an orjson.Fragment — the
        # server's loop has 5-18 µs an action to spare (docs/benchmarks/server.md).
        events = [self.event_json(e) for e in self.events[max(0, since):]]
        turn = "" if self.row.turn_seconds is None else f'"turn":{self._turn_text()},'
        if self.solitaire:
            turn += f'"hints":{self.row.hints},'
        return (f'{{"t":"state","v":{version},"d":{cached[1]},{turn}'
                f'"events":{_dumps(events)}}}}}')

    def sealed(self) -> bool:
        """Whether the deal is sealed: a ranked daily attempt whose day is not over
        (server/daily/service.py) names its deal nowhere — not even to its own seat."""
        until = self.row.sealed_until
        return until is not None and dayclock.now() < until

    def _turn_text(self) -> str:
        """The turn timer now (turns.py), as JSON: per message, not cached."""
        return _dumps(turns.turn_json(self))

    def day_over(self) -> bool:
        """Whether this is a ranked daily attempt whose day is over: it takes no more
        moves (its deal is public now, and with it every later redeal)."""
        until = self.row.sealed_until
        return until is not None and dayclock.now() >= until

    def fair_info(self) -> dict[str, Any] | None:
        """The deal's commitment; with the deal and salt once they may be shown (the
        game is over, or a solitaire, whose deal is public anyway).  None for matches
        created before deals were sealed."""
        r = self.row
        if r.salt is None:
            return None
        reveal = not self.sealed() and (self.solitaire or not self.running)
        return {"algorithm": fairness.ALGORITHM,
                "commitment": fairness.commitment(r.deal, r.salt),
                "deal": r.deal if reveal else None,
                "salt": r.salt if reveal else None,
                # the exact text the commitment hashes (a 63-bit deal is not exact as a
                # JavaScript number)
                "text": f"{r.deal}:{r.salt}" if reveal else None}

    def last_winnable(self) -> int | None:
        """The number of effective actions of the last position before this one that a
        solver verdict found winnable (None: none known)."""
        known = [i for i, v in self.verdicts.items()
                 if v == "winnable" and i < len(self.applied)]
        return max(known) if known else None

    def clock(self) -> Clock:
        """Moves made and time played so far (server/room/clock.py)."""
        return self.tally.clock()

    def seat_list(self) -> list[dict[str, Any]]:
        """Each seat as everyone may see it: kind, bot and level, claimed, connected."""
        return [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot,
             "level": s.level.get("level") if isinstance(s.level, dict) else None,
             "options": s.level if isinstance(s.level, dict) else {},
             "claimed": s.kind == "bot" or s.token_hash is not None,
             "connected": self.present(s.seat),
             "bot_playing": s.kind == "human"
             and self.ports.presence.bot_playing(self.id, s.seat),
             "bot_reason": turns.controller(self, s.seat)[2] if s.kind == "human" else "",
             "left": s.left is not None}
            for s in self.seats
        ]

    def public_info(self) -> dict[str, Any]:
        r = self.row
        show_deal = not self.sealed() and (self.solitaire or not self.running)
        return {
            "match_id": r.id,
            "game": r.game,
            "flags": dict(r.flags),
            "seats": self.seat_list(),
            "status": r.status,
            "version": self.version,
            "to_move": self.state.to_move,
            "outcome": r.outcome,
            "deal": r.deal if show_deal else None,
            "fair": self.fair_info(),
            "takeover_seconds": r.takeover_seconds,
            "turn_seconds": r.turn_seconds,
            "turn": turns.turn_json(self),
            "rematch": None if self.rematch is None else self.rematch.to_json(),
            "created": r.created.isoformat(),
            "finished": r.finished.isoformat() if r.finished else None,
        }
