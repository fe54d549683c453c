"""Whole kugler games between two weight sets of the one evaluation (fastplay.py): the
tool that tuned ``TUNED`` (bench/kugler_tune.py).  The deal is the engine's
(``GAME.new``); the game itself runs compiled (fastplay's playout, every seat the
one-ply policy of its team's weights, each with its own hand: no hidden card is read),
≈ 1 ms a game.  A pair of games on one deal (each weight set once as the starting
team) is the unit of comparison."""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.bots.kugler.fastplay import run_greedy
from spillebord.games.kugler import GAME
from spillebord.games.kugler.kernel import GEO, NRANKS, RANK_OF_CODE, finished_mask


@njit(cache=True)
def _game(b: np.ndarray, seats: int, wts: np.ndarray, hands: np.ndarray,
          draw: np.ndarray, seed: int, limit: int, optional: bool, strict: bool,
          helps: bool) -> int:
    np.random.seed(seed)  # the reshuffles of the discards
    g = GEO[seats]
    disc = np.empty(len(draw), dtype=np.int64)
    counts = np.array([len(draw), 0], dtype=np.int64)
    buf = np.empty(len(draw) + 5 * seats, dtype=np.int64)
    buf[: len(draw)] = draw
    run_greedy(b, g, hands, buf, disc, counts, 0, 0, limit, limit, optional, strict,
               helps, wts)
    half = seats // 2
    fin = finished_mask(b, seats)
    won = fin & fin >> half & ((1 << half) - 1)
    for t in range(half):
        if won >> t & 1:
            return t
    return -1


def game(seats: int, wts: np.ndarray, deal: int, **flags: bool) -> int:
    """Deal ``deal`` played to the end, team t by row t of ``wts``: the winning team,
    or −1 at the turn limit."""
    state = GAME.new(deal=deal, seats=seats, **flags)
    hands = np.zeros((seats, NRANKS), dtype=np.int64)
    for s in range(seats):
        for c in state.hands[s]:
            hands[s, RANK_OF_CODE[c]] += 1
    draw = np.array([RANK_OF_CODE[c] for c in reversed(state.draw)], dtype=np.int64)
    f = state.flags
    return int(_game(state._arr.copy(), seats, wts, hands, draw, deal, state.turn_limit,
                     f["optional_home_entry"], f["strict_discard"],
                     f["finished_helps_partner"]))


def duel(a: np.ndarray, b: np.ndarray, first: int, pairs: int, seats: int = 4,
         **flags: bool) -> float:
    """``a``'s score in ``pairs`` pairs of games on deals ``first`` … (in each pair
    ``a`` is team 0 — starting — once and team 1 once; the other teams play ``b``); a
    game at the turn limit counts ½."""
    half = seats // 2
    score = 0.0
    for p in range(pairs):
        for side in range(2):
            wts = np.tile(b, (half, 1))
            wts[side] = a
            w = game(seats, wts, first + p, **flags)
            score += 0.5 if w < 0 else float(w == side)
    return score
