"""Kugler og Jokere's observation and action encoding (docs/research.md).

Board geometry is rotated to the observer: track field ``t`` appears at ``(t − 18·seat)
mod 18n`` (the observer's start field is 0), and seat block ``r`` describes seat
``(seat + r) mod n`` (block n/2 is the partner).  Per seat block: its marbles on the
track (18n set), in its home (5 set), in its start area / 5, home count / 5, hand size
/ 5.  Then the observer's hand (card counts / 3, 53 codes in text order), the discard
top (53 one-hot), discard size / 134, draw size / 134, reshuffles / 10 (capped), turns /
turn limit, the seat to move (n one-hot, relative) and whose marbles it moves (n
one-hot, relative; all 0 when it may only discard).

Actions: one block per card code (53, text order), sized by what the rank can do —
discard first, then:

- A, J, Q, K: ``out`` (start area → start field), then ``single`` (10);
- 2–6, 8, 9, T: ``single`` (10);
- 7: ``single`` (10), then ``split`` (480): the first half moves marble slot ``a`` by
  ``k`` (1 … 6) fields, the second half marble slot ``b`` ≠ ``a`` by 7 − ``k``: index
  ``((a·4 + b')·6 + (k − 1))·4 + 2·home₁ + home₂`` with ``b'`` the rank of ``b`` among
  the other four slots;
- joker: ``jump`` (6 × 18n): from the start area (0) or marble slot 1 … 5, onto a track
  field (rotated to the observer).

``single`` is ``slot·2 + home``: marble slot 0 … 4, ``home`` 1 when it lands in its home
(with flag ``optional_home_entry`` a marble passing its entry may do either).  Marble
slots number the moved colour's marbles on fields by progress from that colour's start
field (home fields after the track), least advanced first — as the observation shows
them.  The engine lists one order of a split 7 reaching the same board both ways; only
that one is in the mask.
"""

from __future__ import annotations

import re

import numpy as np

from spillebord.core.protocol import JSON, Action, State
from spillebord.games.kugler.board import FIELDS_PER_SEAT, HOME_SIZE, START, geometry
from spillebord.games.kugler.kernel import CODES
from spillebord.games.kugler.moves import Move
from spillebord.games.kugler.state import KuglerState
from spillebord.research.codec import Codec, EncodingError, one_hot

CODE: dict[str, int] = {c: i for i, c in enumerate(CODES)}
NC = len(CODES)
DECK_SIZE = 134
SINGLE = 10
SPLIT = 5 * 4 * 6 * 4
_PLACE = re.compile(r"^(?:s(\d+)|t(\d+)|h(\d+)\.(\d+))$")


def _kind(code: str) -> str:
    if code == "JK":
        return "jump"
    return {"A": "out", "J": "out", "Q": "out", "K": "out", "7": "seven"}.get(code[0], "step")


