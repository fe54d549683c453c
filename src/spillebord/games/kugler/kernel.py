"""The rules kernel of Kugler og Jokere: the implementation of the move rules, compiled
with Numba (``cache=True``) and used by the engine (moves.py, state.py), the reasons for
refused actions (explain.py), the bots' playouts and evaluation (bots/kugler/) and the
research vector engine's random playouts (research/kugler_kernel.py), which draw through
counting.py: it counts these moves without listing them (the same rules read along each
colour's route, checked equal to this listing) and lists only the drawn card's.

Rulings covered (rule book kugler): 3 (what each card does: A and J/Q/K out or forward,
2–6/9/10 forward, 7 whole or split 1+6 … 6+1 between two different marbles applied one
after the other with no part from the start area, 8 backward on the track only, the
joker's jump), 4 (one marble a field; own marbles are never jumped nor landed on), 5
(forced, exact home entry; a marble landing on its home entry stays on the track; in
home only forward and never jumping; flag ``optional_home_entry``) and 6 (hitting
opponents; pushing the partner to its home entry or into home field 1).  Ruling 7 (which
cards may be discarded) and 8 (whose marbles a seat moves) are applied by the callers
from the kernel's per-rank answers and ``finished``.

Data (board.py's layout): a board is an ``int8`` array, one entry per field (track then
homes), holding the seat whose marble stands there or ``EMPTY`` (−1); ``START`` (−1) as a
source is the start area.  ``GEO[seats]`` is a row of geometry and name-order tables
(offsets ``G_*``), built from board.py once and frozen into the compiled code.

Ranks are small ints (``RANK_INDEX``: A=0, 2–6=1–5, 7=6, 8=7, 9=8, T=9, J=10, Q=11,
K=12, joker=13).  A move's steps are packed into one int (``pack``): four bytes, each
location + 1 (0 = the start area as a source, or no second step); a move from a start
area also carries its colour + 1 above the four bytes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.core.cards import kugler_deck
from spillebord.games.kugler.board import FIELDS_PER_SEAT, HOME_SIZE, MARBLES, geometry

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "JK")
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
R_A, R_7, R_8, R_J, R_Q, R_K, R_JK = 0, 6, 7, 10, 11, 12, 13
NRANKS = 14
# forward distance of each rank (0: not a forward card)
STEP = np.array([1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 10, 10, 10, 0], dtype=np.int64)

G_N, G_TRACK, G_SIZE = 0, 1, 2
G_START, G_ENTRY, G_HOME, G_PARTNER, G_SNAME, G_NAME = 8, 16, 24, 32, 40, 48
GEO_WIDTH = G_NAME + (FIELDS_PER_SEAT + HOME_SIZE) * 8
CAP = 1024  # room for the options of one hand (at most 5 ranks: 7 ≤ 490, joker ≤ 210)
OUT_CAP = 5 * CAP + 2 * 512 + 1  # room for a hand's legal actions and split aliases
CODES = tuple(sorted(set(kugler_deck())))  # card codes in text order
CODE_SHIFT = 36  # a legal action's key: (code index + 1) << CODE_SHIFT | packed steps
RANK_OF_CODE = {c: RANK_INDEX["JK" if c == "JK" else c[0]] for c in CODES}
CODE_RANK = np.array([0] + [RANK_OF_CODE[c] for c in CODES], dtype=np.int64)


def _geo_table() -> np.ndarray:
    table = np.zeros((9, GEO_WIDTH), dtype=np.int64)
    for n in (4, 6, 8):
        geo = geometry(n)
        row = table[n]
        row[G_N], row[G_TRACK], row[G_SIZE] = n, geo.track, geo.size
        names = [*geo.names, *(f"s{p}" for p in range(n))]
        order = {name: i for i, name in enumerate(sorted(names))}
        for p in range(n):
            row[G_START + p] = geo.start[p]
            row[G_ENTRY + p] = geo.entry[p]
            row[G_HOME + p] = geo.home_base[p]
            row[G_PARTNER + p] = geo.partner[p]
            row[G_SNAME + p] = order[f"s{p}"]
        for f in range(geo.size):
            row[G_NAME + f] = order[geo.names[f]]
    return table


GEO = _geo_table()


def pack(steps: tuple[tuple[int, int], ...], colour: int) -> int:
    """The packed form of one or two (from, to) steps of ``colour``'s marbles."""
    (s1, d1), (s2, d2) = steps[0], steps[1] if len(steps) > 1 else (-1, -1)
    tag = (colour + 1) << 32 if s1 < 0 else 0
    return tag | (s1 + 1) << 24 | (d1 + 1) << 16 | (s2 + 1) << 8 | (d2 + 1)


