"""Kugler og Jokere's legal moves counted without listing them (Numba, ``cache=True``):
``random_legal`` draws one of kernel.legal's keys, every one equally likely and from the
same random numbers, for the research vector engine's random playouts
(research/kugler_kernel.py; docs/research.md, "Vector engine").

The rules are kernel.py's; this counts them in another form.  A colour's marbles lie on
one line, its route: a track field's route position is its distance past the field after
the colour's home entry (0 … track − 1, the entry last), home field k is track + k − 1.
Without the optional home entry a forward move stays on that line: a marble at q moving k
lands on q + k when no own marble stands in (q, q + k], q + k ≤ track + 4 (ruling 5:
forced and exact; in home never jumping) and the landing is allowed (ruling 6: a partner
on its home entry needs its first home field free) — kernel.forward's walk as one
comparison with the next own marble ahead.  Split 7s (ruling 3) whose steps land on no
partner marble move the two marbles and remove the opponents they hit, nothing else: one
board is reached by at most the two orders of one pair, and moving the front marble first
is legal whenever the other order is (the rear one cannot pass it), so the distinct boards
are the legal front-first splits.  The splits that push a partner (kernel._splits with
``pushes``: no other split reaches their boards) and every count under the optional home
entry (the route becomes a loop: kernel._collect) are left to kernel.py's listing.  Only
the drawn card's moves are listed, from the same masks, in kernel.py's keys.
tests/games/kugler/test_kugler_counting.py checks the counts and the listings against
kernel.py's, rank by rank and position by position; tests/research/test_kugler_batch.py
checks the draws against ``legal`` + ``randint``.

Numba increfs and decrefs every array argument of a call (an atomic each, inlined or
not): the hot functions take few arrays, and the small ones are inlined.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.games.kugler.board import HOME_SIZE, MARBLES
from spillebord.games.kugler.kernel import (
    CAP,
    CODE_RANK,
    CODE_SHIFT,
    G_ENTRY,
    G_HOME,
    G_PARTNER,
    G_START,
    G_TRACK,
    GEO,
    GEO_WIDTH,
    NRANKS,
    R_7,
    R_8,
    R_A,
    R_J,
    R_JK,
    R_K,
    R_Q,
    SPLIT_CAP,
    STEP,
    WORK,
    _collect,
    _pk,
    _pk_start,
    _select,
    _sort_key,
    _splits,
    backward8,
    eight_moves,
    hand_ranks,
    joker_moves,
    landing_ok,
)

# the route scratch (``draw_scratch``'s ``rt``): route positions, forward masks and
# partner masks of the own marbles in route order (their fields are in ``mine``), each
# rank's count, the field a marble may enter from the start area (−1: none), 1 when a
# split 7 may push a partner
R_POS, R_OK, R_PM, R_CNT = 0, MARBLES + 1, 2 * (MARBLES + 1), 3 * (MARBLES + 1)
R_START, R_PUSH7 = R_CNT + NRANKS, R_CNT + NRANKS + 1
ROUTE_WIDTH = R_PUSH7 + 1
MAX_STEP = 10  # the longest forward move (T, J, Q, K)
# −1 read from an array: an int64, where a literal −1 would compile a copy of the callee
NO_FIELD = np.array([-1], dtype=np.int64)


@njit(cache=True)
def draw_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                            np.ndarray, np.ndarray, np.ndarray]:
    """The reusable scratch of ``random_legal``: (opts, roff, alias, work, w, mine, sk,
    rt); ``mine`` has room for one more than ``MARBLES``."""
    return (np.empty(CAP, np.int64), np.zeros(NRANKS + 1, np.int64),
            np.empty((SPLIT_CAP, 2), np.int64), np.zeros(WORK, np.int64),
            np.empty(GEO_WIDTH, np.int8), np.empty(MARBLES + 1, np.int64),
            np.empty(CAP, np.int64), np.zeros(ROUTE_WIDTH, np.int64))


DEBRUIJN = 0x03F79D71B4CB0A89  # a bit's index from the lowest set bit alone
BIT_INDEX = np.zeros(64, dtype=np.int64)
BIT_INDEX[[((1 << i) * DEBRUIJN & (1 << 64) - 1) >> 58 for i in range(64)]] = range(64)


@njit(cache=True, inline="always")
def bit_index(low: int) -> int:
    """The index of ``low``'s one set bit."""
    i: int = BIT_INDEX[(low * DEBRUIJN) >> 58 & 63]
    return i


