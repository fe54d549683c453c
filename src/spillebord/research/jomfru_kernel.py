"""Gammel Jomfru's rules compiled (Numba, ``cache=True``) over a batch of games, for
batched random playouts and the batched env (research/jomfru_batch.py;
docs/research.md, "Vector engine").  The rules are those of games/gammel_jomfru (rules.py,
actions.py, state.py); tests/research/test_jomfru_batch.py replays random batches
through both and checks every legal list, position and outcome equal.

Cards are 0 … 51 in ``one_deck()`` order (suit-major C D H S, rank A 2 … K: ``code =
13 × suit + rank``).  One game ``b`` of a batch is a row of these arrays (``n`` seats):

- ``down[b, s, :]`` seat ``s``'s face-down pile in turning order from ``dstart[b, s]``
  (``dlen`` cards); ``up[b, s, :ulen]`` its face-up pile bottom to top;
- ``ctop[b, :cn]`` the centre piles' tops in started order;
- ``info[b, :]``: ``TURN`` (the seat to move), ``TURNED`` (the turned card, −1 none),
  ``TURNS`` (completed turns), ``OUTN`` (seats out), ``DONE`` (0/1), ``LIMIT``;
- ``outs[b, :]`` the seats in the order they went out; ``flags[b, s]`` bit 0 out, bit 1
  recycled.

Action ids (the engine's texts): 0 ``turn``, 1 ``centre``, 2 ``keep``, 3 … 6 ``c1`` …
``c4``, 7 + p ``pP``.  ``legal`` writes them in the engine's order (``c…`` then ``p…``,
ascending).
"""

from __future__ import annotations

import numpy as np
from numba import njit

TURN, TURNED, TURNS, OUTN, DONE, LIMIT, NEAREST = 0, 1, 2, 3, 4, 5, 6
NINFO = 7
A_TURN, A_CENTRE, A_KEEP, A_C1, A_P0 = 0, 1, 2, 3, 7
N_ACTIONS = 15
OUT, RECYCLED = 1, 2


@njit(cache=True)
def value(card: int) -> int:
    """Rule 1: 2 … 13 for 2 … K, 14 for an ace."""
    r = card % 13
    return 14 if r == 0 else r + 1


@njit(cache=True)
def centre_next(card: int) -> int:
    """Rule 2: the card that fits on this centre top (same suit, one lower), or −1."""
    r = card % 13
    if r == 0:
        return card + 12  # A → K
    if r >= 2:
        return card - 1
    return -1


@njit(cache=True)
def fits_player(card: int, top: int) -> bool:
    """Rule 2: one rank higher or lower, suit ignored; aces never."""
    if card % 13 == 0 or top % 13 == 0:
        return False
    d = value(card) - value(top)
    return d == 1 or d == -1


@njit(cache=True)
def legal(n: int, b: int, info: np.ndarray, up: np.ndarray, ulen: np.ndarray,
          ctop: np.ndarray, cn: np.ndarray, out: np.ndarray) -> int:
    """The legal action ids of game ``b`` into ``out``, in the engine's order; their
    number (0 when the game is over)."""
    if info[b, DONE]:
        return 0
    card = info[b, TURNED]
    if card < 0:
        out[0] = A_TURN
        return 1
    if card % 13 == 0:
        out[0] = A_CENTRE
        return 1
    k = 0
    for i in range(cn[b]):
        if centre_next(ctop[b, i]) == card:
            out[k] = A_C1 + i
            k += 1
    t = info[b, TURN]
    if info[b, NEAREST]:
        if k > 0:
            return k
        for j in range(1, n):
            p = (t + j) % n
            if ulen[b, p] > 0 and fits_player(card, up[b, p, ulen[b, p] - 1]):
                out[0] = A_P0 + p
                return 1
        out[0] = A_KEEP
        return 1
    for p in range(n):
        if p != t and ulen[b, p] > 0 and fits_player(card, up[b, p, ulen[b, p] - 1]):
            out[k] = A_P0 + p
            k += 1
    if k == 0:
        out[0] = A_KEEP
        return 1
    return k


@njit(cache=True)
def _next_holder(n: int, b: int, seat: int, flags: np.ndarray) -> int:
    for j in range(1, n + 1):
        s = (seat + j) % n
        if not flags[b, s] & OUT:
            return s
    return seat


@njit(cache=True)
def _pass_turn(n: int, b: int, info: np.ndarray, flags: np.ndarray) -> None:
    info[b, TURN] = _next_holder(n, b, info[b, TURN], flags)
    info[b, TURNS] += 1
    if info[b, OUTN] >= n - 1 or info[b, TURNS] >= info[b, LIMIT]:
        info[b, DONE] = 1


