"""The kugler bots' compiled half (Numba, ``cache=True``): the board evaluation, the
greedy policy and the playouts of the search, all on the rules kernel
(games/kugler/kernel.py) — no rule is restated here.

Evaluation (documented in docs/rules/kugler.md, "Bots"), one function with a weight
array per bot (``W_*`` below; ``GREEDY``, ``ADVANCE`` and ``TUNED``): a team's value is
the sum of its marbles' values; a board's value for a team is its value minus ``OPP`` ×
the mean of the other teams'.  A marble in a start area is worth 0; on the track ``OUT``
+ the fields it has come (``track − fields to its home entry − 1``), times ``1 − DANGER
× threats`` where threats (at most 4) counts the other teams' marbles 1–10 fields
behind it or 8 ahead of it on the track, and the other teams' seats with a marble
waiting in the start area whose start field it stands on; in home field k: ``HOME`` +
track + ``HOMESTEP`` × k.  A playout that ends in a team's win adds ``WIN`` for the
winners (subtracts it for the others).  A card spent costs its keep-value (``KEEP`` by
rank; A/J/Q/K + ``KEEP_OUT`` while the colour has marbles in its start area).  Greedy's
weights are the original hand-set ones (12, 24, 2, 6% a threat, the other teams at full
weight); advance's count only the own team's progress; ``TUNED`` came from whole
compiled games against greedy (selfplay.py, bench/kugler_tune.py).

A playout position is a few arrays: the board (kernel layout), ``hands`` (seats × 14
rank counts), ``draw`` (ranks, the next card drawn last) with its length, ``disc`` (the
discard pile's ranks, bottom first) with its length.  A reshuffle inside a playout
draws from Numba's generator, seeded by the caller from the bot's own ``rng``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from spillebord.games.kugler.board import MARBLES
from spillebord.games.kugler.kernel import (
    CAP,
    G_ENTRY,
    G_HOME,
    G_N,
    G_PARTNER,
    G_SIZE,
    G_START,
    G_TRACK,
    GEO,
    NRANKS,
    R_A,
    R_J,
    R_K,
    R_Q,
    do_step,
    finished_mask,
    rank_options,
)

# The evaluation's weights: one float array per bot (``GREEDY``, ``ADVANCE``, ``TUNED``).
W_OUT = 0  # a marble on the track: this + the fields it has come
W_HOME = 1  # a marble in home field k: this + track + W_HOMESTEP × k
W_HOMESTEP = 2
W_DANGER = 3  # the value's share lost per counted threat (at most 4 threats)
W_OPP = 4  # weight of the other teams' mean value (0: the own team only)
W_KEEP_OUT = 5  # keep-value added to A/J/Q/K while the colour has marbles waiting
W_KEEP = 6  # keep-value of a card spent, by kernel rank (14 entries)
NW = W_KEEP + NRANKS
WIN = 500.0  # added to (or taken from) a playout's value when it ends in a team's win


def weights(keep: Sequence[float] = (0.0,) * NRANKS, **named: float) -> np.ndarray:
    """A weight array from named weights (``out``, ``home``, …) and the 14 keep-values
    by rank; unnamed weights are 0."""
    w = np.zeros(NW)
    w[W_KEEP:] = keep
    for name, v in named.items():
        w[globals()["W_" + name.upper()]] = v
    return w


# keep-value of a card by kernel rank: A 2 3 4 5 6 7 8 9 T J Q K joker
GREEDY_KEEP = [2.0, 0, 0, 0, 0, 0, 3.0, 2.5, 0, 0.5, 2.0, 2.0, 2.0, 7.0]
GREEDY = weights(out=12, home=24, homestep=2, danger=0.06, opp=1, keep_out=3,
                 keep=GREEDY_KEEP)
ADVANCE = weights(out=12, home=24, homestep=2)
# tuned by bench/kugler_tune.py (one-ply self-play against greedy; docs/benchmarks/kugler.md)
TUNED = weights(out=12, home=16, homestep=8, danger=0.06, opp=0.25, keep_out=2,
                keep=[3.0, 1.5, 1.5, 1.5, 0, 0, 3.0, 0, 0, 1.5, 1.5, 0, 0, 0])
VALUES = {"greedy": GREEDY, "advance": ADVANCE, "tuned": TUNED}


@njit(cache=True)
def team_values(b: np.ndarray, g: np.ndarray, vals: np.ndarray, wt: np.ndarray) -> None:
    """Each team's value under the weights ``wt`` into ``vals`` (team t = seats t and
    t + n/2): the sum of its marbles' values."""
    n = g[G_N]
    half = n // 2
    track = g[G_TRACK]
    vals[:] = 0.0
    cnt = np.zeros(n, dtype=np.int64)
    tf = np.empty(MARBLES * n, dtype=np.int64)
    tsea = np.empty(MARBLES * n, dtype=np.int64)
    m = 0
    for f in range(track):
        s = b[f]
        if s >= 0:
            tf[m] = f
            tsea[m] = s
            m += 1
            cnt[s] += 1
    for f in range(track, g[G_SIZE]):
        s = b[f]
        if s >= 0:
            vals[s % half] += wt[W_HOME] + track + wt[W_HOMESTEP] * (f - g[G_HOME + s] + 1)
            cnt[s] += 1
    danger = wt[W_DANGER]
    for i in range(m):
        f = tf[i]
        s = tsea[i]
        team = s % half
        value = wt[W_OUT] + track - (g[G_ENTRY + s] - f) % track - 1
        if danger != 0.0:
            threats = 0
            for j in range(m):
                if tsea[j] % half == team:
                    continue
                behind = (f - tf[j]) % track
                if 1 <= behind <= 10 or behind == track - 8:
                    threats += 1
            for o in range(n):
                if cnt[o] < MARBLES and g[G_START + o] == f and o % half != team:
                    threats += 1
            if threats > 4:
                threats = 4
            value *= 1.0 - danger * threats
        vals[team] += value


