"""Kugler og Jokere's turn loop compiled (Numba, ``cache=True``) over a batch of games,
for batched random playouts and the batched env (research/kugler_batch.py;
docs/research.md, "Vector engine").  The move rules are the game's own kernel
(games/kugler/kernel.py: ``legal``, ``apply_into``, ``finished_mask``); this adds the
cards (ruling 1: play one, draw one, an empty draw pile refilled from the discards but
the card just played, shuffled), whose marbles a seat moves (ruling 8), the turn limit
and the outcome, as games/kugler/state.py does.  tests/research/test_kugler_batch.py
replays random batches through both and checks every legal list, board, hand and outcome
equal (the order of a reshuffle is the one chance event drawn differently: from Numba's
generator instead of the deal number's stream — the same uniform shuffle).

Per game ``b``: ``board[b]`` (the kernel's layout), ``hands[b, s, code]`` card counts by
code index + 1 (``kernel.CODES`` order), ``draw[b, :info[DLEN]]`` in drawing order from
``info[DPOS]``, ``disc[b, :info[XLEN]]`` bottom to top, and ``info[b]``: ``TURN``,
``TURNS``, ``FIN`` (finished seats' bits), ``DONE``, ``WIN`` (winning team, −1 none; set
when done), ``FLAGS`` (bit 0 optional home entry, 1 strict discard, 2 finished helps
partner), ``RESH`` (reshuffles so far).  A legal action is the kernel's key (code
index + 1 above bit 36, packed steps below); ``legal`` writes them in the engine's text
order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.games.kugler.board import HOME_SIZE
from spillebord.games.kugler.counting import bit_index, draw_scratch, random_legal
from spillebord.games.kugler.kernel import (
    CODE_SHIFT,
    G_HOME,
    G_PARTNER,
    GEO,
    OUT_CAP,
    apply_into,
)
from spillebord.games.kugler.kernel import legal as kernel_legal

TURN, TURNS, FIN, DONE, WIN, FLAGS, DPOS, DLEN, XLEN, LIMIT, RESH = range(11)
NINFO = 11
F_OPTIONAL, F_STRICT, F_HELPS = 1, 2, 4
NCODES = 54  # code index + 1: 1 … 53
NCARDS = 134
STEPS_MASK = (1 << CODE_SHIFT) - 1


@njit(cache=True, inline="always")
def packed_hand(hands: np.ndarray, b: int, s: int) -> int:
    """The kernel's form of seat ``s``'s hand: its distinct codes ascending, 6 bits each
    (the codes held as bits first: a loop the compiler vectorises)."""
    row = hands[b, s]
    held = 0
    for code in range(1, NCODES):
        held |= (row[code] > 0) << code
    h = 0
    shift = 0
    while held:
        low = held & -held
        h |= bit_index(low) << shift
        shift += 6
        held ^= low
    return h


@njit(cache=True, inline="always")
def colour(info: np.ndarray, b: int, n: int) -> int:
    """Whose marbles the seat to move moves (ruling 8): its own, the partner's, or −1."""
    seat = info[b, TURN]
    if not info[b, FIN] >> seat & 1:
        return int(seat)
    return int(GEO[n][G_PARTNER + seat]) if info[b, FLAGS] & F_HELPS else -1


@njit(cache=True)
def legal(n: int, b: int, board: np.ndarray, hands: np.ndarray, info: np.ndarray,
          out: np.ndarray) -> int:
    """The legal keys of game ``b`` at ``out[1 : k + 1]`` (room: ``OUT_CAP``); ``k``
    (0 when the game is over)."""
    if info[b, DONE]:
        return 0
    kernel_legal(board[b], n, colour(info, b, n), packed_hand(hands, b, info[b, TURN]),
                 info[b, FLAGS] & F_OPTIONAL != 0, info[b, FLAGS] & F_STRICT != 0, out)
    return int(out[0])


@njit(cache=True, inline="always")
def _judge(n: int, b: int, board: np.ndarray, info: np.ndarray) -> None:
    half = n // 2
    fin = info[b, FIN]
    done = fin & fin >> half & ((1 << half) - 1)
    if not done and info[b, TURNS] < info[b, LIMIT]:
        return
    info[b, DONE] = 1
    if done:
        for t in range(half):
            if done >> t & 1:
                info[b, WIN] = t
                return
    g = GEO[n]
    best, win = -1, -1
    for t in range(half):
        home = 0
        for s in (t, t + half):
            for f in range(g[G_HOME + s], g[G_HOME + s] + HOME_SIZE):
                if board[b, f] >= 0:
                    home += 1
        if home > best:
            best, win = home, t
        elif home == best:
            win = -1
    info[b, WIN] = win