@njit(cache=True)
def step(n: int, b: int, a: int, info: np.ndarray, down: np.ndarray, dstart: np.ndarray,
         dlen: np.ndarray, up: np.ndarray, ulen: np.ndarray, ctop: np.ndarray,
         cn: np.ndarray, outs: np.ndarray, flags: np.ndarray) -> None:
    """Apply the legal action id ``a`` to game ``b`` (not checked: take it from
    ``legal``)."""
    t = info[b, TURN]
    if a == A_TURN:
        if dlen[b, t] == 0:  # rule 4: the face-up pile turned over, unshuffled
            m = ulen[b, t]
            for i in range(m):
                down[b, t, i] = up[b, t, i]
            dstart[b, t] = 0
            dlen[b, t] = m
            ulen[b, t] = 0
            flags[b, t] |= RECYCLED
        info[b, TURNED] = down[b, t, dstart[b, t]]
        dstart[b, t] += 1
        dlen[b, t] -= 1
        return
    card = info[b, TURNED]
    info[b, TURNED] = -1
    if a == A_KEEP:  # rule 2: fits nowhere; face up on the own pile, the turn passes
        up[b, t, ulen[b, t]] = card
        ulen[b, t] += 1
        _pass_turn(n, b, info, flags)
        return
    if a == A_CENTRE:
        ctop[b, cn[b]] = card
        cn[b] += 1
    elif a < A_P0:
        ctop[b, a - A_C1] = card
    else:
        p = a - A_P0
        up[b, p, ulen[b, p]] = card
        ulen[b, p] += 1
    if dlen[b, t] > 0 or ulen[b, t] > 0:
        return  # rule 3: the same player goes on
    flags[b, t] |= OUT  # rule 5: out at once
    outs[b, info[b, OUTN]] = t
    info[b, OUTN] += 1
    _pass_turn(n, b, info, flags)


@njit(cache=True)
def reset(n: int, b: int, limit: int, nearest: bool, info: np.ndarray, down: np.ndarray,
          dstart: np.ndarray, dlen: np.ndarray, ulen: np.ndarray, cn: np.ndarray,
          flags: np.ndarray, deck: np.ndarray) -> None:
    """A fresh deal for game ``b`` from Numba's generator (seed it with ``seed``): the
    deck shuffled uniformly and dealt as the engine deals (rule 1: card ``i`` of the
    shuffled deck to seat ``i mod n``, each pile turned from its last card dealt)."""
    for i in range(52):
        deck[i] = i
    np.random.shuffle(deck)
    for s in range(n):
        k = 0
        for i in range(52 - 1 - ((52 - 1 - s) % n), -1, -n):
            down[b, s, k] = deck[i]
            k += 1
        dstart[b, s] = 0
        dlen[b, s] = k
        ulen[b, s] = 0
        flags[b, s] = 0
    cn[b] = 0
    info[b, TURN] = 0
    info[b, TURNED] = -1
    info[b, TURNS] = 0
    info[b, OUTN] = 0
    info[b, DONE] = 0
    info[b, LIMIT] = limit
    info[b, NEAREST] = 1 if nearest else 0


@njit(cache=True)
def seed(s: int) -> None:
    np.random.seed(s)


@njit(cache=True)
def loser(n: int, b: int, info: np.ndarray, dlen: np.ndarray, ulen: np.ndarray,
          flags: np.ndarray) -> int:
    """Rules 5–6: the seat left holding cards, or at the turn limit the one holding the
    most (ties: the later seat)."""
    best, worst = -1, -1
    for s in range(n):
        if flags[b, s] & OUT:
            continue
        held = dlen[b, s] + ulen[b, s]
        if info[b, TURNED] >= 0 and s == info[b, TURN]:
            held += 1
        if held >= best:
            best, worst = held, s
    return worst


@njit(cache=True)
def random_playouts(n: int, games: int, limit: int, nearest: bool, s: int,
                    losers: np.ndarray, lengths: np.ndarray) -> int:
    """``games`` random games (every action uniform among the legal ones) from fresh
    deals, one after another in one batch slot; each game's loser and action count into
    ``losers`` / ``lengths``; the total number of actions."""
    np.random.seed(s)
    info = np.zeros((1, NINFO), np.int32)
    down = np.zeros((1, n, 52), np.int8)
    up = np.zeros((1, n, 52), np.int8)
    dstart = np.zeros((1, n), np.int16)
    dlen = np.zeros((1, n), np.int16)
    ulen = np.zeros((1, n), np.int16)
    ctop = np.zeros((1, 4), np.int8)
    cn = np.zeros(1, np.int8)
    outs = np.zeros((1, n), np.int8)
    flags = np.zeros((1, n), np.int8)
    deck = np.zeros(52, np.int8)
    acts = np.zeros(N_ACTIONS, np.int8)
    total = 0
    for g in range(games):
        reset(n, 0, limit, nearest, info, down, dstart, dlen, ulen, cn, flags, deck)
        steps = 0
        while True:
            k = legal(n, 0, info, up, ulen, ctop, cn, acts)
            if k == 0:
                break
            a = acts[0] if k == 1 else acts[np.random.randint(k)]
            step(n, 0, a, info, down, dstart, dlen, up, ulen, ctop, cn, outs, flags)
            steps += 1
        losers[g] = loser(n, 0, info, dlen, ulen, flags)
        lengths[g] = steps
        total += steps
    return total