@njit(cache=True)
def value_of(b: np.ndarray, g: np.ndarray, team: int, vals: np.ndarray,
             wt: np.ndarray) -> float:
    """The board's value for ``team``: its value minus ``W_OPP`` × the other teams'
    mean."""
    team_values(b, g, vals, wt)
    own: float = vals[team]
    if wt[W_OPP] == 0.0:
        return own
    half = g[G_N] // 2
    rel: float = own - wt[W_OPP] * (vals.sum() - own) / (half - 1)
    return rel


@njit(cache=True)
def keep_of(rank: int, waiting: bool, wt: np.ndarray) -> float:
    v: float = wt[W_KEEP + rank]
    if waiting and rank in (R_A, R_J, R_Q, R_K):
        v += wt[W_KEEP_OUT]
    return v


@njit(cache=True)
def waiting(b: np.ndarray, g: np.ndarray, c: int) -> bool:
    """Colour ``c`` has a marble in its start area."""
    k = 0
    for f in range(g[G_SIZE]):
        if b[f] == c:
            k += 1
    return k < MARBLES


@njit(cache=True)
def score_keys(b: np.ndarray, seats: int, c: int, team: int, ranks: np.ndarray,
               keys: np.ndarray, wt: np.ndarray) -> np.ndarray:
    """The score of each action (``ranks[i]`` with packed steps ``keys[i]``; 0: a
    discard) for the seat of ``team`` moving colour ``c`` (−1: discards only): the
    value of the board it leads to minus the card's keep-value, under ``wt``."""
    g = GEO[seats]
    vals = np.zeros(seats // 2)
    wait = c >= 0 and waiting(b, g, c)
    base = value_of(b, g, team, vals, wt)
    out = np.empty(len(keys))
    w = b.copy()
    for i in range(len(keys)):
        key = keys[i] & 0xFFFFFFFF
        keep = keep_of(ranks[i], wait, wt)
        if key == 0 or c < 0:
            out[i] = base - keep
            continue
        w[:] = b
        do_step(w, g, c, (key >> 24 & 255) - 1, (key >> 16 & 255) - 1)
        d2 = (key & 255) - 1
        if d2 >= 0:
            do_step(w, g, c, (key >> 8 & 255) - 1, d2)
        out[i] = value_of(w, g, team, vals, wt) - keep
    return out


# -- playouts -----------------------------------------------------------------------


@njit(cache=True)
def colour_of(fin: int, g: np.ndarray, seat: int, helps: bool) -> int:
    """Whose marbles ``seat`` moves (ruling 8): its own, the partner's, or −1."""
    if not fin >> seat & 1:
        return seat
    return g[G_PARTNER + seat] if helps else -1


@njit(cache=True)
def greedy_choice(b: np.ndarray, g: np.ndarray, c: int, team: int, hand: np.ndarray,
                  optional: bool, strict: bool, opts: np.ndarray, roff: np.ndarray,
                  alias: np.ndarray, w: np.ndarray, vals: np.ndarray,
                  wt: np.ndarray) -> tuple[int, int]:
    """The one-ply policy's (rank, packed steps; 0: discard) for a hand of rank counts:
    the best board value under ``wt`` minus the card's keep-value (the first in text
    order among equals, as ``score_keys`` and the greedy bot)."""
    ranks = 0
    for r in range(NRANKS):
        if hand[r] > 0:
            ranks |= 1 << r
    if c >= 0:
        rank_options(b, g, c, ranks, optional, opts, roff, alias)
    else:
        roff[:] = 0
    wait = c >= 0 and waiting(b, g, c)
    best = -1e300
    best_rank = -1
    best_key = 0
    any_move = roff[NRANKS] > 0
    base = 0.0
    have_base = False
    for r in range(NRANKS):
        if not ranks >> r & 1:
            continue
        lo = roff[r]
        hi = roff[r + 1]
        keep = keep_of(r, wait, wt)
        if lo == hi:
            if strict and any_move:
                continue
            if not have_base:
                base = value_of(b, g, team, vals, wt)
                have_base = True
            v = base - keep
            if v > best:
                best, best_rank, best_key = v, r, 0
            continue
        for i in range(lo, hi):
            key = opts[i]
            w[:] = b
            do_step(w, g, c, (key >> 24 & 255) - 1, (key >> 16 & 255) - 1)
            d2 = (key & 255) - 1
            if d2 >= 0:
                do_step(w, g, c, (key >> 8 & 255) - 1, d2)
            v = value_of(w, g, team, vals, wt) - keep
            if v > best:
                best, best_rank, best_key = v, r, key
    return best_rank, best_key


@njit(cache=True)
def play(b: np.ndarray, g: np.ndarray, hands: np.ndarray, draw: np.ndarray,
         disc: np.ndarray, counts: np.ndarray, turn: int, c: int, rank: int,
         key: int) -> None:
    """Seat ``turn`` plays ``rank`` with packed steps ``key`` (0: discard) moving colour
    ``c``, then draws (ruling 1: an empty pile is refilled from the discards but the
    card just played, shuffled).  ``counts`` = [draw length, discard length]."""
    key &= 0xFFFFFFFF
    if key:
        do_step(b, g, c, (key >> 24 & 255) - 1, (key >> 16 & 255) - 1)
        d2 = (key & 255) - 1
        if d2 >= 0:
            do_step(b, g, c, (key >> 8 & 255) - 1, d2)
    hands[turn, rank] -= 1
    disc[counts[1]] = rank
    counts[1] += 1
    if counts[0] == 0:
        k = counts[1] - 1
        for i in range(k):
            draw[i] = disc[i]
        np.random.shuffle(draw[:k])
        disc[0] = disc[k]
        counts[0] = k
        counts[1] = 1
    counts[0] -= 1
    hands[turn, draw[counts[0]]] += 1


@njit(cache=True)
def run_greedy(b: np.ndarray, g: np.ndarray, hands: np.ndarray, draw: np.ndarray,
               disc: np.ndarray, counts: np.ndarray, turn: int, turns: int, limit: int,
               plies: int, optional: bool, strict: bool, helps: bool,
               wts: np.ndarray) -> int:
    """Every seat plays the one-ply policy of its team's weights (row t of ``wts``
    for team t) for ``plies`` turns or until the game ends; the number of turns played
    is returned (the board and cards are changed in place)."""
    n = g[G_N]
    half = n // 2
    opts = np.empty(CAP, dtype=np.int64)
    roff = np.zeros(NRANKS + 1, dtype=np.int64)
    alias = np.empty((512, 2), dtype=np.int64)
    w = b.copy()
    vals = np.zeros(half)
    done = 0
    while done < plies and turns < limit:
        fin = finished_mask(b, n)
        if fin & fin >> half & ((1 << half) - 1):
            break
        c = colour_of(fin, g, turn, helps)
        team = turn % half
        rank, key = greedy_choice(b, g, c, team, hands[turn], optional, strict,
                                  opts, roff, alias, w, vals, wts[team])
        play(b, g, hands, draw, disc, counts, turn, c, rank, key)
        turn = (turn + 1) % n
        turns += 1
        done += 1
    return done


@njit(cache=True)
def determinize(pool: np.ndarray, sizes: np.ndarray, me: int, my_hand: np.ndarray,
                hands: np.ndarray, draw: np.ndarray) -> int:
    """Shuffle the unseen cards ``pool`` (ranks) into the other hands (``sizes``) and
    the draw pile; ``my_hand`` (rank counts) stays.  The draw pile's length."""
    p = pool.copy()
    np.random.shuffle(p)
    at = 0
    hands[:, :] = 0
    for s in range(len(sizes)):
        if s == me:
            hands[s, :] = my_hand
            continue
        for _ in range(sizes[s]):
            hands[s, p[at]] += 1
            at += 1
    k = len(p) - at
    for i in range(k):  # the next card drawn is the last
        draw[i] = p[len(p) - 1 - i]
    return k


@njit(cache=True)
def sample_values(b0: np.ndarray, seats: int, me: int, turns0: int, limit: int,
                  optional: bool, strict: bool, helps: bool, my_hand: np.ndarray,
                  pool: np.ndarray, sizes: np.ndarray, disc0: np.ndarray,
                  cand_ranks: np.ndarray, cand_keys: np.ndarray, active: np.ndarray,
                  horizon: int, seed: int, out: np.ndarray, wt: np.ndarray) -> None:
    """One determinization: for every active candidate action of seat ``me`` (to
    move), play it, let every seat play the one-ply policy of ``wt`` for ``horizon`` − 1
    more turns, and write the board's value under ``wt`` for ``me``'s team (± ``WIN``
    if a team has won) to ``out[i]`` (the same hidden cards and generator state for
    every candidate: common random numbers)."""
    np.random.seed(seed)
    g = GEO[seats]
    n = seats
    half = n // 2
    hands0 = np.zeros((n, NRANKS), dtype=np.int64)
    draw0 = np.empty(len(pool) + len(disc0) + 8, dtype=np.int64)
    k = determinize(pool, sizes, me, my_hand, hands0, draw0)
    fin = finished_mask(b0, n)
    c = colour_of(fin, g, me, helps)
    vals = np.zeros(half)
    wts = np.empty((half, len(wt)))
    for t in range(half):
        wts[t] = wt
    inner = np.random.randint(0, 2**31 - 1)
    for i in range(len(cand_keys)):
        if not active[i]:
            continue
        np.random.seed(inner)
        b = b0.copy()
        hands = hands0.copy()
        draw = draw0.copy()
        disc = np.empty(len(draw0), dtype=np.int64)
        disc[: len(disc0)] = disc0
        counts = np.array([k, len(disc0)], dtype=np.int64)
        play(b, g, hands, draw, disc, counts, me, c, cand_ranks[i], cand_keys[i])
        run_greedy(b, g, hands, draw, disc, counts, (me + 1) % n, turns0 + 1, limit,
                   horizon - 1, optional, strict, helps, wts)
        v = value_of(b, g, me % half, vals, wt)
        fin = finished_mask(b, n)
        won = fin & fin >> half & ((1 << half) - 1)
        if won:
            v += WIN if won >> (me % half) & 1 else -WIN
        out[i] = v