def unpack(key: int) -> tuple[tuple[int, int], ...]:
    s1, d1 = (key >> 24 & 255) - 1, (key >> 16 & 255) - 1
    s2, d2 = (key >> 8 & 255) - 1, (key & 255) - 1
    return ((s1, d1),) if d2 < 0 else ((s1, d1), (s2, d2))


# -- single steps --------------------------------------------------------------------


@njit(cache=True)
def landing_ok(b: np.ndarray, g: np.ndarray, c: int, dst: int) -> bool:
    """Colour ``c`` may land on ``dst``: not an own marble, and a partner marble on its
    own home entry needs a free first home field (ruling 6)."""
    o = b[dst]
    if o == c:
        return False
    if o >= 0 and o == g[G_PARTNER + c] and dst == g[G_ENTRY + o]:
        return bool(b[g[G_HOME + o]] < 0)
    return True


@njit(cache=True)
def forward(b: np.ndarray, g: np.ndarray, c: int, x: int, k: int,
            optional: bool) -> tuple[int, int]:
    """Where colour ``c``'s marble on field ``x`` may land moving ``k`` forward:
    (a home field or −1, a track field or −1)."""
    track = g[G_TRACK]
    if x >= track:  # in home: forward only, never jumping, exact
        hb = g[G_HOME + c]
        j = x - hb + k
        if j >= HOME_SIZE:
            return -1, -1
        for f in range(x + 1, hb + j + 1):
            if b[f] >= 0:
                return -1, -1
        return hb + j, -1
    d = g[G_ENTRY + c] - x  # steps to the home entry (no ``%`` in the loops: slow)
    if d < 0:
        d += track
    home = -1
    if k > d:  # passes the home entry: must enter home (ruling 5)
        j = k - d
        if j <= HOME_SIZE:
            ok = True
            f = x
            for _ in range(d):
                f += 1
                if f == track:
                    f = 0
                if b[f] == c:
                    ok = False
                    break
            if ok:
                hb = g[G_HOME + c]
                for f in range(hb, hb + j):
                    if b[f] >= 0:
                        ok = False
                        break
                if ok:
                    home = hb + j - 1
        if not optional:
            return home, -1
    f = x
    for _ in range(k):
        f += 1
        if f == track:
            f = 0
        if b[f] == c:
            return home, -1
    if landing_ok(b, g, c, f):
        return home, f
    return home, -1


@njit(cache=True)
def backward8(b: np.ndarray, g: np.ndarray, c: int, x: int) -> int:
    """Where an 8 takes colour ``c``'s marble on track field ``x`` (−1: nowhere)."""
    track = g[G_TRACK]
    f = x
    for _ in range(8):
        f -= 1
        if f < 0:
            f += track
        if b[f] == c:
            return -1
    return f if landing_ok(b, g, c, f) else -1


@njit(cache=True)
def do_step(w: np.ndarray, g: np.ndarray, c: int, src: int, dst: int) -> bool:
    """Move colour ``c``'s marble from ``src`` to ``dst`` on ``w`` and resolve a hit
    (ruling 6; push order: the mover leaves, the landed-on marble is dealt with, the
    mover lands).  False (``w`` partly changed) if the landing is illegal."""
    if src >= 0:
        w[src] = -1
    o = w[dst]
    if o >= 0:
        if o == c:
            return False
        if o == g[G_PARTNER + c]:
            e = g[G_ENTRY + o]
            if dst == e:
                h1 = g[G_HOME + o]
                if w[h1] >= 0:
                    return False
                w[h1] = o
            else:
                w[e] = o  # whatever stood there goes back to its start area
        # an opponent's marble simply leaves the board: back to its start area
    w[dst] = c
    return True


@njit(cache=True)
def apply_into(w: np.ndarray, seats: int, c: int, key: int) -> int:
    """Colour ``c`` plays the packed steps ``key`` on ``w`` (changed in place); the
    finished seats after it (``finished_mask``)."""
    g = GEO[seats]
    do_step(w, g, c, (key >> 24 & 255) - 1, (key >> 16 & 255) - 1)
    d2 = (key & 255) - 1
    if d2 >= 0:
        do_step(w, g, c, (key >> 8 & 255) - 1, d2)
    return finished_mask(w, seats)