@njit(cache=True, inline="always")
def _own_bits(b: np.ndarray, lo: int, track: int, c: int) -> int:
    """Bit f − lo set when colour ``c`` has a marble on track field f (lo ≤ f < lo + 64):
    64 fields read from a view, a loop the compiler vectorises (the last word's fields
    read from track − 64 and shifted)."""
    start = min(lo, track - 64)
    view = b[start:start + 64]
    w = 0
    for k in range(64):
        w |= (view[k] == c) << k
    s = lo - start
    if s:
        w = (w >> s) & ((1 << (64 - s)) - 1)
    return w


@njit(cache=True, inline="always")
def _scan(b: np.ndarray, g: np.ndarray, c: int, mine: np.ndarray,
          rt: np.ndarray) -> tuple[int, int]:
    """Colour ``c``'s marbles on the board, in route order: their fields into ``mine``
    and route positions into ``rt``; (their number, how many stand on the track)."""
    track = g[G_TRACK]
    e1 = g[G_ENTRY + c] + 1  # route position 0
    m = 0
    first = 0  # how many lie before e1 (their route positions wrap)
    for lo in range(0, track, 64):
        bits = _own_bits(b, lo, track, c)
        while bits:
            low = bits & -bits
            f = lo + bit_index(low)
            mine[m] = f
            first += f < e1
            m += 1
            bits ^= low
    # rotate to route order, the fields from e1 on first (R_OK's room as scratch)
    for i in range(m):
        rt[R_OK + i] = mine[i]
    for i in range(m):
        t = i + first
        f = rt[R_OK + (t - m if t >= m else t)]
        mine[i] = f
        rt[R_POS + i] = f - e1 + (track if f < e1 else 0)
    on_track = m
    hb = g[G_HOME + c]
    for k in range(HOME_SIZE):
        if b[hb + k] >= 0:  # only the colour's own marbles enter its home
            mine[m] = hb + k
            rt[R_POS + m] = track + k
            m += 1
    return m, on_track


@njit(cache=True)
def _on_track(b: np.ndarray, g: np.ndarray) -> int:
    """The marbles on the track, every colour's."""
    n = 0
    for f in range(g[G_TRACK]):
        n += b[f] >= 0
    return n


@njit(cache=True, inline="always")
def _partner_blocked(b: np.ndarray, g: np.ndarray, c: int) -> int:
    """The partner's home entry when a partner marble stands on it with the first home
    field taken (no marble may land there, ruling 6), else −1."""
    p = g[G_PARTNER + c]
    e = g[G_ENTRY + p]
    if b[e] == p and b[g[G_HOME + p]] >= 0:
        return int(e)
    return -1


@njit(cache=True, inline="always")
def _forward_masks(g: np.ndarray, c: int, m: int, blocked: int, rt: np.ndarray) -> None:
    """For each own marble (route order), bit k (1 … 10) set when it may move k forward
    (without the optional home entry)."""
    track = g[G_TRACK]
    qb = -1
    if blocked >= 0:
        qb = blocked - g[G_ENTRY + c] - 1
        if qb < 0:
            qb += track
    for i in range(m):
        q = rt[R_POS + i]
        nxt = rt[R_POS + i + 1] if i + 1 < m else track + HOME_SIZE
        lim = min(nxt - q - 1, MAX_STEP)
        ok = (2 << lim) - 2
        k0 = qb - q
        if qb >= 0 and 1 <= k0 <= MAX_STEP:
            ok &= ~(1 << k0)
        rt[R_OK + i] = ok


@njit(cache=True, inline="always")
def _partner_masks(b: np.ndarray, g: np.ndarray, c: int, m: int, rt: np.ndarray) -> bool:
    """For each own marble, bit k (1 … 6) set when a partner marble stands k route fields
    ahead on the track (a split 7's step landing there pushes it); True if any is."""
    track = g[G_TRACK]
    p = g[G_PARTNER + c]
    e1 = g[G_ENTRY + c] + 1
    anywhere = 0
    for i in range(m):
        q = rt[R_POS + i]
        pm = 0
        for k in range(1, 7):
            if q + k >= track:
                break
            f = q + k + e1
            if f >= track:
                f -= track
            pm |= (b[f] == p) << k
        rt[R_PM + i] = pm
        anywhere |= pm
    return anywhere != 0