@njit(cache=True)
def step_batch(n: int, actions: np.ndarray, info: np.ndarray, down: np.ndarray,
               dstart: np.ndarray, dlen: np.ndarray, up: np.ndarray, ulen: np.ndarray,
               ctop: np.ndarray, cn: np.ndarray, outs: np.ndarray, flags: np.ndarray,
               masks: np.ndarray, done_now: np.ndarray, losers: np.ndarray,
               deck: np.ndarray, auto_forced: bool) -> int:
    """One action id per game (−1: leave the game as it is); a game that ends is dealt
    afresh (its loser in ``losers``, ``done_now`` set); with ``auto_forced`` every
    position with a single legal action is played on.  Refreshes ``masks``; returns the
    index of the first game whose action was not legal (nothing moved then), else −1."""
    B = actions.shape[0]
    acts = np.zeros(N_ACTIONS, np.int8)
    for b in range(B):
        a = actions[b]
        if a >= 0 and (a >= N_ACTIONS or masks[b, a] == 0):
            return b
    for b in range(B):
        done_now[b] = False
        a = actions[b]
        if a < 0:
            continue
        step(n, b, a, info, down, dstart, dlen, up, ulen, ctop, cn, outs, flags)
        while True:
            k = legal(n, b, info, up, ulen, ctop, cn, acts)
            if k == 0:
                losers[b] = loser(n, b, info, dlen, ulen, flags)
                done_now[b] = True
                reset(n, b, info[b, LIMIT], info[b, NEAREST] == 1, info, down, dstart,
                      dlen, ulen, cn, flags, deck)
                continue
            if k == 1 and auto_forced:
                step(n, b, acts[0], info, down, dstart, dlen, up, ulen, ctop, cn, outs,
                     flags)
                continue
            break
        masks[b, :] = 0
        for i in range(k):
            masks[b, acts[i]] = 1
    return -1


@njit(cache=True)
def draw(k: int) -> int:
    """``np.random.randint(k)`` from Numba's generator (the one ``random_playouts``
    draws from), for replaying a playout outside compiled code."""
    return np.random.randint(k)


@njit(cache=True)
def observe(n: int, b: int, me: int, info: np.ndarray, dlen: np.ndarray, up: np.ndarray,
            ulen: np.ndarray, ctop: np.ndarray, cn: np.ndarray, outs: np.ndarray,
            flags: np.ndarray, out: np.ndarray) -> None:
    """Seat ``me``'s observation of game ``b`` into ``out`` (zeroed here): exactly
    ``JomfruCodec(n).observe(view)`` (research/jomfru.py documents the layout), from the
    public parts only — pile sizes, face-up piles, centre tops, the turned card, who is
    out and when, recycling and the counters; never a face-down card."""
    out[:] = 0.0
    block = 6 + 2 * 52
    for r in range(n):
        s = (me + r) % n
        at = r * block
        held = dlen[b, s] + ulen[b, s]
        if info[b, TURNED] >= 0 and s == info[b, TURN]:
            held += 1
        out[at] = dlen[b, s] / 52.0
        out[at + 1] = ulen[b, s] / 52.0
        out[at + 2] = held / 52.0
        if flags[b, s] & OUT:
            for i in range(info[b, OUTN]):
                if outs[b, i] == s:
                    out[at + 3] = 1.0
                    out[at + 4] = (i + 1) / n
        if flags[b, s] & RECYCLED:
            out[at + 5] = 1.0
        m = ulen[b, s]
        if m > 0:
            out[at + 6 + up[b, s, m - 1]] = 1.0
            for i in range(m):
                out[at + 6 + 52 + up[b, s, i]] = 1.0
    at = n * block
    if not info[b, DONE]:
        out[at + (info[b, TURN] - me) % n] = 1.0
    at += n
    if info[b, TURNED] >= 0:
        out[at + info[b, TURNED]] = 1.0
    at += 52
    for k in range(cn[b]):
        out[at + k * 52 + ctop[b, k]] = 1.0
    out[at + 4 * 52] = info[b, TURNS] / info[b, LIMIT]


@njit(cache=True)
def observe_movers(n: int, info: np.ndarray, dlen: np.ndarray, up: np.ndarray,
                   ulen: np.ndarray, ctop: np.ndarray, cn: np.ndarray, outs: np.ndarray,
                   flags: np.ndarray, obs: np.ndarray) -> None:
    """Every game's observation for its seat to move, into ``obs`` (B, size)."""
    for b in range(obs.shape[0]):
        observe(n, b, info[b, TURN], info, dlen, up, ulen, ctop, cn, outs, flags, obs[b])