def apply_packed(b: np.ndarray, seats: int, c: int, key: int) -> np.ndarray:
    """The board after colour ``c`` plays the packed steps ``key`` (a new array)."""
    w = b.copy()
    apply_into(w, seats, c, key)
    return w


@njit(cache=True)
def finished_mask(b: np.ndarray, seats: int) -> int:
    """Bit s set when seat s has all five marbles home."""
    g = GEO[seats]
    out = 0
    for s in range(seats):
        hb = g[G_HOME + s]
        full = True
        for f in range(hb, hb + HOME_SIZE):
            if b[f] != s:
                full = False
                break
        if full:
            out |= 1 << s
    return out


# -- options of a hand ---------------------------------------------------------------


@njit(cache=True)
def _sort_key(g: np.ndarray, c: int, key: int) -> int:
    """A number ordered as the texts of the steps are (name order of each place)."""
    s1 = (key >> 24 & 255) - 1
    r1: int = g[G_SNAME + c] if s1 < 0 else g[G_NAME + s1]
    r2: int = g[G_NAME + (key >> 16 & 255) - 1]
    d2 = (key & 255) - 1
    if d2 < 0:
        return (r1 << 24) | (r2 << 16)
    r3: int = g[G_NAME + (key >> 8 & 255) - 1] + 1
    r4: int = g[G_NAME + d2] + 1
    return (r1 << 24) | (r2 << 16) | (r3 << 8) | r4


@njit(cache=True)
def _pk(s1: int, d1: int, s2: int, d2: int) -> int:
    return (s1 + 1) << 24 | (d1 + 1) << 16 | (s2 + 1) << 8 | (d2 + 1)


@njit(cache=True)
def _pk_start(c: int, d1: int) -> int:
    """A move from colour ``c``'s start area (the colour above the step bytes: the
    text names the start area ``s<c>``)."""
    return (c + 1) << 32 | (d1 + 1) << 16


@njit(cache=True)
def _mine(b: np.ndarray, g: np.ndarray, c: int, mine: np.ndarray) -> int:
    """Colour ``c``'s fields into ``mine`` (ascending); their number."""
    m = 0
    for f in range(g[G_SIZE]):
        if b[f] == c:
            mine[m] = f
            m += 1
    return m


SPLIT_CAP = 512  # room for one hand's distinct split 7s
HASH_SIZE = 1024  # the split boards' hash table (a power of two)
W_KEYS, W_SK, W_SIG0, W_SIG1, W_TABLE = 0, 512, 1024, 1536, 2048
WORK = W_TABLE + HASH_SIZE + 1  # scratch of ``_splits``: the last entry a call counter
HASH_MUL = 0x5851F42D4C957F2D


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """The reusable scratch of ``rank_options_into``: (work, a board's copy)."""
    return np.zeros(WORK, dtype=np.int64), np.empty(GEO_WIDTH, dtype=np.int8)


@njit(cache=True)
def _splits(b: np.ndarray, g: np.ndarray, c: int, mine: np.ndarray, m: int,
            optional: bool, out: np.ndarray, at: int, alias: np.ndarray,
            na: int, work: np.ndarray, w: np.ndarray, pushes: bool) -> tuple[int, int]:
    """Split 7s: two different marbles, first part a (1–6) then 7 − a, applied in order;
    one option per distinct resulting board, under the text that sorts first; the other
    texts go to ``alias`` as (alias, listed) pairs.  ``work`` (``WORK``) and ``w`` (a
    board's room) are scratch: the steps are played on ``w`` and undone (a step changes
    at most its two fields and the partner's entry and first home field), and the
    boards are told apart by a hash of their changed fields.  With ``pushes``, only the
    splits of which a step lands on a partner marble (counting.py counts the others;
    no other split reaches their boards: they move a partner marble)."""
    size = g[G_SIZE]
    p = g[G_PARTNER + c]
    e_p = g[G_ENTRY + p]
    h_p = g[G_HOME + p]
    n = 0
    stamp = work[WORK - 1] + 1  # table entries of earlier calls are stale
    work[WORK - 1] = stamp
    w[:size] = b[:size]
    for i in range(m):
        x = mine[i]
        for a in range(1, 7):
            h, t = forward(b, g, c, x, a, optional)
            for d1 in (h, t):
                if d1 < 0:
                    continue
                o1, o2, o3, o4 = w[x], w[d1], w[e_p], w[h_p]
                if do_step(w, g, c, x, d1):
                    for j in range(m):
                        y = mine[j]
                        if y == x or w[y] != c:
                            continue
                        h2, t2 = forward(w, g, c, y, 7 - a, optional)
                        for d2 in (h2, t2):
                            if d2 < 0:
                                continue
                            q1, q2, q3, q4 = w[y], w[d2], w[e_p], w[h_p]
                            if pushes and o2 != p and q2 != p:
                                continue
                            if do_step(w, g, c, y, d2):
                                n, na = _split_seen(b, w, g, c, x, d1, y, d2, e_p, h_p,
                                                    work, stamp, n, alias, na)
                            w[h_p], w[e_p], w[d2], w[y] = q4, q3, q2, q1
                w[h_p], w[e_p], w[d1], w[x] = o4, o3, o2, o1
    for r in range(n):
        out[at] = work[W_KEYS + r]
        at += 1
    return at, na