@njit(cache=True, inline="always")
def _splits_front_first(m: int, rt: np.ndarray) -> int:
    """The distinct boards of split 7s that push no partner: the legal splits moving the
    front marble first and landing on no partner marble."""
    n = 0
    for i in range(1, m):
        oki = rt[R_OK + i] & ~rt[R_PM + i]
        q1base = rt[R_POS + i]
        rear = rt[R_POS + i - 1]
        rear_pm = rt[R_PM + i - 1]
        for a in range(1, 7):
            if not oki >> a & 1:
                continue
            k = 7 - a
            for j in range(i - 1):  # the next own marble ahead of j did not move
                n += (rt[R_OK + j] & ~rt[R_PM + j]) >> k & 1
            # the marble just behind: up to the moved one, its old field free
            n += (rear + k < q1base + a) & (not rear_pm >> k & 1)
    return n


@njit(cache=True, inline="always")
def _field(g: np.ndarray, c: int, q: int) -> int:
    """The field at colour ``c``'s route position ``q``."""
    track = g[G_TRACK]
    if q >= track:
        return int(g[G_HOME + c] + q - track)
    f = q + g[G_ENTRY + c] + 1
    return int(f - track if f >= track else f)


@njit(cache=True, inline="always")
def _list_forward(g: np.ndarray, c: int, k: int, m: int, mine: np.ndarray,
                  rt: np.ndarray, opts: np.ndarray, start: int) -> int:
    """The moves ``k`` forward (and from the start area onto ``start`` unless −1) into
    ``opts``; their number."""
    at = 0
    if start >= 0:
        opts[0] = _pk_start(c, start)
        at = 1
    for i in range(m):
        if rt[R_OK + i] >> k & 1:
            opts[at] = _pk(mine[i], _field(g, c, rt[R_POS + i] + k), -1, -1)
            at += 1
    return at


@njit(cache=True)
def _list_sevens(b: np.ndarray, g: np.ndarray, c: int, m: int, mine: np.ndarray,
                 rt: np.ndarray, opts: np.ndarray, alias: np.ndarray, work: np.ndarray,
                 w: np.ndarray) -> int:
    """The 7s as kernel.py lists them (unsorted): the whole moves, one split per board
    under the text that sorts first (the rear-first order of a pair that pushes no
    partner reaches the front-first one's board when it is legal), then the splits that
    push a partner, from kernel._splits."""
    at = _list_forward(g, c, STEP[R_7], m, mine, rt, opts, NO_FIELD[0])
    for i in range(1, m):
        oki = rt[R_OK + i] & ~rt[R_PM + i]
        qi = rt[R_POS + i]
        for a in range(1, 7):
            if not oki >> a & 1:
                continue
            k = 7 - a
            d1 = _field(g, c, qi + a)
            for j in range(i):
                qj = rt[R_POS + j]
                if rt[R_PM + j] >> k & 1:
                    continue
                rear_first = rt[R_OK + j] >> k & 1
                if not (rear_first or (j == i - 1 and qj + k < qi + a)):
                    continue
                d2 = _field(g, c, qj + k)
                key = _pk(mine[i], d1, mine[j], d2)
                if rear_first:
                    other = _pk(mine[j], d2, mine[i], d1)
                    if _sort_key(g, c, other) < _sort_key(g, c, key):
                        key = other
                opts[at] = key
                at += 1
    if rt[R_PUSH7]:
        at = _pushing_splits(b, g, c, mine, m, opts, at, alias, work, w, rt[R_PUSH7])
    return at


@njit(cache=True, inline="always")
def _list_8_joker(b: np.ndarray, g: np.ndarray, c: int, r: int, m: int, mine: np.ndarray,
                  opts: np.ndarray) -> int:
    """The 8's or the joker's moves as kernel._rank_options lists them (unsorted; the
    joker's only when it has any); their number."""
    if r == R_8:
        return eight_moves(b, g, c, m, mine, opts, 0)
    return joker_moves(b, g, c, m, mine, opts, 0)


@njit(cache=True)
def _pushing_splits(b: np.ndarray, g: np.ndarray, c: int, mine: np.ndarray, m: int,
                    opts: np.ndarray, at: int, alias: np.ndarray, work: np.ndarray,
                    w: np.ndarray, one: int) -> int:
    """kernel._splits's splits that push a partner, listed into ``opts`` from ``at``; the
    end.  ``one`` is 1: Numba compiles a callee once per argument types and a literal
    argument (``False``, ``0``) is a type of its own, so the flags are made from it at
    run time, and this call shares kernel._rank_options's compiled ``_splits``."""
    end: int = _splits(b, g, c, mine, m, one != 1, opts, at, alias, one - 1, work, w,
                       one == 1)[0]
    return end


