"""Kugler og Jokere's batched env in compiled code (Numba, ``cache=True``): every game's
observation, its legal actions in the PettingZoo env's action space and a batch step by
action index, for ``KuglerBatch`` (research/kugler_batch.py; docs/research.md, "Vector
engine").

Nothing here is a second encoder: the observation is ``kugler_encode.observe_into`` (the
single-game env's, equal to ``KuglerCodec.observe``) written into row ``b`` of a batch
array, and an action index is ``kugler_encode.index_of`` of a legal kernel key (the
codec's index).  The turn is the batch turn loop's (research/kugler_kernel.py: ``step``,
``legal``, ``reset``).  Per game ``b`` this keeps, beside the kernel's ``counts[b]`` and
``keys[b, :counts[b]]`` (the engine's order), ``actions[b, :counts[b]]`` — each key's
action index — and ``masks[b]`` (int8, ``n_actions``) with exactly those set; a step
clears the previous game's entries only, so a mask costs its legal moves, not its width.
No Python runs per game per step.  tests/research/test_kugler_batch_env.py checks every
array equal to the codec's on the engine's states of many games.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.games.kugler.board import FIELDS_PER_SEAT
from spillebord.games.kugler.kernel import GEO, OUT_CAP
from spillebord.research.kugler_encode import _slots, index_of, observe_into
from spillebord.research.kugler_kernel import (
    FLAGS,
    LIMIT,
    TURN,
    WIN,
    colour,
    legal,
    reset,
    step,
)


@njit(cache=True)
def list_actions(n: int, b: int, board: np.ndarray, info: np.ndarray, counts: np.ndarray,
                 keys: np.ndarray, offset: np.ndarray, actions: np.ndarray,
                 masks: np.ndarray, slot: np.ndarray) -> None:
    """Game ``b``'s legal keys (``keys[b, :counts[b]]``) as action indices into
    ``actions[b]`` and set in ``masks[b]`` (whose old entries the caller cleared).
    ``slot``: scratch of the board's size (only the moved colour's fields are written,
    and only those read)."""
    k = counts[b]
    if k == 0:
        return
    g = GEO[n]
    track = FIELDS_PER_SEAT * n
    me = info[b, TURN]
    c = colour(info, b, n)
    if c >= 0:
        _slots(board[b], g, c, track, slot)
    for j in range(k):
        i = index_of(g, me, c, track, keys[b, j], offset, slot)
        actions[b, j] = i
        masks[b, i] = 1


@njit(cache=True)
def _clear(b: int, counts: np.ndarray, actions: np.ndarray, masks: np.ndarray) -> None:
    for j in range(counts[b]):
        masks[b, actions[b, j]] = 0


@njit(cache=True)
def _list(n: int, b: int, board: np.ndarray, hands: np.ndarray, info: np.ndarray,
          counts: np.ndarray, keys: np.ndarray, out: np.ndarray) -> int:
    k = legal(n, b, board, hands, info, out)
    counts[b] = k
    keys[b, :k] = out[1:k + 1]
    return k


@njit(cache=True)
def _advance(n: int, b: int, key: int, board: np.ndarray, hands: np.ndarray,
             draw: np.ndarray, disc: np.ndarray, info: np.ndarray, counts: np.ndarray,
             keys: np.ndarray, deck: np.ndarray, done_now: np.ndarray, wins: np.ndarray,
             out: np.ndarray) -> None:
    """Game ``b`` plays ``key``; a game that ends is reported and dealt afresh."""
    step(n, b, key, board, hands, draw, disc, info)
    if _list(n, b, board, hands, info, counts, keys, out) == 0:
        wins[b] = info[b, WIN]
        done_now[b] = True
        reset(n, b, deck, info[b, FLAGS], info[b, LIMIT], board, hands, draw, info)
        _list(n, b, board, hands, info, counts, keys, out)


@njit(cache=True)
def settle(n: int, b: int, board: np.ndarray, hands: np.ndarray, draw: np.ndarray,
           disc: np.ndarray, info: np.ndarray, counts: np.ndarray, keys: np.ndarray,
           offset: np.ndarray, actions: np.ndarray, masks: np.ndarray, deck: np.ndarray,
           done_now: np.ndarray, wins: np.ndarray, auto_forced: bool) -> None:
    """Game ``b``'s legal list, mask and actions afresh (after a deal or a load; with
    ``auto_forced``, a lone legal move is played first, as ``step`` does)."""
    masks[b, :] = 0
    out = np.empty(OUT_CAP, np.int64)
    _list(n, b, board, hands, info, counts, keys, out)
    while auto_forced and counts[b] == 1:
        _advance(n, b, keys[b, 0], board, hands, draw, disc, info, counts, keys, deck,
                 done_now, wins, out)
    list_actions(n, b, board, info, counts, keys, offset, actions, masks,
                 np.empty(board.shape[1], dtype=np.int64))


@njit(cache=True)
def step_actions(n: int, act: np.ndarray, board: np.ndarray, hands: np.ndarray,
                 draw: np.ndarray, disc: np.ndarray, info: np.ndarray, counts: np.ndarray,
                 keys: np.ndarray, offset: np.ndarray, actions: np.ndarray,
                 masks: np.ndarray, deck: np.ndarray, done_now: np.ndarray,
                 wins: np.ndarray, auto_forced: bool) -> int:
    """Game ``b`` plays action index ``act[b]`` (−1: none) for its seat to move; a game
    that ends is dealt afresh (``done_now[b]``, its winning team in ``wins[b]``); with
    ``auto_forced`` every lone legal move after it is played too.  Returns the first game
    whose action is not in its mask (nothing moved then), else −1."""
    B = act.shape[0]
    width = masks.shape[1]
    for b in range(B):
        a = act[b]
        if a < -1 or a >= width or (a >= 0 and masks[b, a] == 0):
            return b
    out = np.empty(OUT_CAP, np.int64)
    slot = np.empty(board.shape[1], dtype=np.int64)
    for b in range(B):
        done_now[b] = False
        a = act[b]
        if a < 0:
            continue
        j = 0
        while actions[b, j] != a:
            j += 1
        _clear(b, counts, actions, masks)
        _advance(n, b, keys[b, j], board, hands, draw, disc, info, counts, keys, deck,
                 done_now, wins, out)
        while auto_forced and counts[b] == 1:
            _advance(n, b, keys[b, 0], board, hands, draw, disc, info, counts, keys,
                     deck, done_now, wins, out)
        list_actions(n, b, board, info, counts, keys, offset, actions, masks, slot)
    return -1


@njit(cache=True)
def observe_movers(n: int, board: np.ndarray, hands: np.ndarray, disc: np.ndarray,
                   info: np.ndarray, obs: np.ndarray) -> None:
    """``obs[b]``: game ``b``'s observation for its seat to move."""
    for b in range(obs.shape[0]):
        observe_into(n, b, info[b, TURN], board, hands, disc, info, obs[b])


@njit(cache=True)
def observe_seat(n: int, b: int, seat: int, board: np.ndarray, hands: np.ndarray,
                 disc: np.ndarray, info: np.ndarray, out: np.ndarray) -> None:
    """``out``: seat ``seat``'s observation of game ``b``."""
    observe_into(n, b, seat, board, hands, disc, info, out)
