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
table-wide vector kept in the frame of the seat last observed as the mover, rewritten
only where the state's public parts changed (piles are compared by identity — the
engine shares unchanged tuples); that seat's observation is a copy, another seat's one
``take`` that rotates the vector.  It reads pile sizes, face-up piles, centre
piles, the turned card, the going-out order, recycling and the counters — never a
face-down card — and is tested equal to ``observe(view)``.
"""

from __future__ import annotations

from typing import Protocol, cast, overload

import numpy as np

from spillebord.core.cards import one_deck
from spillebord.core.protocol import JSON, Action, State
from spillebord.games.gammel_jomfru.state import JomfruState
from spillebord.research.codec import Codec, EncodingError, Tracker

CARDS: tuple[str, ...] = tuple(one_deck())
CARD: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
N = len(CARDS)
SEAT_BLOCK = 6 + 2 * N
# offsets inside a seat block: a card as the face-up top, as one of the face-up cards
TOP: dict[str, int] = {c: 6 + i for c, i in CARD.items()}
FACE_UP: dict[str, int] = {c: 6 + N + i for c, i in CARD.items()}
FRACTION: list[float] = [k / N for k in range(N + 1)]  # a count of cards / 52
FIXED = {"turn": 0, "centre": 1, "keep": 2, "c1": 3, "c2": 4, "c3": 5, "c4": 6}


class JomfruCodec(Codec):
    seat_only_actions = True

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.n_actions = 6 + seats
        self._globals = seats * SEAT_BLOCK
        self.size = self._globals + seats + N + 4 * N + 1
        # full state: seat 0's observation, then per seat its face-down cards (52 set)
        # and the next one it turns (52 one-hot)
        self.state_size = self.size + seats * 2 * N

    def full_state(self, state: State) -> np.ndarray:
        assert isinstance(state, JomfruState)
        out = np.zeros(self.state_size, dtype=np.float32)
        out[:self.size] = self.observe(state.view(0))
        for s, pile in enumerate(state.down):
            at = self.size + s * 2 * N
            for c in pile:
                out[at + CARD[c]] = 1.0
            if pile:
                out[at + N + CARD[pile[0]]] = 1.0
        return out

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


Pile = tuple[str, ...]


class _Floats(Protocol):
    """A float32 buffer's memoryview (typeshed types memoryview for bytes only)."""

    def __getitem__(self, index: int) -> float: ...

    @overload
    def __setitem__(self, index: int, value: float) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: _Floats) -> None: ...


# a seat block's face-up top and face-up cards, cleared (copied in by slice)
_NO_UP = cast(_Floats, np.zeros(2 * N, dtype=np.float32).data)