@njit(cache=True, inline="always")
def count_moves(b: np.ndarray, g: np.ndarray, c: int, ranks: int, mine: np.ndarray,
                rt: np.ndarray) -> int:
    """The number of kernel._rank_options's moves of each rank in ``ranks`` for colour
    ``c`` (without the optional home entry) into ``rt[R_CNT + rank]``, but for the
    split 7s that may push a partner: ``rt[R_PUSH7]`` is 1 when there may be some
    (``_pushing_splits`` counts them).  The own marbles' fields stay in ``mine``, their
    number is the result.  (Few array arguments: Numba increfs and decrefs each on
    every call, inlined or not.)"""
    m, on_track = _scan(b, g, c, mine, rt)
    blocked = _partner_blocked(b, g, c)
    _forward_masks(g, c, m, blocked, rt)
    start = 0
    rt[R_START] = -1
    rt[R_PUSH7] = 0
    if m < MARBLES and landing_ok(b, g, c, g[G_START + c]):
        start = 1
        rt[R_START] = g[G_START + c]
    for r in range(NRANKS):
        if not ranks >> r & 1:
            rt[R_CNT + r] = 0
            continue
        n = 0
        if r == R_8:
            for i in range(on_track):
                n += backward8(b, g, c, mine[i]) >= 0
        elif r == R_JK:
            movers = on_track + (m < MARBLES)
            if movers:
                n = (_on_track(b, g) - on_track - (blocked >= 0)) * movers
        else:
            k = STEP[r]
            for i in range(m):
                n += rt[R_OK + i] >> k & 1
            if r in (R_A, R_J, R_Q, R_K):
                n += start
            if r == R_7 and m >= 2:
                rt[R_PUSH7] = _partner_masks(b, g, c, m, rt)
                n += _splits_front_first(m, rt)
        rt[R_CNT + r] = n
    return m


@njit(cache=True, inline="always")
def random_legal(b: np.ndarray, seats: int, c: int, hand: int, optional: bool,
                 strict: bool, opts: np.ndarray, roff: np.ndarray, alias: np.ndarray,
                 work: np.ndarray, w: np.ndarray, mine: np.ndarray, sk: np.ndarray,
                 rt: np.ndarray) -> int:
    """One of kernel.legal's keys, every one equally likely, drawn from Numba's
    generator exactly as ``legal`` then ``np.random.randint(k)`` would (no draw when
    ``k`` is 1): the moves are counted per rank, and only the drawn card's are listed to
    find the drawn one in text order (a quickselect on their sort keys).  Scratch:
    ``draw_scratch()``.  Inlined into its compiled callers (the playout loop measured
    faster so); callable from Python too."""
    g = GEO[seats]
    ranks = hand_ranks(hand)
    m = 0
    if c < 0:
        rt[R_CNT:R_CNT + NRANKS] = 0
    elif optional:  # the home entry makes the route a loop: the listing counts
        _collect(b, g, c, ranks, optional, opts, roff, alias, work, w, mine)
        for r in range(NRANKS):
            rt[R_CNT + r] = roff[r + 1] - roff[r]
    else:
        m = count_moves(b, g, c, ranks, mine, rt)
        if rt[R_PUSH7]:
            rt[R_CNT + R_7] = _pushing_splits(b, g, c, mine, m, opts, rt[R_CNT + R_7],
                                              alias, work, w, rt[R_PUSH7])
    usable = 0
    unusable = 0
    h = hand
    while h:
        cnt = rt[R_CNT + CODE_RANK[h & 63]]
        if cnt:
            usable += cnt
        else:
            unusable += 1
        h >>= 6
    k = usable + (unusable if unusable and (not strict or usable == 0) else 0)
    j = 0 if k == 1 else np.random.randint(k)
    h = hand
    while h:
        code = h & 63
        r = CODE_RANK[code]
        cnt = rt[R_CNT + r]
        if j < cnt:
            lo, hi = 0, cnt
            if optional:
                lo, hi = roff[r], roff[r + 1]
            elif r == R_7:
                hi = _list_sevens(b, g, c, m, mine, rt, opts, alias, work, w)
            elif r != R_8 and r != R_JK and r != R_7:
                start = rt[R_START] if r in (R_A, R_J, R_Q, R_K) else -1
                _list_forward(g, c, STEP[r], m, mine, rt, opts, start)
            else:
                _list_8_joker(b, g, c, r, m, mine, opts)
            one: int = opts[lo] if cnt == 1 else _select(g, c, opts, lo, hi, j, sk)
            return code << CODE_SHIFT | one
        j -= cnt
        h >>= 6
    h = hand
    while h:  # the discards of unusable cards
        code = h & 63
        if rt[R_CNT + CODE_RANK[code]] == 0:
            if j == 0:
                return code << CODE_SHIFT
            j -= 1
        h >>= 6
    return -1
