"""The clock the daily deal's days are read from (Europe/Copenhagen): the real time,
plus ``Settings.day_offset`` seconds, which only tests set (docs/testing.md): a test
server started with an offset of a day lives on the next day, so a test can see what
opens when a day is over.  One offset per process, set when the app is created; a
non-zero offset is logged as a warning at start, since in production it would open the
day's attempts early or late.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("Europe/Copenhagen")
_offset = timedelta(0)


def set_offset(seconds: float) -> None:
    global _offset
    _offset = timedelta(seconds=seconds)


def now() -> datetime:
    """The present moment (UTC) as the daily deal sees it."""
    return datetime.now(UTC) + _offset


def today() -> str:
    """Today's date in Europe/Copenhagen, YYYY-MM-DD."""
    return now().astimezone(ZONE).date().isoformat()


def end_of(day: str) -> datetime:
    """The moment (UTC) the Copenhagen day ``day`` is over: the next midnight there."""
    start = datetime.fromisoformat(day).replace(tzinfo=ZONE)
    return (start + timedelta(days=1)).replace(tzinfo=ZONE).astimezone(UTC)