@njit(cache=True)
def _split_seen(b: np.ndarray, w: np.ndarray, g: np.ndarray, c: int, x: int, d1: int,
                y: int, d2: int, e_p: int, h_p: int, work: np.ndarray, stamp: int,
                n: int, alias: np.ndarray, na: int) -> tuple[int, int]:
    """Record the split (x→d1, y→d2) whose board is ``w``: a new board is option ``n``;
    a board seen before keeps the text that sorts first (the other an alias)."""
    f0, f1, f2, f3, f4, f5 = x, d1, y, d2, e_p, h_p
    pairs = (f0 * 16 + w[f0] + 2, f1 * 16 + w[f1] + 2, f2 * 16 + w[f2] + 2,
             f3 * 16 + w[f3] + 2, f4 * 16 + w[f4] + 2, f5 * 16 + w[f5] + 2)
    changed = (w[f0] != b[f0], w[f1] != b[f1], w[f2] != b[f2], w[f3] != b[f3],
               w[f4] != b[f4], w[f5] != b[f5])
    # the distinct changed (field, marble) pairs, ascending, into two numbers
    s0 = 0
    s1 = 0
    cnt = 0
    last = -1
    while True:
        best = -1
        for q in range(6):
            v = pairs[q]
            if changed[q] and v > last and (best < 0 or v < best):
                best = v
        if best < 0:
            break
        if cnt < 5:
            s0 = (s0 << 12) | best
        else:
            s1 = best
        cnt += 1
        last = best
    key = _pk(x, d1, y, d2)
    k = _sort_key(g, c, key)
    hsh = ((s0 ^ (s1 << 29)) * HASH_MUL) >> 40
    slot = hsh & (HASH_SIZE - 1)
    while True:
        e = work[W_TABLE + slot]
        if e >> 16 != stamp:  # empty: a new board
            work[W_TABLE + slot] = stamp << 16 | n
            work[W_KEYS + n], work[W_SK + n] = key, k
            work[W_SIG0 + n], work[W_SIG1 + n] = s0, s1
            return n + 1, na
        r = e & 0xFFFF
        if work[W_SIG0 + r] == s0 and work[W_SIG1 + r] == s1:
            if k < work[W_SK + r]:
                alias[na, 0], alias[na, 1] = work[W_KEYS + r], key
                work[W_KEYS + r], work[W_SK + r] = key, k
            else:
                alias[na, 0], alias[na, 1] = key, work[W_KEYS + r]
            return n, na + 1
        slot = (slot + 1) & (HASH_SIZE - 1)


@njit(cache=True, inline="always")
def hand_ranks(hand: int) -> int:
    """The ranks of a packed hand (the codes' indices + 1, 6 bits each) as a bit set."""
    ranks = 0
    while hand:
        ranks |= 1 << CODE_RANK[hand & 63]
        hand >>= 6
    return ranks


@njit(cache=True, inline="always")
def eight_moves(b: np.ndarray, g: np.ndarray, c: int, m: int, mine: np.ndarray,
                out: np.ndarray, at: int) -> int:
    """Append the 8's moves for colour ``c`` (each own marble on the track eight fields
    back, where it may) to ``out`` from ``at``; the new end."""
    track = g[G_TRACK]
    for i in range(m):
        x = mine[i]
        if x < track:
            d = backward8(b, g, c, x)
            if d >= 0:
                out[at] = _pk(x, d, -1, -1)
                at += 1
    return at


