"""The posthus solver's compiled depth-first kernel (Numba, ``cache=True``).

The same search as ``fast.Dfs`` — same moves (rule book posthus, rule 2), same prunings,
same ordering score, same tie-breaks, children marked seen when generated — on numpy
arrays, compiled once and cached on disk.  ``engine.JitDfs`` drives it in chunks of
nodes so that the Python side can watch the clock and grow the arrays.  Keys and the
transposition table: ``table.py`` (exact: the key is the grid itself).

``st`` (int64 scalars, see the ``S_`` indices) holds the search's counters between
chunks; ``path`` rows are ``card, src, dst, run of src row, run of dst row`` before the
move; ``pend`` rows are the not yet tried children ``card, src, dst``, the children of
frame ``f`` from ``fstart[f]``, best last.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spillebord.solvers.posthus.table import SHIFT, _insert_at, _pack, _row_run, _slot

# st indices
S_NODES, S_PLEN, S_NFRAMES, S_NPEND, S_BEST, S_COUNT, S_STATUS = 0, 1, 2, 3, 4, 5, 6
S_OPEN, S_PRUNE, S_BESTLEN, S_ROWS, S_SYM, S_SIZE = 7, 8, 9, 10, 14, 15
# statuses
RUNNING, WIN, EXHAUSTED, PAUSED, GROW = 0, 1, 2, 3, 4
MAX_CHILDREN = 4 * 28  # open_gaps: every card into each of 4 gaps
PATH_COLUMNS, PEND_COLUMNS = 5, 3

PRUNE_KEEPS = np.array([0, 0, 1, 1, 0], dtype=np.int64)
PRUNE_LOOSE = np.array([0, 1, 0, 0, 1], dtype=np.int64)
PRUNE_FORCES = np.array([0, 0, 0, 1, 1], dtype=np.int64)
SEVENS = (1, 8, 15, 22)
# Per card code (0 = gap): its rank 0–6 (7 … K); -1 for a gap.
RANK = np.array([-1] + [(c - 1) % 7 for c in range(1, 29)], dtype=np.int64)


@njit(cache=True, inline="always")
def _make(grid: np.ndarray, pos: np.ndarray, gaps: np.ndarray, runs: np.ndarray,
          rows: np.ndarray, path: np.ndarray, plen: int, card: int, src: int,
          dst: int) -> int:
    srow, drow = src >> 3, dst >> 3
    path[plen, 0], path[plen, 1], path[plen, 2] = card, src, dst
    path[plen, 3], path[plen, 4] = runs[srow], runs[drow]
    grid[src] = 0
    grid[dst] = card
    pos[card] = dst
    for gi in range(4):
        if gaps[gi] == dst:
            gaps[gi] = src
            break
    if src & 7 < runs[srow]:
        runs[srow] = src & 7
    if dst & 7 == runs[drow]:
        runs[drow] = _row_run(grid, dst & 24)
    rows[srow] -= card << SHIFT[src]
    rows[drow] += card << SHIFT[dst]
    return plen + 1


@njit(cache=True, inline="always")
def _unmake(grid: np.ndarray, pos: np.ndarray, gaps: np.ndarray, runs: np.ndarray,
            rows: np.ndarray, path: np.ndarray, plen: int) -> int:
    plen -= 1
    card, src, dst = path[plen, 0], path[plen, 1], path[plen, 2]
    grid[dst] = 0
    grid[src] = card
    pos[card] = src
    for gi in range(4):
        if gaps[gi] == src:
            gaps[gi] = dst
            break
    runs[src >> 3] = path[plen, 3]
    runs[dst >> 3] = path[plen, 4]
    rows[dst >> 3] -= card << SHIFT[dst]
    rows[src >> 3] += card << SHIFT[src]
    return plen


@njit(cache=True, inline="always")
def _score(grid: np.ndarray, runs: np.ndarray, card: int, src: int, dst: int,
           ext: int) -> int:
    """``search.score``: extend a run, empty a run's next place, keep runs, make pairs."""
    col = src & 7
    src_run = runs[src >> 3]
    value = -20 if col < src_run else (4 if col == src_run else 0)
    if ext:
        value += 10
    dcol = dst & 7
    rank = RANK[card]
    pred = card - 1 if rank > 0 else -1
    succ = -1 if rank == 6 else card + 1
    if dcol and grid[dst - 1] == pred:
        value += 1
    if dcol < 7 and grid[dst + 1] == succ:
        value += 1
    if col and grid[src - 1] == pred:
        value -= 1
    if col < 7 and grid[src + 1] == succ:
        value -= 1
    return value


