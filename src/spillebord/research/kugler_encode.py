"""Kugler og Jokere's observation and action encoding compiled (Numba, ``cache=True``),
for the PettingZoo env's hot loop (research/kugler_env.py; docs/research.md, "Speed").

The definition stays ``KuglerCodec`` (research/kugler.py), which reads a seat's view;
these kernels compute the same arrays from the turn loop's arrays
(research/kugler_kernel.py's layout, game ``0``: ``board[0]``, ``hands[0, s, code]``,
``disc[0, :info[XLEN]]``, ``info[0]``; ``observe_into`` any game ``gm`` of a batch, for
``KuglerBatch``) and read only what the observing seat may see —
the board, hand sizes, the own hand, the discard pile's top and size, the draw pile's
size, counters and the turn; never another hand or the draw pile's cards.
tests/research/test_kugler_env.py checks both equal to the codec's on the engine's
states along many random games (4/6/8 seats, every flag).

``play`` steps the turn loop and turns the rules kernel's legal keys into the codec's
action indices
(the marble slots: the moved colour's marbles on fields by progress from its start
field, home after the track, least advanced first).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.games.kugler.board import FIELDS_PER_SEAT, HOME_SIZE, MARBLES
from spillebord.games.kugler.kernel import CODES, G_ENTRY, G_HOME, G_START, GEO, OUT_CAP
from spillebord.research.kugler import SINGLE, KuglerCodec, _kind
from spillebord.research.kugler_kernel import (
    DLEN,
    DONE,
    LIMIT,
    NCARDS,
    NCODES,
    NINFO,
    RESH,
    STEPS_MASK,
    TURN,
    TURNS,
    XLEN,
    colour,
    legal,
    step,
)

NC = len(CODES)
DECK_SIZE = 134.0
K_STEP, K_OUT, K_SEVEN, K_JUMP = 0, 1, 2, 3
KIND = np.array([0] + [{"step": K_STEP, "out": K_OUT, "seven": K_SEVEN,
                        "jump": K_JUMP}[_kind(c)] for c in CODES], dtype=np.int64)


def offsets(codec: KuglerCodec) -> np.ndarray:
    """Each code's first action index, by code index + 1 (the kernel's numbering)."""
    return np.array([0] + [codec.offset[c] for c in CODES], dtype=np.int64)


@njit(cache=True)
def observe(n: int, me: int, board: np.ndarray, hands: np.ndarray, disc: np.ndarray,
            info: np.ndarray, size: int) -> np.ndarray:
    """Seat ``me``'s observation of game 0 (``KuglerCodec.observe`` of its view)."""
    out = np.empty(size, dtype=np.float32)
    observe_into(n, 0, me, board, hands, disc, info, out)
    return out


@njit(cache=True)
def observe_into(n: int, gm: int, me: int, board: np.ndarray, hands: np.ndarray,
                 disc: np.ndarray, info: np.ndarray, out: np.ndarray) -> None:
    """Seat ``me``'s observation of game ``gm`` written into ``out`` (the one encoder:
    ``observe`` and the batch's, research/kugler_batch_encode.py, call it)."""
    g = GEO[n]
    track = FIELDS_PER_SEAT * n
    block = track + HOME_SIZE + 3
    out[:] = 0.0
    shift = FIELDS_PER_SEAT * me
    b = board[gm]
    on_track = np.zeros(n, dtype=np.int64)
    for f in range(track):  # one pass, each marble into its seat's block (no `%`)
        o = b[f]
        if o >= 0:
            r = o - me if o >= me else o - me + n
            p = f - shift if f >= shift else f - shift + track
            out[r * block + p] = 1.0
            on_track[o] += 1
    for r in range(n):
        s = me + r if me + r < n else me + r - n
        at = r * block
        on = on_track[s]
        hb = g[G_HOME + s]
        home = 0
        for k in range(HOME_SIZE):
            o = b[hb + k]
            if o >= 0:
                home += 1
            if o == s:
                out[at + track + k] = 1.0
                on += 1
        held = 0
        for c in range(1, NCODES):
            held += hands[gm, s, c]
        out[at + track + HOME_SIZE] = (MARBLES - on) / HOME_SIZE
        out[at + track + HOME_SIZE + 1] = home / HOME_SIZE
        out[at + track + HOME_SIZE + 2] = held / HOME_SIZE
    at = n * block
    for c in range(1, NCODES):
        k = hands[gm, me, c]
        if k:
            out[at + c - 1] = k / 3.0
    at += NC
    x = info[gm, XLEN]
    if x > 0:
        out[at + disc[gm, x - 1] - 1] = 1.0
    at += NC
    out[at] = x / DECK_SIZE
    out[at + 1] = info[gm, DLEN] / DECK_SIZE
    out[at + 2] = min(info[gm, RESH], 10) / 10.0
    out[at + 3] = info[gm, TURNS] / info[gm, LIMIT]
    at += 5
    if not info[gm, DONE]:
        turn = info[gm, TURN]
        out[at + (turn - me) % n] = 1.0
        c = colour(info, gm, n)
        if c >= 0:
            out[at + n + (c - me) % n] = 1.0