@njit(cache=True, inline="always")
def joker_moves(b: np.ndarray, g: np.ndarray, c: int, m: int, mine: np.ndarray,
                out: np.ndarray, at: int) -> int:
    """Append the joker's moves for colour ``c`` to ``out`` from ``at`` (a new marble onto
    any field it may land on, or any own marble on the track onto it); the new end."""
    track = g[G_TRACK]
    for f in range(track):
        o = b[f]
        if o < 0 or o == c or not landing_ok(b, g, c, f):
            continue
        if m < MARBLES:
            out[at] = _pk_start(c, f)
            at += 1
        for i in range(m):
            if mine[i] < track:
                out[at] = _pk(mine[i], f, -1, -1)
                at += 1
    return at


@njit(cache=True)
def _rank_options(b: np.ndarray, g: np.ndarray, c: int, rank: int, mine: np.ndarray,
                  m: int, optional: bool, out: np.ndarray, at: int, alias: np.ndarray,
                  na: int, work: np.ndarray, w: np.ndarray) -> tuple[int, int]:
    """Append every distinct move of a card of ``rank`` for colour ``c`` to ``out``
    (unsorted; ``work`` and ``w``: ``_splits``'s scratch)."""
    track = g[G_TRACK]
    if rank in (R_A, R_J, R_Q, R_K) and m < MARBLES:
        dst = g[G_START + c]
        if landing_ok(b, g, c, dst):
            out[at] = _pk_start(c, dst)
            at += 1
    if rank == R_8:
        return eight_moves(b, g, c, m, mine, out, at), na
    if rank == R_JK:
        has = m < MARBLES
        for i in range(m):
            if mine[i] < track:
                has = True
        if not has:
            return at, na
        return joker_moves(b, g, c, m, mine, out, at), na
    k = STEP[rank]
    for i in range(m):
        x = mine[i]
        h, t = forward(b, g, c, x, k, optional)
        if h >= 0:
            out[at] = _pk(x, h, -1, -1)
            at += 1
        if t >= 0:
            out[at] = _pk(x, t, -1, -1)
            at += 1
    if rank == R_7 and m >= 2:
        at, na = _splits(b, g, c, mine, m, optional, out, at, alias, na, work, w,
                         na < 0)  # False, as a run-time bool: one compiled _splits
    return at, na


@njit(cache=True)
def _collect(b: np.ndarray, g: np.ndarray, c: int, ranks: int, optional: bool,
             opts: np.ndarray, roff: np.ndarray, alias: np.ndarray, work: np.ndarray,
             w: np.ndarray, mine: np.ndarray) -> int:
    """``rank_options_into`` without the sorting: each rank's moves in the order found."""
    m = _mine(b, g, c, mine)
    na = 0
    at = 0
    for r in range(NRANKS):
        roff[r] = at
        if not ranks >> r & 1:
            continue
        if r in (R_Q, R_K) and ranks >> R_J & 1:  # J, Q and K do the same
            for i in range(roff[R_J], roff[R_J + 1]):
                opts[at] = opts[i]
                at += 1
            continue
        at, na = _rank_options(b, g, c, r, mine, m, optional, opts, at, alias, na, work, w)
    roff[NRANKS] = at
    return na


@njit(cache=True)
def _sort(g: np.ndarray, c: int, opts: np.ndarray, lo: int, hi: int,
          sk: np.ndarray) -> None:
    """Sort ``opts[lo:hi]`` into text order (``sk``: room for their sort keys); the
    keys are distinct (distinct steps have distinct texts)."""
    if hi - lo > 48:
        keys = np.empty(hi - lo, dtype=np.int64)
        for i in range(lo, hi):
            keys[i - lo] = _sort_key(g, c, opts[i])
        order = np.argsort(keys)
        seg = opts[lo:hi].copy()
        for i in range(hi - lo):
            opts[lo + i] = seg[order[i]]
        return
    for i in range(lo, hi):  # insertion sort: a rank has a handful of moves
        v = opts[i]
        k = _sort_key(g, c, v)
        j = i - 1
        while j >= lo and sk[j] > k:
            sk[j + 1] = sk[j]
            opts[j + 1] = opts[j]
            j -= 1
        sk[j + 1] = k
        opts[j + 1] = v


