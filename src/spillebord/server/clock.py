"""The solitaire clock: how many moves a player made and how long they played, from the
match's own record (the creation time and each event's time) — one rule, used by the
``state`` message, the record endpoint and the statistics.

Moves: every move played (``act`` and ``redo``; not ``undo``, not ``resign``) — an
undone move still counts, so undoing never improves a result.  Time: the sum of the
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


def is_move(kind: str, text: str) -> bool:
    return kind == "redo" or (kind == "act" and text != "resign")


def play_clock(created: datetime, events: Iterable[tuple[str, str, datetime]]) -> Clock:
    """``events``: (kind, text, time) in order of play."""
    moves = 0
    seconds = 0.0
    before = created
    for kind, text, when in events:
        moves += is_move(kind, text)
        seconds += min(IDLE_CAP, max(0.0, (when - before).total_seconds()))
        before = when
    return Clock(moves, seconds)
