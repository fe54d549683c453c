"""Gammel Jomfru's observation and action encoding (docs/research.md).

Seats are relative to the observer: block ``r`` (0 … n−1) describes seat
``(seat + r) mod n``, so block 0 is always the observer.  Per seat block (110 floats):
face-down count / 52, face-up count / 52, cards held / 52, out (0/1), place in the
going-out order / n (0 when not out), recycled (0/1), the face-up top (52 one-hot), the
face-up pile's cards (52 set).  Then: the seat to move (n one-hot, relative), the turned
card (52 one-hot), each centre pile's top in started order (4 × 52 one-hot), turns
played / turn limit.  Cards are in ``one_deck()`` order (C D H S, A … K).

Actions (``6 + n``): 0 ``turn``, 1 ``centre``, 2 ``keep``, 3 … 6 ``c1`` … ``c4``,
``6 + r`` (r = 1 … n−1) onto the face-up top of seat ``(seat + r) mod n`` (``pN``).
"""

from __future__ import annotations

import numpy as np

from spillebord.core.cards import one_deck
from spillebord.core.protocol import JSON, Action
from spillebord.research.codec import Codec, EncodingError

CARDS: tuple[str, ...] = tuple(one_deck())
CARD: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
N = len(CARDS)
SEAT_BLOCK = 6 + 2 * N
FIXED = {"turn": 0, "centre": 1, "keep": 2, "c1": 3, "c2": 4, "c3": 5, "c4": 6}


class JomfruCodec(Codec):
    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.n_actions = 6 + seats
        self._globals = seats * SEAT_BLOCK
        self.size = self._globals + seats + N + 4 * N + 1

    def observe(self, view: JSON) -> np.ndarray:
        n = self.seats
        me = view["seat"]
        at_idx: list[int] = []  # every non-zero entry, written in one numpy call
        values: list[float] = []
        out_order = {s: i for i, s in enumerate(view["out"])}
        recycled = view["recycled"]
        down, held, ups = view["down_counts"], view["held"], view["up"]
        card = CARD.__getitem__
        for r in range(n):
            s = (me + r) % n
            at = r * SEAT_BLOCK
            up = ups[s]
            at_idx += (at, at + 1, at + 2)
            values += (down[s] / N, len(up) / N, held[s] / N)
            if s in out_order:
                at_idx += (at + 3, at + 4)
                values += (1.0, (out_order[s] + 1) / n)
            if s in recycled:
                at_idx.append(at + 5)
                values.append(1.0)
            if up:
                base = at + 6 + N
                at_idx.append(at + 6 + CARD[up[-1]])
                at_idx += [base + i for i in map(card, up)]
                values += [1.0] * (len(up) + 1)
        at = self._globals
        if view["to_move"] is not None:
            at_idx.append(at + (view["to_move"] - me) % n)
            values.append(1.0)
        at += n
        if view["turned"] is not None:
            at_idx.append(at + CARD[view["turned"]])
            values.append(1.0)
        at += N
        for k, pile in enumerate(view["centre"]):
            at_idx.append(at + k * N + CARD[pile[-1]])
            values.append(1.0)
        at_idx.append(at + 4 * N)
        values.append(view["turns"] / view["turn_limit"])
        out = np.zeros(self.size, dtype=np.float32)
        out[at_idx] = values
        return out

    def index(self, view: JSON, action: Action) -> int:
        text = str(action)
        fixed = FIXED.get(text)
        if fixed is not None:
            return fixed
        if text[:1] == "p" and text[1:].isdigit():
            r = (int(text[1:]) - int(view["seat"])) % self.seats
            if r:
                return 6 + r
        raise EncodingError(f"gammel_jomfru has no action index for {text!r}")
