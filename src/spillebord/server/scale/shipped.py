"""A committed event as shared mode ships it between workers (issue 26): the event as
stored (its number, kind, text, seat, whether a bot made it, its time) and, for the
event that ended the game, when it ended.  The bus's announcements (redis_bus.py) and
the owner's answer to a forwarded move (forward.py) carry these, so a worker with a
copy of the game applies them from the message and reads the database only to fill a
gap (scale/catchup.py).

    {"s": 7, "k": "act", "a": "9H-T", "p": 0, "b": false, "t": "2026-…+00:00", "f": null}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from spillebord.server.infra.storage.repo import EventRow, aware


@dataclass(frozen=True, slots=True)
class Shipped:
    event: EventRow
    finished: datetime | None = None  # the event ended the game then


def to_json(event: EventRow, finished: datetime | None = None) -> dict[str, Any]:
    return {"s": event.seq, "k": event.kind, "a": event.text, "p": event.seat,
            "b": event.by_bot, "t": event.time.isoformat(),
            "f": None if finished is None else finished.isoformat()}


def from_json(obj: Any) -> Shipped:
    """One shipped event (ValueError, TypeError or KeyError when it is not one)."""
    seq, kind, text, seat = obj["s"], obj["k"], obj["a"], obj["p"]
    if not (isinstance(seq, int) and isinstance(kind, str) and isinstance(text, str)
            and (seat is None or isinstance(seat, int))):
        raise ValueError("not a shipped event")
    when = aware(datetime.fromisoformat(obj["t"]))
    assert when is not None
    finished = obj.get("f")
    return Shipped(EventRow(seq, kind, text, seat, bool(obj["b"]), when),
                   None if finished is None else aware(datetime.fromisoformat(finished)))


def many_from_json(items: Any) -> list[Shipped]:
    """A message's events, in order of their numbers; [] when they cannot be read (the
    receiver then reads the database, as for a gap)."""
    if not isinstance(items, list):
        return []
    try:
        return sorted((from_json(x) for x in items), key=lambda s: s.event.seq)
    except (ValueError, TypeError, KeyError):
        return []