@njit(cache=True)
def run(st: np.ndarray, grid: np.ndarray, pos: np.ndarray, gaps: np.ndarray,
        runs: np.ndarray, table: np.ndarray, path: np.ndarray, pend: np.ndarray,
        fstart: np.ndarray, best_path: np.ndarray, limit: int) -> int:
    """Expand up to ``limit`` more nodes; the status (``WIN``, ``EXHAUSTED``, ``PAUSED``
    or ``GROW`` — the arrays need room first)."""
    open_gaps = st[S_OPEN] != 0
    prune = st[S_PRUNE]
    keeps = PRUNE_KEEPS[prune] != 0
    loose = PRUNE_LOOSE[prune] != 0
    forces = PRUNE_FORCES[prune] != 0
    sym = st[S_SYM] != 0
    rows = np.empty(4, dtype=np.int64)
    for r in range(4):
        rows[r] = st[S_ROWS + r]
    m = np.zeros((MAX_CHILDREN + 8, 4), dtype=np.int64)  # card, src, dst, extends
    fv = np.empty(MAX_CHILDREN + 8, dtype=np.int64)
    fk = np.empty((MAX_CHILDREN + 8, 3), dtype=np.int64)
    fm = np.empty((MAX_CHILDREN + 8, 3), dtype=np.int64)
    cards = np.empty(32, dtype=np.int64)
    kc = np.empty((MAX_CHILDREN + 8, 4), dtype=np.int64)
    cap = table.shape[0]
    mask = cap - 1
    done = 0
    status = PAUSED
    # The counters live in locals during the chunk (written back at its end).
    nodes, count, best = st[S_NODES], st[S_COUNT], st[S_BEST]
    plen, nframes, npend = st[S_PLEN], st[S_NFRAMES], st[S_NPEND]
    while True:
        if done >= limit:
            break
        if (count + MAX_CHILDREN) * 10 > cap * 7 or plen + 2 >= path.shape[0] \
                or npend + MAX_CHILDREN >= pend.shape[0]:
            status = GROW
            break
        done += 1
        nodes += 1
        # --- the moves of the grid (same order as fast.node_moves)
        n = 0
        n_ext = 0
        for gi in range(4):
            gap = gaps[gi]
            gcol = gap & 7
            left = grid[gap - 1] if gcol else 0
            if RANK[left] == 6:
                continue
            right = grid[gap + 1] if gcol < 7 else 0
            nc = 0
            if open_gaps and ((gcol and not left) or (gcol < 7 and not right)):
                for c in range(1, 29):
                    cards[nc] = c
                    nc += 1
            else:
                if gcol and left:
                    cards[nc] = left + 1
                    nc += 1
                if RANK[right] > 0:
                    cards[nc] = right - 1
                    nc += 1
                if gcol == 0:
                    for c in SEVENS:
                        cards[nc] = c
                        nc += 1
            slot = runs[gap >> 3] == gcol
            for j in range(nc):
                card = cards[j]
                src = pos[card]
                if prune:
                    col = src & 7
                    src_run = runs[src >> 3]
                    if col < src_run and (keeps or (loose and src_run > 1
                                                    and col < src_run - 1)):
                        continue
                ext = 0
                if slot:
                    # the left neighbour's successor, or a 7 in column a
                    ext = int(card == left + 1) if gcol else int(RANK[card] == 0)
                m[n, 0], m[n, 1], m[n, 2], m[n, 3] = card, src, gap, ext
                n += 1
                n_ext += ext
        # --- the children's keys; their table slots are read ahead in one pass, so
        # that the memory loads overlap instead of waiting for one another
        touch = 0
        for j in range(n):
            q0, q1, q2, q3 = rows[0], rows[1], rows[2], rows[3]
            card, src, dst = m[j, 0], m[j, 1], m[j, 2]
            ds = card << SHIFT[src]
            dd = card << SHIFT[dst]
            sr, dr = src >> 3, dst >> 3
            if sr == 0:
                q0 -= ds
            elif sr == 1:
                q1 -= ds
            elif sr == 2:
                q2 -= ds
            else:
                q3 -= ds
            if dr == 0:
                q0 += dd
            elif dr == 1:
                q1 += dd
            elif dr == 2:
                q2 += dd
            else:
                q3 += dd
            c0, c1, c2 = _pack(q0, q1, q2, q3, sym)
            kc[j, 0], kc[j, 1], kc[j, 2] = c0, c1, c2
            sl = _slot(c0, c1, c2, mask)
            kc[j, 3] = sl
            touch += table[sl, 0]
        if touch == 1:  # never: keeps the reads
            st[S_STATUS] = RUNNING
        # --- the unseen children, scored
        nf = 0
        won = False
        for j in range(n):
            if forces and n_ext and not m[j, 3]:
                continue
            card, src, dst = m[j, 0], m[j, 1], m[j, 2]
            c0, c1, c2 = kc[j, 0], kc[j, 1], kc[j, 2]
            if not _insert_at(table, kc[j, 3], c0, c1, c2):
                continue
            count += 1
            # Only a move that extends a run can win, and only when the other rows
            # are complete: try it.
            if m[j, 3] and runs[0] + runs[1] + runs[2] + runs[3] - runs[dst >> 3] == 21:
                p = _make(grid, pos, gaps, runs, rows, path, plen, card, src, dst)
                if runs[0] + runs[1] + runs[2] + runs[3] == 28:
                    plen = p
                    won = True
                    break
                _unmake(grid, pos, gaps, runs, rows, path, p)
            value = _score(grid, runs, card, src, dst, m[j, 3])
            # insertion sort: ascending by (value, key)
            i = nf
            while i > 0:
                pv = fv[i - 1]
                if pv < value or (pv == value and (
                        fk[i - 1, 0] < c0 or (fk[i - 1, 0] == c0 and (
                            fk[i - 1, 1] < c1 or (fk[i - 1, 1] == c1
                                                  and fk[i - 1, 2] < c2))))):
                    break
                fv[i] = fv[i - 1]
                fk[i, 0], fk[i, 1], fk[i, 2] = fk[i - 1, 0], fk[i - 1, 1], fk[i - 1, 2]
                fm[i, 0], fm[i, 1], fm[i, 2] = fm[i - 1, 0], fm[i - 1, 1], fm[i - 1, 2]
                i -= 1
            fv[i] = value
            fk[i, 0], fk[i, 1], fk[i, 2] = c0, c1, c2
            fm[i, 0], fm[i, 1], fm[i, 2] = card, src, dst
            nf += 1
        if won:
            best_path[:plen] = path[:plen]
            st[S_BESTLEN] = plen
            best = 28
            status = WIN
            break
        # --- push the frame, then backtrack to the deepest frame with a child left
        fstart[nframes] = npend
        for i in range(nf):
            pend[npend + i, 0], pend[npend + i, 1], pend[npend + i, 2] = \
                fm[i, 0], fm[i, 1], fm[i, 2]
        npend += nf
        nframes += 1
        while nframes > 0 and npend == fstart[nframes - 1]:
            nframes -= 1
            if plen > 0:
                plen = _unmake(grid, pos, gaps, runs, rows, path, plen)
        if nframes == 0:
            status = EXHAUSTED
            break
        npend -= 1
        plen = _make(grid, pos, gaps, runs, rows, path, plen, pend[npend, 0],
                     pend[npend, 1], pend[npend, 2])
        total = runs[0] + runs[1] + runs[2] + runs[3]
        if total > best:
            best = total
            best_path[:plen] = path[:plen]
            st[S_BESTLEN] = plen
    st[S_NODES], st[S_COUNT], st[S_BEST] = nodes, count, best
    st[S_PLEN], st[S_NFRAMES], st[S_NPEND] = plen, nframes, npend
    for r in range(4):
        st[S_ROWS + r] = rows[r]
    st[S_STATUS] = status
    return status
