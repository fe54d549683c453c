"""The compiled kernel's grid keys and transposition table (Numba, ``cache=True``).

Key: the grid itself.  Each row is a 40-bit number (5 bits per place, column a highest),
and the 160-bit number ``row1 row2 row3 row4`` is cut into three non-negative int64
words, so comparing the words in order compares grids place by place from a1, like
``fast``'s integer keys.  The table is an open-addressing hash set (linear probing)
that stores all three words and compares all of them: no collision can hide a grid, so
an exhausted exact search is still a proof.  Word 0 is never 0 (row 1 holds at most 4
gaps), so 0 marks an empty slot.

With ``sym`` the rows are sorted before packing: grids that differ only by the order of
their rows share a key.  That is sound (rule 2 and the win are the same in every row, so
a row permutation maps moves to moves and wins to wins) but not used by ``solve``:
measured, it saves under 1% of the grids (deal 192: 2,121,729 against 2,136,491).
"""

from __future__ import annotations

import numpy as np
from numba import njit

SHIFT = np.array([5 * (7 - i % 8) for i in range(32)], dtype=np.int64)


def row_values(grid: bytes) -> list[int]:
    """Each row as a 40-bit number, column a in the highest 5 bits."""
    rows = [0, 0, 0, 0]
    for i, v in enumerate(grid):
        rows[i >> 3] |= v << int(SHIFT[i])
    return rows


@njit(cache=True, inline="always")
def _pack(r0: int, r1: int, r2: int, r3: int, sym: bool) -> tuple[int, int, int]:
    """The table key of a grid given by its rows: the 160-bit number ``r0 r1 r2 r3``
    cut into three non-negative words (63, 63 and 34 bits), so that comparing the words
    in order compares grids place by place from a1.  With ``sym`` the rows are sorted
    first: grids that differ only by the order of their rows get one key."""
    if sym:
        if r0 > r1:
            r0, r1 = r1, r0
        if r2 > r3:
            r2, r3 = r3, r2
        if r0 > r2:
            r0, r2 = r2, r0
        if r1 > r3:
            r1, r3 = r3, r1
        if r1 > r2:
            r1, r2 = r2, r1
    w0 = (r0 << 23) | (r1 >> 17)
    w1 = ((r1 & 0x1FFFF) << 46) | (r2 << 6) | (r3 >> 34)
    w2 = r3 & 0x3FFFFFFFF
    return w0, w1, w2


def start_key(grid: bytes, sym: bool) -> tuple[int, int, int]:
    r = row_values(grid)
    if sym:
        r.sort()
    return (r[0] << 23) | (r[1] >> 17), ((r[1] & 0x1FFFF) << 46) | (r[2] << 6) | (
        r[3] >> 34), r[3] & 0x3FFFFFFFF


@njit(cache=True, inline="always")
def _slot(k0: int, k1: int, k2: int, mask: int) -> int:
    h = k0 * 0x1E3779B97F4A7C15 + k1 * 0x42B2AE3D27D4EB4F + k2 * 0x165667B19E3779F9
    return (h ^ (h >> 31)) & mask


@njit(cache=True)
def insert(table: np.ndarray, k0: int, k1: int, k2: int) -> bool:
    """Add a key; False when it was already there."""
    return _insert_at(table, _slot(k0, k1, k2, table.shape[0] - 1), k0, k1, k2)


@njit(cache=True, inline="always")
def _insert_at(table: np.ndarray, i: int, k0: int, k1: int, k2: int) -> bool:
    mask = table.shape[0] - 1
    while table[i, 0] != 0:
        if table[i, 0] == k0 and table[i, 1] == k1 and table[i, 2] == k2:
            return False
        i = (i + 1) & mask
    table[i, 0] = k0
    table[i, 1] = k1
    table[i, 2] = k2
    return True


@njit(cache=True)
def rehash(old: np.ndarray, new: np.ndarray) -> None:
    for i in range(old.shape[0]):
        if old[i, 0] != 0:
            insert(new, old[i, 0], old[i, 1], old[i, 2])


@njit(cache=True, inline="always")
def _row_run(grid: np.ndarray, base: int) -> int:
    v = grid[base]
    if v == 0 or (v - 1) % 7 != 0:
        return 0
    n = 1
    while n < 7 and grid[base + n] == v + n:
        n += 1
    return n
