"""Board geometry of Kugler og Jokere for 4, 6 and 8 seats (rule book kugler, ruling 2).

Fields are small ints, precomputed once per seat count:

- track field ``t<i>`` is ``i`` (0 … 18n − 1), numbered in the direction of play;
- home field ``h<p>.<k>`` (k = 1 … 5) is ``18n + 5p + k − 1``;
- a start area ``s<p>`` is not a field: a marble there has location ``START`` (−1).

Seat p's start field is ``t(18p)``; its home entry ("feltet lige før hjemmet") is
``t(18p − 5 mod 18n)``.  The whole board is an occupancy tuple: one entry per field,
holding the seat whose marble stands there or ``EMPTY``; a seat's start-area count is 5
minus its marbles on fields.  Partners sit opposite: seat p with ``(p + n/2) mod n``.
"""

from __future__ import annotations

import re
from functools import cache

from spillebord.core.errors import NotationError

FIELDS_PER_SEAT = 18
HOME_SIZE = 5
MARBLES = 5
START = -1
EMPTY = -1

_LOCATION = re.compile(r"^(?:s(\d+)|t(\d+)|h(\d+)\.(\d+))$")


class Geometry:
    """Everything about the board that depends only on the number of seats."""

    __slots__ = (
        "entry", "home_base", "names", "partner", "seats", "size", "start",
        "to_entry", "track",
    )

    def __init__(self, seats: int) -> None:
        n = seats
        self.seats = n
        self.track = FIELDS_PER_SEAT * n
        self.size = self.track + HOME_SIZE * n
        self.start = tuple(FIELDS_PER_SEAT * p for p in range(n))
        self.entry = tuple((FIELDS_PER_SEAT * p - 5) % self.track for p in range(n))
        self.home_base = tuple(self.track + HOME_SIZE * p for p in range(n))
        self.partner = tuple((p + n // 2) % n for p in range(n))
        names = [f"t{i}" for i in range(self.track)]
        names += [f"h{p}.{k}" for p in range(n) for k in range(1, HOME_SIZE + 1)]
        self.names = tuple(names)
        # to_entry[p][x]: forward steps from track field x to seat p's home entry.
        self.to_entry = tuple(
            tuple((self.entry[p] - x) % self.track for x in range(self.track))
            for p in range(n)
        )

    def home_owner(self, field: int) -> int:
        """The seat whose home holds ``field`` (a home field)."""
        return (field - self.track) // HOME_SIZE

    def location_name(self, seat: int, loc: int) -> str:
        """``s<seat>`` for the start area, else the field's name."""
        return f"s{seat}" if loc == START else self.names[loc]

    def parse_location(self, text: str) -> tuple[int, int | None]:
        """(location, owner): a start area gives (START, its seat), a home field gives
        (field, its seat), a track field (field, None).  NotationError when it does not
        exist on this board."""
        m = _LOCATION.match(text)
        if m is None:
            raise NotationError(f"{text!r} is not a place: use s<seat>, t<field> or h<seat>.<k>")
        s, t, hp, hk = m.groups()
        n = self.seats
        if s is not None:
            if int(s) >= n:
                raise NotationError(f"{text} does not exist: there are {n} seats")
            return START, int(s)
        if t is not None:
            if int(t) >= self.track:
                raise NotationError(
                    f"{text} does not exist: the track is t0 … t{self.track - 1}"
                )
            return int(t), None
        p, k = int(hp), int(hk)
        if p >= n or not 1 <= k <= HOME_SIZE:
            raise NotationError(f"{text} does not exist: homes are h0.1 … h{n - 1}.5")
        return self.home_base[p] + k - 1, p


@cache
def geometry(seats: int) -> Geometry:
    return Geometry(seats)
