"""Who plays a seat now: the one rule for bots taking a human seat (issue 27).

A human seat of a running table game is played by a bot of the table's level when

- its player gave the seat up (``left``: "Opgiv og forlad bordet") — for the rest of
  the game;
- it is the seat's turn, the table has a turn timer and the turn has lasted
  ``turn_seconds`` — for that one action (the timer starts again with the next turn);
- every socket of the seat has been gone for the room's ``takeover_seconds`` — until a
  socket of the seat comes back.

The turn's clock is derived from what is stored, so it survives a restart: a turn
starts at the last event (or the match's creation), or — when a seat was claimed later
— when the table's last open seat was claimed (``Session.full_since``; not stored: after
a restart the turn counts from the last event).  The timer runs only while every seat
is claimed: a table still waiting for players has no clock.  The bot driver
(bots_runner.py) asks ``controller`` and nothing else; the seat list and the state
message show the same answer (``bot_reason``, ``turn``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from spillebord import bots

if TYPE_CHECKING:
    from spillebord.core.protocol import State
    from spillebord.server.infra.storage.repo import EventRow, MatchRow, SeatRow

Who = tuple[str, dict[str, Any]]  # a bot's name and keyword options
TURN_CHOICES = (30, 60, 120)  # the page's choices (docs/web.md); the API takes a range


class Table(Protocol):
    """What the rule reads of a room (room/session.py's ``Session``): the rule knows
    the room by these facts only, so it sits below the room, not beside it."""

    @property
    def row(self) -> MatchRow: ...

    @property
    def seats(self) -> list[SeatRow]: ...

    @property
    def events(self) -> list[EventRow]: ...

    @property
    def state(self) -> State: ...

    @property
    def running(self) -> bool: ...

    @property
    def solitaire(self) -> bool: ...

    @property
    def full_since(self) -> float | None:
        """When the table's last open seat was claimed (None: full from the start)."""
        ...

    @property
    def away_since(self) -> dict[int, float]:
        """Since when (monotonic clock) each seat has had no socket here."""
        ...

    def present(self, seat: int) -> bool:
        """Whether the seat has a socket (on any worker)."""
        ...


def table_bot(session: Table) -> Who:
    """A bot of the table's level: the level of its first bot seat that has one, else
    the game's default level (the game's own first bot when it declares no levels)."""
    game = session.row.game
    table = bots.levels(game)
    level: Any = None
    for seat in session.seats:
        if seat.kind == "bot" and isinstance(seat.level, dict):
            level = seat.level.get("level")
            if level in table:
                break
    if level not in table:
        level = bots.default_level(game)
    if level is not None and level in table:
        return table[level].bot, {"level": level}
    from spillebord.server.infra import compute

    names = [n for n in compute.bot_names(game) if n != "random"]
    return (names[0] if names else "random"), {}


def turn_started(session: Table) -> float:
    """When the current turn started (wall clock, seconds since the epoch)."""
    s = session
    start = s.events[-1].time if s.events else s.row.created
    began = start.timestamp()
    return max(began, s.full_since) if s.full_since is not None else began


def table_full(session: Table) -> bool:
    return all(seat.kind == "bot" or seat.token_hash is not None for seat in session.seats)


def turn_left(session: Table) -> float | None:
    """Seconds left of the turn of the seat to move (negative: run out), or None when
    no timer runs (no timer, finished, a bot's or a left seat's turn, seats open)."""
    s = session
    limit = s.row.turn_seconds
    seat = s.state.to_move
    if limit is None or seat is None or not s.running or s.solitaire:
        return None
    row = s.seats[seat]
    if row.kind != "human" or row.left is not None or not table_full(s):
        return None
    return turn_started(s) + limit - time.time()


def controller(session: Table, seat: int | None) -> tuple[Who | None, float | None, str]:
    """Who plays ``seat`` now (a bot's name and options, or None for its human), when
    to look again (seconds; None = only when woken), and why a bot plays a human seat
    ("left", "timer", "away"; "" otherwise)."""
    s = session
    if seat is None or not s.running:
        return None, None, ""
    row = s.seats[seat]
    if row.kind == "bot" and row.bot is not None:
        # The seat's "level" column holds the bot's keyword options (or null).
        options = row.level if isinstance(row.level, dict) else {}
        return (row.bot, options), None, ""
    if row.left is not None:
        return table_bot(s), None, "left"
    wait: float | None = None
    if seat == s.state.to_move:
        left = turn_left(s)
        if left is not None:
            if left <= 0:
                return table_bot(s), None, "timer"
            wait = left
    timeout = s.row.takeover_seconds
    if timeout is None or s.present(seat):
        return None, wait, ""
    away = s.away_since[seat] + timeout - time.monotonic()
    if away > 0:
        return None, away if wait is None else min(wait, away), ""
    return table_bot(s), None, "away"


def turn_json(session: Table) -> dict[str, Any] | None:
    """The turn timer as the seats see it: the seat, the timer's length and the
    milliseconds left when the message was made (the page counts down from its own
    receipt: no clock of the player's device is trusted)."""
    left = turn_left(session)
    if left is None:
        return None
    return {"seat": session.state.to_move, "seconds": session.row.turn_seconds,
            "left_ms": max(0, round(left * 1000))}