@njit(cache=True)
def _slots(b: np.ndarray, g: np.ndarray, c: int, track: int, slot: np.ndarray) -> None:
    """``slot[f]``: the marble slot of colour ``c``'s marble on field ``f``."""
    fields = np.empty(MARBLES, dtype=np.int64)
    prog = np.empty(MARBLES, dtype=np.int64)
    m = 0
    start = g[G_START + c]
    for f in range(g[2]):
        if b[f] == c:
            fields[m] = f
            prog[m] = (f - start) % track if f < track else track + f - g[G_HOME + c] + 1
            m += 1
    for i in range(m):
        rank = 0
        for j in range(m):
            if prog[j] < prog[i]:
                rank += 1
        slot[fields[i]] = rank


@njit(cache=True)
def _distance(g: np.ndarray, c: int, track: int, src: int, dst: int) -> int:
    """Forward fields from ``src`` to ``dst`` for colour ``c`` (track, entry, home)."""
    if dst < track:
        return (dst - src) % track
    home: int = g[G_HOME + c]
    entry: int = g[G_ENTRY + c]
    k = dst - home + 1
    if src >= track:
        return dst - src
    return (entry - src) % track + k


@njit(cache=True)
def index_of(g: np.ndarray, me: int, c: int, track: int, key: int, offset: np.ndarray,
             slot: np.ndarray) -> int:
    """The codec's action index of the legal key ``key`` of seat ``me`` moving colour
    ``c``'s marbles (``slot`` from ``_slots``)."""
    code = key >> 36
    base: int = offset[code]
    packed = key & STEPS_MASK
    if packed == 0:
        return base
    kind: int = KIND[code]
    s1, d1 = (packed >> 24 & 255) - 1, (packed >> 16 & 255) - 1
    s2, d2 = (packed >> 8 & 255) - 1, (packed & 255) - 1
    if kind == K_JUMP:
        sl: int = 0 if s1 < 0 else slot[s1] + 1
        return base + 1 + sl * track + (d1 - FIELDS_PER_SEAT * me) % track
    if kind == K_OUT and s1 < 0:
        return base + 1
    first = base + (2 if kind == K_OUT else 1)
    a: int = slot[s1]
    if d2 < 0:
        return first + a * 2 + (1 if d1 >= track else 0)
    bb: int = slot[s2]
    k = _distance(g, c, track, s1, d1)
    b_rank = bb if bb < a else bb - 1
    split = ((a * 4 + b_rank) * 6 + (k - 1)) * 4 + 2 * (1 if d1 >= track else 0) \
        + (1 if d2 >= track else 0)
    return first + SINGLE + split