@njit(cache=True, inline="always")
def step(n: int, b: int, key: int, board: np.ndarray, hands: np.ndarray,
         draw: np.ndarray, disc: np.ndarray, info: np.ndarray) -> None:
    """Play the legal key ``key`` in game ``b`` (not checked: take it from ``legal``)."""
    seat = info[b, TURN]
    if key & STEPS_MASK:
        info[b, FIN] = apply_into(board[b], n, colour(info, b, n), key & STEPS_MASK)
    code = key >> CODE_SHIFT
    hands[b, seat, code] -= 1
    disc[b, info[b, XLEN]] = code
    info[b, XLEN] += 1
    if info[b, DLEN] == 0:  # ruling 1: all but the card just played, shuffled
        k = info[b, XLEN] - 1
        for i in range(k):
            draw[b, i] = disc[b, i]
        np.random.shuffle(draw[b, :k])
        disc[b, 0] = disc[b, k]
        info[b, XLEN] = 1
        info[b, DPOS] = 0
        info[b, DLEN] = k
        info[b, RESH] += 1
    hands[b, seat, draw[b, info[b, DPOS]]] += 1
    info[b, DPOS] += 1
    info[b, DLEN] -= 1
    info[b, TURN] = (seat + 1) % n
    info[b, TURNS] += 1
    _judge(n, b, board, info)


@njit(cache=True)
def reset(n: int, b: int, deck: np.ndarray, flags: int, limit: int, board: np.ndarray,
          hands: np.ndarray, draw: np.ndarray, info: np.ndarray) -> None:
    """A fresh deal for game ``b`` from Numba's generator: ``deck`` (the 134 code
    indices) shuffled uniformly and dealt as the engine deals (card ``i < 5n`` to seat
    ``i mod n``, the rest the draw pile in order)."""
    np.random.shuffle(deck)
    board[b, :] = -1
    hands[b, :, :] = 0
    for i in range(5 * n):
        hands[b, i % n, deck[i]] += 1
    k = NCARDS - 5 * n
    for i in range(k):
        draw[b, i] = deck[5 * n + i]
    info[b, :] = 0
    info[b, DLEN] = k
    info[b, WIN] = -1
    info[b, FLAGS] = flags
    info[b, LIMIT] = limit


@njit(cache=True)
def seed(s: int) -> None:
    np.random.seed(s)


@njit(cache=True)
def draw_index(k: int) -> int:
    """``np.random.randint(k)`` from Numba's generator (replaying a playout outside)."""
    return np.random.randint(k)


@njit(cache=True)
def random_playouts(n: int, games: int, deck0: np.ndarray, flags: int, limit: int, s: int,
                    wins: np.ndarray, lengths: np.ndarray) -> int:
    """``games`` random games (every legal action equally likely) from fresh deals; each
    game's winning team (−1 none) and turns into ``wins`` / ``lengths``; total turns.
    The whole loop is compiled and allocates nothing per turn: games/kugler/counting.py's
    ``random_legal`` counts the legal moves and draws one as ``legal`` then
    ``np.random.randint(k)`` would (the same game, draw for draw)."""
    np.random.seed(s)
    size = GEO[n][2]
    board = np.empty((1, size), np.int8)
    hands = np.zeros((1, n, NCODES), np.int8)
    draw = np.zeros((1, NCARDS), np.int8)
    disc = np.zeros((1, NCARDS), np.int8)
    info = np.zeros((1, NINFO), np.int64)
    opts, roff, alias, work, w, mine, sk, rt = draw_scratch()
    optional = flags & F_OPTIONAL != 0
    strict = flags & F_STRICT != 0
    deck = deck0.copy()
    total = 0
    row = board[0]
    for gm in range(games):
        reset(n, 0, deck, flags, limit, board, hands, draw, info)
        while not info[0, DONE]:
            key = random_legal(row, n, colour(info, 0, n),
                               packed_hand(hands, 0, info[0, TURN]), optional, strict,
                               opts, roff, alias, work, w, mine, sk, rt)
            step(n, 0, key, board, hands, draw, disc, info)
        wins[gm] = info[0, WIN]
        lengths[gm] = info[0, TURNS]
        total += info[0, TURNS]
    return total


@njit(cache=True)
def step_batch(n: int, choice: np.ndarray, board: np.ndarray, hands: np.ndarray,
               draw: np.ndarray, disc: np.ndarray, info: np.ndarray, counts: np.ndarray,
               keys: np.ndarray, deck: np.ndarray, done_now: np.ndarray,
               wins: np.ndarray) -> int:
    """Game ``b`` plays its legal action number ``choice[b]`` (−1: none); a game that
    ends is dealt afresh (its winning team in ``wins``).  ``counts[b]`` / ``keys[b]``
    hold each game's legal keys (refreshed).  Returns the first game whose choice is out
    of range (nothing moved then), else −1."""
    B = choice.shape[0]
    for b in range(B):
        if choice[b] >= counts[b]:
            return b
    out = np.empty(OUT_CAP, np.int64)
    for b in range(B):
        done_now[b] = False
        c = choice[b]
        if c < 0:
            continue
        step(n, b, keys[b, c], board, hands, draw, disc, info)
        k = legal(n, b, board, hands, info, out)
        if k == 0:
            wins[b] = info[b, WIN]
            done_now[b] = True
            reset(n, b, deck, info[b, FLAGS], info[b, LIMIT], board, hands, draw, info)
            k = legal(n, b, board, hands, info, out)
        counts[b] = k
        keys[b, :k] = out[1:k + 1]
    return -1
