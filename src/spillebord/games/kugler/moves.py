"""Legal moves of Kugler og Jokere as ``Move`` objects, from the rules kernel.

kernel.py computes every card's marble moves (rulings 3–6); this module turns them
into the engine's sorted action list and applies ruling 7 (discarding an unusable card;
flag ``strict_discard``).  A ``Move`` is identified by its text (``5H t12-t17``) and
keeps its steps.  A split 7 reaching one board by both orders is listed once, under the
text that sorts first; the other order is an alias that parses to it.

Moves are interned per seat count (one object per card and steps), so building a list
costs a dictionary lookup a move; the texts are made once.
"""

from __future__ import annotations

import threading

import numpy as np

from spillebord.games.kugler import kernel
from spillebord.games.kugler.board import HOME_SIZE, START, Geometry

Board = tuple[int, ...]
Step = tuple[int, int]

INDEX_OF_CODE = {c: i + 1 for i, c in enumerate(kernel.CODES)}
PACK_SHIFT = {i: 6 * i for i in range(5)}
MASK = (1 << kernel.CODE_SHIFT) - 1
CACHE_LIMIT = 400_000


class Move:
    """One action: play ``card`` with ``steps`` ((from, to) pairs; START = start area),
    or discard it (no steps).  Equal when the texts are equal; ordered by text.
    ``key``: the kernel's packed steps (kernel.pack; 0 for a discard, −1 unknown)."""

    __slots__ = ("card", "key", "steps", "text")

    def __init__(self, text: str, card: str, steps: tuple[Step, ...], key: int = -1) -> None:
        self.text = text
        self.card = card
        self.steps = steps
        self.key = 0 if not steps else key

    @property
    def is_discard(self) -> bool:
        return not self.steps

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __lt__(self, other: Move) -> bool:
        return self.text < other.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


class Interned(dict[int, Move]):
    """The ``Move`` objects of one seat count by their kernel key, made on first use."""

    def __init__(self, geo: Geometry) -> None:
        super().__init__()
        self.geo = geo

    def __missing__(self, key: int) -> Move:
        code = kernel.CODES[(key >> kernel.CODE_SHIFT) - 1]
        packed = key & MASK
        if not packed:
            move = Move(f"discard {code}", code, (), 0)
        else:
            steps = kernel.unpack(packed)
            names = self.geo.names
            parts = [f"{f's{(packed >> 32) - 1}' if s == START else names[s]}-{names[d]}"
                     for s, d in steps]
            move = Move(f"{code} {' '.join(parts)}", code, steps, packed)
        if len(self) > CACHE_LIMIT:
            self.clear()
        self[key] = move
        return move


_INTERNED: dict[int, Interned] = {}
_LOCAL = threading.local()  # each thread's output buffer for the kernel


def interned(geo: Geometry) -> Interned:
    it = _INTERNED.get(geo.seats)
    if it is None:
        it = _INTERNED[geo.seats] = Interned(geo)
    return it


_PACKED: dict[tuple[str, ...], int] = {}


def pack_hand(hand: tuple[str, ...]) -> int:
    """The kernel's form of a (sorted) hand: its distinct codes, 6 bits each."""
    packed = _PACKED.get(hand)
    if packed is not None:
        return packed
    if len(_PACKED) > CACHE_LIMIT:
        _PACKED.clear()
    packed = _PACKED[hand] = _pack_hand(hand)
    return packed


def _pack_hand(hand: tuple[str, ...]) -> int:
    packed = 0
    shift = 0
    index = INDEX_OF_CODE
    last = ""
    for code in hand:
        if code != last:
            packed |= index[code] << shift
            shift += 6
            last = code
    return packed


def legal_moves(board: np.ndarray, geo: Geometry, colour: int | None,
                hand: tuple[str, ...], optional: bool,
                strict: bool) -> tuple[list[Move], list[int]]:
    """The sorted legal moves and discards, and the kernel's split aliases (flat
    (alias, listed) packed pairs, for ``aliases``).  ``colour`` None: the seat may only
    discard (finished, not helping)."""
    it = _INTERNED.get(geo.seats) or interned(geo)
    try:
        buf = _LOCAL.buf
    except AttributeError:
        buf = _LOCAL.buf = np.empty(kernel.OUT_CAP, dtype=np.int64)
    at = kernel.legal(board, geo.seats, -1 if colour is None else colour, pack_hand(hand),
                      optional, strict, buf)
    res = buf[:at].tolist()
    n = res[0]
    return list(map(it.__getitem__, res[1 : n + 1])), res[n + 1 :]


def aliases(geo: Geometry, colour: int | None, hand: tuple[str, ...],
            pairs: list[int]) -> dict[str, str]:
    """Other-order split texts → the listed text, for every 7 in ``hand``."""
    if colour is None or not pairs:
        return {}
    it = interned(geo)
    target = dict(zip(pairs[::2], pairs[1::2], strict=True))
    out: dict[str, str] = {}
    for code in dict.fromkeys(hand):
        if code[0] != "7":
            continue
        base = INDEX_OF_CODE[code] << kernel.CODE_SHIFT
        for old, new in target.items():
            while new in target:
                new = target[new]
            out[it[base + old].text] = it[base + new].text
    return out


def fields_of(board: Board | list[int], seat: int) -> list[int]:
    """The fields (track and home) holding ``seat``'s marbles, ascending."""
    out: list[int] = []
    i = -1
    index = board.index
    try:
        while True:
            i = index(seat, i + 1)
            out.append(i)
    except ValueError:
        return out


def is_finished(board: Board, geo: Geometry, seat: int) -> bool:
    hb = geo.home_base[seat]
    return board[hb : hb + HOME_SIZE] == (seat,) * HOME_SIZE


def apply_steps(board: Board, geo: Geometry, c: int, steps: tuple[Step, ...]) -> Board:
    """The board after colour ``c`` plays ``steps`` (a legal move's)."""
    arr = np.array(board, dtype=np.int8)
    return tuple(kernel.apply_packed(arr, geo.seats, c, kernel.pack(steps, c)).tolist())