class KuglerCodec(Codec):
    def __init__(self, seats: int) -> None:
        n = self.seats = seats
        self.geo = geometry(seats)
        self.track = FIELDS_PER_SEAT * n
        sizes = {"out": 2 + SINGLE, "step": 1 + SINGLE, "seven": 1 + SINGLE + SPLIT,
                 "jump": 1 + 6 * self.track}
        self.offset: dict[str, int] = {}
        at = 0
        for code in CODES:
            self.offset[code] = at
            at += sizes[_kind(code)]
        self.n_actions = at
        self.block = self.track + HOME_SIZE + 3  # track, home, 3 counts
        self._globals = n * self.block
        self.size = self._globals + 2 * NC + 5 + 2 * n
        # full state: seat 0's observation, every seat's hand (counts / 5), the draw
        # pile (counts / 6) and its next card (one-hot)
        self.state_size = self.size + n * NC + 2 * NC

    def full_state(self, state: State) -> np.ndarray:
        assert isinstance(state, KuglerState)
        out = np.zeros(self.state_size, dtype=np.float32)
        out[:self.size] = self.observe(state.view(0))
        at = self.size
        for s, hand in enumerate(state.hands):
            for code in hand:
                out[at + s * NC + CODE[code]] += 1.0 / HOME_SIZE
        at += self.seats * NC
        for code in state.draw:
            out[at + CODE[code]] += 1.0 / 6
        at += NC
        if state.draw:
            out[at + CODE[state.draw[0]]] = 1.0
        return out

    # -- observation -----------------------------------------------------------------

    def observe(self, view: JSON) -> np.ndarray:
        n, track = self.seats, self.track
        me = view["seat"]
        shift = FIELDS_PER_SEAT * me
        out = np.zeros(self.size, dtype=np.float32)
        for r in range(n):
            s = (me + r) % n
            at = r * self.block
            in_start = 0
            for name in view["marbles"][str(s)]:
                kind, value = name[0], name[1:]
                if kind == "s":
                    in_start += 1
                elif kind == "t":
                    out[at + (int(value) - shift) % track] = 1.0
                else:
                    out[at + track + int(value.split(".")[1]) - 1] = 1.0
            out[at + track + HOME_SIZE] = in_start / HOME_SIZE
            out[at + track + HOME_SIZE + 1] = view["home"][str(s)] / HOME_SIZE
            out[at + track + HOME_SIZE + 2] = view["hand_sizes"][str(s)] / HOME_SIZE
        at = self._globals
        for code in view.get("hand", ()):
            out[at + CODE[code]] += 1.0 / 3
        at += NC
        one_hot(out, at, CODE, view["discard_top"])
        at += NC
        out[at] = view["discard_size"] / DECK_SIZE
        out[at + 1] = view["draw_size"] / DECK_SIZE
        out[at + 2] = min(view["reshuffles"], 10) / 10
        out[at + 3] = view["turns"] / view["turn_limit"]
        at += 5
        if view["to_move"] is not None:
            out[at + (view["to_move"] - me) % n] = 1.0
        if view["moves_marbles_of"] is not None:
            out[at + n + (view["moves_marbles_of"] - me) % n] = 1.0
        return out

    # -- actions ---------------------------------------------------------------------

    def slots(self, view: JSON) -> dict[int, int]:
        """Field → marble slot of the colour the seat to move moves (progress order)."""
        colour = view["moves_marbles_of"]
        if colour is None:
            return {}
        geo, track = self.geo, self.track
        fields: list[tuple[int, int]] = []
        for name in view["marbles"][str(colour)]:
            m = _PLACE.match(name)
            assert m is not None
            _, t, hp, hk = m.groups()
            if t is not None:
                f = int(t)
                fields.append(((f - geo.start[colour]) % track, f))
            elif hp is not None:
                f = geo.home_base[int(hp)] + int(hk) - 1
                fields.append((track + int(hk), f))
        return {f: i for i, (_, f) in enumerate(sorted(fields))}

    def index(self, view: JSON, action: Action) -> int:
        if not isinstance(action, Move):
            raise EncodingError(f"kugler actions are Moves, not {action!r}")
        return self._index(view, action, self.slots(view))

    def actions(self, view: JSON, legal: list[Action]) -> dict[int, Action]:  # type: ignore[override]
        slots = self.slots(view)
        out: dict[int, Action] = {}
        for move in legal:
            assert isinstance(move, Move)
            i = self._index(view, move, slots)
            if i in out:
                raise EncodingError(f"{move} and {out[i]} share action index {i}")
            out[i] = move
        return out

    def _index(self, view: JSON, move: Move, slots: dict[int, int]) -> int:
        base = self.offset[move.card]
        if move.is_discard:
            return base
        kind = _kind(move.card)
        track = self.track
        steps = move.steps
        try:
            if kind == "jump":
                (src, dst), = steps
                slot = 0 if src == START else slots[src] + 1
                rel = (dst - FIELDS_PER_SEAT * int(view["seat"])) % track
                return base + 1 + slot * track + rel
            if kind == "out" and steps[0][0] == START:
                return base + 1
            first = base + (2 if kind == "out" else 1)
            if len(steps) == 1:
                (src, dst), = steps
                return first + slots[src] * 2 + int(dst >= track)
            if kind == "seven":
                (a_src, a_dst), (b_src, b_dst) = steps
                a, b = slots[a_src], slots[b_src]
                k = self._distance(a_src, a_dst, view)
                b_rank = b if b < a else b - 1
                split = ((a * 4 + b_rank) * 6 + (k - 1)) * 4 \
                    + 2 * int(a_dst >= track) + int(b_dst >= track)
                return first + SINGLE + split
        except (KeyError, ValueError) as exc:
            raise EncodingError(f"kugler has no action index for {move}: {exc}") from exc
        raise EncodingError(f"kugler has no action index for {move}")

    def _distance(self, src: int, dst: int, view: JSON) -> int:
        """Forward fields from ``src`` to ``dst`` for the colour moved (track, home entry,
        home)."""
        geo, track = self.geo, self.track
        colour = view["moves_marbles_of"]
        if dst < track:
            return (dst - src) % track
        k = dst - geo.home_base[colour] + 1  # home field 1 … 5
        if src >= track:
            return dst - src
        return (geo.entry[colour] - src) % track + k