class JomfruTracker(Tracker):
    """``JomfruCodec.observe`` kept up to date from successive states of one game.

    It remembers the public parts of the last state it encoded (at first: an empty
    table, which is what the all-zero vector encodes) and writes only their differences;
    every difference is handled for any two states, consecutive or not.  The vector is
    kept in one observer's frame (``_frame``): that seat's observation is a plain copy,
    another seat's one ``take``; when the seat to move asks, the vector moves to its
    frame (the mover is the one observed at almost every step)."""

    def __init__(self, codec: JomfruCodec) -> None:
        n = self.seats = codec.seats
        self.size = codec.size
        g = self._globals = codec._globals
        self._turned_at = g + n
        self._centre_at = g + n + N
        self._seat_range = range(n)
        blocks = np.arange(g)
        # _rot[r] turns seat f's observation into seat (f + r)'s
        self._rot = [np.concatenate([np.roll(blocks, -r * SEAT_BLOCK),
                                     g + (r + np.arange(n)) % n,
                                     np.arange(g + n, self.size)]) for r in range(n)]
        # per frame f: where seat s's block and its to-move entry are
        self._blocks = [tuple(((s - f) % n) * SEAT_BLOCK for s in range(n))
                        for f in range(n)]
        self._movers = [tuple(g + (s - f) % n for s in range(n)) for f in range(n)]
        self._src = np.zeros(self.size, dtype=np.float32)
        # float item writes through the buffer, without numpy's per-call cost
        self._mv = cast(_Floats, self._src.data)
        self._frame = 0
        self._blk, self._tm = self._blocks[0], self._movers[0]
        self._state: JomfruState | None = None
        empty: tuple[Pile, ...] = ((),) * n
        self._down, self._up, self._centre = empty, empty, empty[:0]
        self._mover = -1  # the seat holding the turned card (-1: none)
        self._out: tuple[int, ...] = ()
        self._recycled: tuple[bool, ...] = (False,) * n
        self._to_move: int | None = None
        self._turned: str | None = None
        self._turns = 0

    def observe(self, state: State, seat: int) -> np.ndarray:
        if state is not self._state:
            assert isinstance(state, JomfruState)
            self._sync(state)
            self._state = state
        frame = self._frame
        if seat == frame:
            return self._src.copy()
        rot = self._rot[(seat - frame) % self.seats]
        if seat != self._to_move:
            return self._src.take(rot)
        # the seat to move: its frame becomes the tracker's
        src = self._src = self._src.take(rot)
        self._mv = cast(_Floats, src.data)
        self._frame = seat
        self._blk, self._tm = self._blocks[seat], self._movers[seat]
        return src.copy()

    def _sync(self, st: JomfruState) -> None:
        mv, blk = self._mv, self._blk
        down, up, turned = st.down, st.up, st.turned
        mover = st.turn if turned is not None else -1
        # cards held (down + up + the turned card) is written for every seat whose piles
        # changed and for the old and new holder of the turned card
        if down is not self._down:
            old_down = self._down
            for s in self._seat_range:  # (a plain loop beats compress/map here)
                if down[s] is not old_down[s]:
                    at = blk[s]
                    mv[at] = FRACTION[len(down[s])]
                    mv[at + 2] = FRACTION[len(down[s]) + len(up[s]) + (s == mover)]
            self._down = down
        if up is not self._up:
            old_up = self._up
            for s in self._seat_range:
                pile, before = up[s], old_up[s]
                if pile is before:
                    continue
                at = blk[s]
                if len(pile) == len(before) + 1 and pile[:-1] == before:  # one card laid on
                    mv[at + 1] = FRACTION[len(pile)]
                    if before:
                        mv[at + TOP[before[-1]]] = 0.0
                    mv[at + TOP[pile[-1]]] = 1.0
                    mv[at + FACE_UP[pile[-1]]] = 1.0
                else:
                    self._write_up(at, pile)
                mv[at + 2] = FRACTION[len(down[s]) + len(pile) + (s == mover)]
            self._up = up
        was = self._mover
        if mover != was:
            self._mover = mover
            if mover >= 0:
                mv[blk[mover] + 2] = FRACTION[len(down[mover]) + len(up[mover]) + 1]
            if was >= 0:
                mv[blk[was] + 2] = FRACTION[len(down[was]) + len(up[was])]
        if st.out is not self._out:
            self._write_out(st.out)
        if st.recycled is not self._recycled:
            for s in self._seat_range:
                mv[blk[s] + 5] = 1.0 if st.recycled[s] else 0.0
            self._recycled = st.recycled
        to_move = None if st.done else st.turn
        if to_move != self._to_move:
            if self._to_move is not None:
                mv[self._tm[self._to_move]] = 0.0
            if to_move is not None:
                mv[self._tm[to_move]] = 1.0
            self._to_move = to_move
        if turned != self._turned:
            at = self._turned_at
            if self._turned is not None:
                mv[at + CARD[self._turned]] = 0.0
            if turned is not None:
                mv[at + CARD[turned]] = 1.0
            self._turned = turned
        if st.centre is not self._centre:
            self._write_centre(st.centre)
        if st.turns != self._turns:
            self._turns = st.turns
            mv[self.size - 1] = st.turns / st.limit

    def _write_up(self, at: int, pile: Pile) -> None:
        """Seat block ``at``: the face-up pile is ``pile`` (written afresh)."""
        mv = self._mv
        mv[at + 1] = FRACTION[len(pile)]
        mv[at + 6:at + 6 + 2 * N] = _NO_UP
        if pile:
            mv[at + TOP[pile[-1]]] = 1.0
        for c in pile:
            mv[at + FACE_UP[c]] = 1.0

    def _write_out(self, out: tuple[int, ...]) -> None:
        mv, blk, n = self._mv, self._blk, self.seats
        if out[:-1] != self._out:
            for s in self._out:
                mv[blk[s] + 3] = mv[blk[s] + 4] = 0.0
            done = 0
        else:
            done = len(self._out)
        for i in range(done, len(out)):
            mv[blk[out[i]] + 3] = 1.0
            mv[blk[out[i]] + 4] = (i + 1) / n
        self._out = out

    def _write_centre(self, centre: tuple[Pile, ...]) -> None:
        mv, old, at = self._mv, self._centre, self._centre_at
        for k in range(max(len(centre), len(old))):
            pile = centre[k] if k < len(centre) else ()
            was = old[k] if k < len(old) else ()
            if pile is not was:
                if was:
                    mv[at + k * N + CARD[was[-1]]] = 0.0
                if pile:
                    mv[at + k * N + CARD[pile[-1]]] = 1.0
        self._centre = centre
