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

``JomfruTracker`` is the environments' fast path (docs/research.md, "Speed"): one
table-wide vector in absolute seat order, rewritten only where the state's public parts
changed (piles are compared by identity — the engine shares unchanged tuples), and one
``take`` that rotates it to the observer.  It reads pile sizes, face-up piles, centre
piles, the turned card, the going-out order, recycling and the counters — never a
face-down card — and is tested equal to ``observe(view)``.
"""

from __future__ import annotations

import numpy as np

from spillebord.core.cards import one_deck
from spillebord.core.protocol import JSON, Action, State
from spillebord.games.gammel_jomfru.state import JomfruState
from spillebord.research.codec import Codec, EncodingError, Tracker

CARDS: tuple[str, ...] = tuple(one_deck())
CARD: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
N = len(CARDS)
SEAT_BLOCK = 6 + 2 * N
FIXED = {"turn": 0, "centre": 1, "keep": 2, "c1": 3, "c2": 4, "c3": 5, "c4": 6}


class JomfruCodec(Codec):
    seat_only_actions = True

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

    def tracker(self) -> JomfruTracker:
        return JomfruTracker(self)


_UNSET: object = object()


class JomfruTracker(Tracker):
    """``JomfruCodec.observe`` kept up to date from successive states of one game."""

    def __init__(self, codec: JomfruCodec) -> None:
        n = self.seats = codec.seats
        self.size = codec.size
        g = self._globals = codec._globals
        self._turned_at = g + n
        self._centre_at = g + n + N
        self._src = np.zeros(self.size, dtype=np.float32)  # absolute seat order
        blocks = np.arange(g)
        self._perm = [np.concatenate([np.roll(blocks, -me * SEAT_BLOCK),
                                      g + (me + np.arange(n)) % n,
                                      np.arange(g + n, self.size)]) for me in range(n)]
        self._out_at = np.array([s * SEAT_BLOCK + k for s in range(n) for k in (3, 4)])
        self._state: JomfruState | None = None
        self._down: tuple[object, ...] = (_UNSET,) * n  # never a state's tuple
        self._up: tuple[object, ...] = (_UNSET,) * n
        self._held: list[int] = [-1] * n
        self._mover = -2  # the seat holding the turned card (-1: none)
        self._public: list[object] = [_UNSET] * 6  # out, recycled, to_move, turned, centre, turns

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, JomfruState)
        if state is not self._state:
            self._sync(state)
        return self._src.take(self._perm[seat])

    def _sync(self, st: JomfruState) -> None:
        src, n = self._src, self.seats
        down, up, old_down, old_up = st.down, st.up, self._down, self._up
        mover = st.turn if st.turned is not None else -1
        recount = {mover, self._mover} if mover != self._mover else set()
        if down is not old_down or up is not old_up:
            for s in range(n):
                d, u = down[s], up[s]
                at = s * SEAT_BLOCK
                if d is not old_down[s]:
                    src[at] = len(d) / N
                    recount.add(s)
                if u is not old_up[s]:
                    src[at + 1] = len(u) / N
                    src[at + 6:at + 6 + 2 * N] = 0.0
                    if u:
                        src[at + 6 + CARD[u[-1]]] = 1.0
                        base = at + 6 + N
                        src[[base + CARD[c] for c in u]] = 1.0
                    recount.add(s)
        held = self._held
        for s in recount:
            if s >= 0:
                h = len(down[s]) + len(up[s]) + (s == mover)
                if h != held[s]:
                    held[s] = h
                    src[s * SEAT_BLOCK + 2] = h / N
        self._mover = mover
        self._down, self._up = down, up
        public = self._public
        if st.out is not public[0]:
            public[0] = st.out
            src[self._out_at] = 0.0
            for i, s in enumerate(st.out):
                src[s * SEAT_BLOCK + 3] = 1.0
                src[s * SEAT_BLOCK + 4] = (i + 1) / n
        if st.recycled is not public[1]:
            public[1] = st.recycled
            for s in range(n):
                src[s * SEAT_BLOCK + 5] = 1.0 if st.recycled[s] else 0.0
        g = self._globals
        if st.to_move != public[2]:
            public[2] = st.to_move
            src[g:g + n] = 0.0
            if st.to_move is not None:
                src[g + st.to_move] = 1.0
        if st.turned != public[3]:
            public[3] = st.turned
            at = self._turned_at
            src[at:at + N] = 0.0
            if st.turned is not None:
                src[at + CARD[st.turned]] = 1.0
        if st.centre is not public[4]:
            public[4] = st.centre
            at = self._centre_at
            src[at:at + 4 * N] = 0.0
            for k, pile in enumerate(st.centre):
                src[at + k * N + CARD[pile[-1]]] = 1.0
        turns = (st.turns, st.limit)
        if turns != public[5]:
            public[5] = turns
            src[self.size - 1] = st.turns / st.limit
        self._state = st
