"""The solitaire clock: how many moves a player made and how long they played, from the
match's own record (the creation time and each event's time) — one rule, used by the
``state`` message, the record endpoint and the statistics.

Moves: the moves on the board — an ``act`` (not ``resign``) or a ``redo`` adds one, an
``undo`` takes one off — so a result counts the moves of the game as it was played to
its end, and a redo never counts a move twice (issue 27).  Time: the sum of the
pauses between the deal and the first event and between consecutive events, each pause
counted as at most ``IDLE_CAP`` seconds, so a game left open overnight does not count the
night (docs/web.md, "Clock and best results").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

IDLE_CAP = 60.0


@dataclass(frozen=True, slots=True)
class Clock:
    moves: int
    seconds: float

    def to_json(self) -> dict[str, float | int]:
        return {"moves": self.moves, "seconds": round(self.seconds, 1)}


def move_delta(kind: str, text: str) -> int:
    """How an event changes the number of moves on the board."""
    if kind == "undo":
        return -1
    return int(kind == "redo" or (kind == "act" and text != "resign"))


class Tally:
    """The clock kept up to date one event at a time (a live session adds each event as
    it is applied, so a state message costs the same in a long game as in a short one)."""

    __slots__ = ("before", "moves", "seconds")

    def __init__(self, created: datetime) -> None:
        self.before = created
        self.moves = 0
        self.seconds = 0.0

    def add(self, kind: str, text: str, when: datetime) -> None:
        self.moves = max(0, self.moves + move_delta(kind, text))
        self.seconds += min(IDLE_CAP, max(0.0, (when - self.before).total_seconds()))
        self.before = when

    def clock(self) -> Clock:
        return Clock(self.moves, self.seconds)


def play_clock(created: datetime, events: Iterable[tuple[str, str, datetime]]) -> Clock:
    """``events``: (kind, text, time) in order of play."""
    tally = Tally(created)
    for kind, text, when in events:
        tally.add(kind, text, when)
    return tally.clock()