@njit(cache=True)
def play(n: int, key: int, board: np.ndarray, hands: np.ndarray, draw: np.ndarray,
         disc: np.ndarray, info: np.ndarray, out: np.ndarray, offset: np.ndarray,
         key_at: np.ndarray, listed: np.ndarray, n_actions: int
         ) -> tuple[np.ndarray, int, int]:
    """Game 0 plays the legal key ``key`` (−1: none, only list) and lists its legal
    actions: a new mask (int8, ``n_actions``), their number and the seat to move (−1:
    over).  ``key_at[i]`` becomes the kernel key of action index ``i`` (the previous
    list's entries, kept in ``listed[1 : listed[0] + 1]``, are cleared first).  Nothing
    is played when the play would reshuffle (the draw pile is empty): the number is
    then −1, and the caller puts the engine's reshuffle into the draw pile first."""
    if key >= 0:
        if info[0, DLEN] == 0:
            return np.zeros(0, dtype=np.int8), -1, -1
        step(n, 0, key, board, hands, draw, disc, info)
    for j in range(1, listed[0] + 1):
        key_at[listed[j]] = 0
    mask = np.zeros(n_actions, dtype=np.int8)
    k = legal(n, 0, board, hands, info, out)
    listed[0] = k
    if k == 0:
        return mask, 0, -1
    g = GEO[n]
    track = FIELDS_PER_SEAT * n
    me = info[0, TURN]
    c = colour(info, 0, n)
    slot = np.zeros(g[2], dtype=np.int64)
    if c >= 0:
        _slots(board[0], g, c, track, slot)
    for j in range(1, k + 1):
        i = index_of(g, me, c, track, out[j], offset, slot)
        mask[i] = 1
        key_at[i] = out[j]
        listed[j] = i
    return mask, k, me


# -- one game in two buffers: fewer arguments a call (each costs on the way in) ------


def layout(n: int, n_actions: int) -> tuple[np.ndarray, np.ndarray]:
    """The two buffers of one game: ``cards`` (int8: board, hands, draw, discards) and
    ``words`` (int64: info, the kernel's output, the listed indices, index → key, the
    codes' first indices); ``views`` cuts them into the turn loop's arrays."""
    size = int(GEO[n][2])
    cards = np.zeros(size + n * NCODES + 2 * NCARDS, np.int8)
    words = np.zeros(NINFO + 2 * OUT_CAP + n_actions + NCODES, np.int64)
    return cards, words


@njit(cache=True)
def views(n: int, cards: np.ndarray, words: np.ndarray, n_actions: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                     np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """board (1, size), hands (1, n, 54), draw (1, 134), disc (1, 134), info (1, NINFO),
    out, listed, key_at, offset: views into the two buffers."""
    size = GEO[n][2]
    a = size + n * NCODES
    board = cards[:size].reshape((1, size))
    hands = cards[size:a].reshape((1, n, NCODES))
    draw = cards[a:a + NCARDS].reshape((1, NCARDS))
    disc = cards[a + NCARDS:a + 2 * NCARDS].reshape((1, NCARDS))
    info = words[:NINFO].reshape((1, NINFO))
    b = NINFO + OUT_CAP
    out = words[NINFO:b]
    listed = words[b:b + OUT_CAP]
    key_at = words[b + OUT_CAP:b + OUT_CAP + n_actions]
    offset = words[b + OUT_CAP + n_actions:b + OUT_CAP + n_actions + NCODES]
    return board, hands, draw, disc, info, out, listed, key_at, offset


@njit(cache=True)
def observe_packed(n: int, me: int, cards: np.ndarray, words: np.ndarray,
                   n_actions: int, size: int) -> np.ndarray:
    """``observe`` on the two buffers."""
    board, hands, _, disc, info, _, _, _, _ = views(n, cards, words, n_actions)
    return observe(n, me, board, hands, disc, info, size)


@njit(cache=True)
def play_packed(n: int, key: int, cards: np.ndarray, words: np.ndarray,
                n_actions: int, size: int) -> tuple[np.ndarray, int, int, np.ndarray]:
    """``play`` on the two buffers, and the observation of the seat to move then (the
    one an AEC loop asks for next; empty when the game is over or nothing was played)."""
    board, hands, draw, disc, info, out, listed, key_at, offset = views(
        n, cards, words, n_actions)
    mask, k, mover = play(n, key, board, hands, draw, disc, info, out, offset, key_at,
                          listed, n_actions)
    if mover < 0:
        return mask, k, mover, np.zeros(0, dtype=np.float32)
    return mask, k, mover, observe(n, mover, board, hands, disc, info, size)
