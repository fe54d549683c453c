"""The kugler bots' compiled half (Numba, ``cache=True``): the board evaluation, the
greedy policy and the playouts of the search, all on the rules kernel
(games/kugler/kernel.py) — no rule is restated here.

Evaluation (documented in docs/rules/kugler.md, "Bots"): a team's score is the sum of
its marbles' values; a board's value for a team is its score minus the mean of the
other teams'.  A marble in a start area is worth 0; on the track ``OUT`` + the fields it
has come (``track − fields to its home entry − 1``), times ``1 − DANGER × threats``
where threats (at most 4) counts the other teams' marbles 1–10 fields behind it or 8
ahead of it on the track, and the other teams' seats with a marble waiting in the start
area whose start field it stands on; in home field k: ``HOME`` + track + 2k.  A playout
that ends in a team's win adds ``WIN`` for the winners (subtracts it for the others).  A card
spent costs its keep-value (``KEEP``; A/J/Q/K + ``KEEP_OUT_BONUS`` while the colour has
marbles in its start area).

A playout position is a few arrays: the board (kernel layout), ``hands`` (seats × 14
rank counts), ``draw`` (ranks, the next card drawn last) with its length, ``disc`` (the
discard pile's ranks, bottom first) with its length.  A reshuffle inside a playout
draws from Numba's generator, seeded by the caller from the bot's own ``rng``.
"""

from __future__ import annotations

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

OUT = 12.0
HOME = 24.0
DANGER = 0.06
KEEP_OUT_BONUS = 3.0
WIN = 500.0  # added to (or taken from) a playout's value when it ends in a team's win
# keep-value of a card by kernel rank: A 2 3 4 5 6 7 8 9 T J Q K joker
KEEP = np.array([2.0, 0, 0, 0, 0, 0, 3.0, 2.5, 0, 0.5, 2.0, 2.0, 2.0, 7.0])


@njit(cache=True)
def team_values(b: np.ndarray, g: np.ndarray, vals: np.ndarray, danger: float) -> None:
    """Each team's summed marble value into ``vals`` (team t = seats t and t + n/2),
    ``danger`` the weight of a threat (``DANGER``; 0 for the advance bot)."""
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
            vals[s % half] += HOME + track + 2 * (f - g[G_HOME + s] + 1)
            cnt[s] += 1
    for i in range(m):
        f = tf[i]
        s = tsea[i]
        team = s % half
        value = OUT + track - (g[G_ENTRY + s] - f) % track - 1
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
        vals[team] += value * (1.0 - danger * threats)


@njit(cache=True)
def relative(b: np.ndarray, g: np.ndarray, team: int, vals: np.ndarray) -> float:
    """Team ``team``'s value minus the mean of the other teams' on ``b``."""
    team_values(b, g, vals, DANGER)
    half = g[G_N] // 2
    rel: float = vals[team] - (vals.sum() - vals[team]) / (half - 1)
    return rel


@njit(cache=True)
def progress(b: np.ndarray, g: np.ndarray, team: int, vals: np.ndarray) -> float:
    """The advance bot's value of ``b`` for ``team``: its own marbles' values with no
    danger, the other teams ignored."""
    team_values(b, g, vals, 0.0)
    own: float = vals[team]
    return own


@njit(cache=True)
def keep_of(rank: int, waiting: bool) -> float:
    v: float = KEEP[rank]
    if waiting and rank in (R_A, R_J, R_Q, R_K):
        v += KEEP_OUT_BONUS
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
               keys: np.ndarray, advance: bool) -> np.ndarray:
    """The score of each action (``ranks[i]`` with packed steps ``keys[i]``; 0: a
    discard) for the seat of ``team`` moving colour ``c`` (−1: discards only): greedy's
    (``relative`` minus the card's keep-value), or with ``advance`` the advance bot's
    (``progress``, no keep-values)."""
    g = GEO[seats]
    vals = np.zeros(seats // 2)
    wait = c >= 0 and waiting(b, g, c)
    base = progress(b, g, team, vals) if advance else relative(b, g, team, vals)
    out = np.empty(len(keys))
    w = b.copy()
    for i in range(len(keys)):
        key = keys[i] & 0xFFFFFFFF
        keep = 0.0 if advance else keep_of(ranks[i], wait)
        if key == 0 or c < 0:
            out[i] = base - keep
            continue
        w[:] = b
        do_step(w, g, c, (key >> 24 & 255) - 1, (key >> 16 & 255) - 1)
        d2 = (key & 255) - 1
        if d2 >= 0:
            do_step(w, g, c, (key >> 8 & 255) - 1, d2)
        value = progress(w, g, team, vals) if advance else relative(w, g, team, vals)
        out[i] = value - keep
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
                  advance: bool = False) -> tuple[int, int]:
    """The greedy policy's (rank, packed steps; 0: discard) for a hand of rank counts
    (with ``advance``: the advance bot's)."""
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
        keep = 0.0 if advance else keep_of(r, wait)
        if lo == hi:
            if strict and any_move:
                continue
            if not have_base:
                base = progress(b, g, team, vals) if advance else relative(b, g, team, vals)
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
            v = (progress(w, g, team, vals) if advance else relative(w, g, team, vals)) \
                - keep
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
               advance: bool = False) -> int:
    """Every seat plays greedy (``advance``: the advance policy) for ``plies`` turns or
    until the game ends; the number of turns played is returned (the board and cards
    are changed in place)."""
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
        rank, key = greedy_choice(b, g, c, turn % half, hands[turn], optional, strict,
                                  opts, roff, alias, w, vals, advance)
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
                  horizon: int, seed: int, out: np.ndarray, advance: bool) -> None:
    """One determinization: for every active candidate action of seat ``me`` (to
    move), play it, let every seat play greedy for ``horizon`` − 1 more turns, and write
    the board's value for ``me``'s team to ``out[i]`` (with ``advance``: every seat
    plays the advance policy and the value is the team's own ``progress``; the same
    hidden cards and generator state for every candidate: common random numbers)."""
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
                   horizon - 1, optional, strict, helps, advance)
        v = progress(b, g, me % half, vals) if advance else relative(b, g, me % half, vals)
        fin = finished_mask(b, n)
        won = fin & fin >> half & ((1 << half) - 1)
        if won:
            v += WIN if won >> (me % half) & 1 else -WIN
        out[i] = v