@njit(cache=True, inline="always")
def _select(g: np.ndarray, c: int, opts: np.ndarray, lo: int, hi: int, j: int,
            sk: np.ndarray) -> int:
    """The ``j``-th of ``opts[lo:hi]`` in text order (quickselect on the sort keys, in
    ``sk``; ``opts[lo:hi]`` is reordered)."""
    for i in range(lo, hi):
        sk[i] = _sort_key(g, c, opts[i])
    t = lo + j
    while hi - lo > 1:
        mid = (lo + hi) >> 1  # pivot: the middle one, moved to the end
        sk[mid], sk[hi - 1] = sk[hi - 1], sk[mid]
        opts[mid], opts[hi - 1] = opts[hi - 1], opts[mid]
        pivot = sk[hi - 1]
        at = lo
        for i in range(lo, hi - 1):
            if sk[i] < pivot:
                sk[i], sk[at] = sk[at], sk[i]
                opts[i], opts[at] = opts[at], opts[i]
                at += 1
        sk[at], sk[hi - 1] = sk[hi - 1], sk[at]
        opts[at], opts[hi - 1] = opts[hi - 1], opts[at]
        if at == t:
            lo = at
            break
        if t < at:
            hi = at
        else:
            lo = at + 1
    found: int = opts[lo]
    return found


@njit(cache=True)
def rank_options_into(b: np.ndarray, g: np.ndarray, c: int, ranks: int, optional: bool,
                      opts: np.ndarray, roff: np.ndarray, alias: np.ndarray,
                      work: np.ndarray, w: np.ndarray, mine: np.ndarray,
                      sk: np.ndarray) -> int:
    """``rank_options`` with its scratch given (``scratch()``, ``mine``: ``MARBLES``,
    ``sk``: ``CAP``): nothing allocated but for a rank of more than 48 moves."""
    na = _collect(b, g, c, ranks, optional, opts, roff, alias, work, w, mine)
    for r in range(NRANKS):
        if roff[r + 1] - roff[r] > 1:
            _sort(g, c, opts, roff[r], roff[r + 1], sk)
    return na


@njit(cache=True)
def rank_options(b: np.ndarray, g: np.ndarray, c: int, ranks: int, optional: bool,
                 opts: np.ndarray, roff: np.ndarray, alias: np.ndarray) -> int:
    """Every distinct move of colour ``c`` for each rank whose bit is set in ``ranks``,
    packed, each rank's in text order: rank r's are ``opts[roff[r]:roff[r + 1]]``.
    Split 7 texts that reach the same board as a listed one go to ``alias`` as
    (alias, listed) pairs; the result is their number."""
    seven = ranks >> R_7 & 1
    work = np.zeros(WORK if seven else 1, dtype=np.int64)
    w = np.empty(b.shape[0] if seven else 1, dtype=b.dtype)
    mine = np.empty(MARBLES, dtype=np.int64)
    sk = np.empty(CAP, dtype=np.int64)
    return rank_options_into(b, g, c, ranks, optional, opts, roff, alias, work, w, mine,
                             sk)


@njit(cache=True)
def legal(b: np.ndarray, seats: int, c: int, hand: int, optional: bool, strict: bool,
          out: np.ndarray) -> int:
    """The legal actions of a hand, in text order, as keys (``CODE_BASE`` × (code index
    + 1) + packed steps; a discard is the base alone).  ``hand``: the distinct codes'
    indices + 1 (CODES order = text order), 6 bits each, lowest first; ``c`` < 0: the
    seat only discards (ruling 8).  Ruling 7: an unusable card may be discarded; with
    ``strict``, only when no card is usable.  Written to ``out`` (room: ``OUT_CAP``):
    ``[n, n keys, alias pairs]``; the result is the length written."""
    g = GEO[seats]
    ranks = hand_ranks(hand)
    opts = np.empty(CAP, dtype=np.int64)
    roff = np.zeros(NRANKS + 1, dtype=np.int64)
    alias = np.empty((512 if ranks >> R_7 & 1 else 1, 2), dtype=np.int64)
    na = 0
    if c >= 0:
        na = rank_options(b, g, c, ranks, optional, opts, roff, alias)
    at = 1
    unusable = 0
    h = hand
    i = 0
    while h:
        code = h & 63
        r = CODE_RANK[code]
        base = code << CODE_SHIFT
        if c < 0 or roff[r] == roff[r + 1]:
            unusable |= 1 << i
        else:
            for j in range(roff[r], roff[r + 1]):
                out[at] = base | opts[j]
                at += 1
        h >>= 6
        i += 1
    if unusable and (not strict or at == 1):
        h = hand
        i = 0
        while h:
            if unusable >> i & 1:
                out[at] = (h & 63) << CODE_SHIFT
                at += 1
            h >>= 6
            i += 1
    out[0] = at - 1
    for j in range(na):
        out[at] = alias[j, 0]
        out[at + 1] = alias[j, 1]
        at += 2
    return at
