"""The deal shuffle of core/rng.py compiled (Numba, ``cache=True``): xoshiro256** and
Fisher–Yates from the last position down, exactly as ``DealRng.next64``, ``below`` and
``shuffle`` define them (algorithm v1), on unsigned 64-bit words.  ``DealRng.shuffle``
uses it for every shuffle of ``COMPILED_FROM`` items or more (every deal and reshuffle);
tests/core/test_deal_numbers.py checks it against ``below`` draw by draw, and the golden
deals pin both.  Imported on the first such shuffle only (loading Numba costs once)."""

from __future__ import annotations

import numpy as np
from numba import njit

COMPILED_FROM = 16


@njit(cache=True)
def permutation(state: np.ndarray, n: int) -> np.ndarray:
    """The Fisher–Yates permutation of ``range(n)`` drawn from the generator ``state``
    (four uint64 words, advanced in place): item ``perm[i]`` goes to place ``i``."""
    perm = np.arange(n)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    five, nine = np.uint64(5), np.uint64(9)
    k7, k57, k17 = np.uint64(7), np.uint64(57), np.uint64(17)
    k45, k19 = np.uint64(45), np.uint64(19)
    ones, one, zero = np.uint64(0xFFFFFFFFFFFFFFFF), np.uint64(1), np.uint64(0)
    for i in range(n - 1, 0, -1):
        m = np.uint64(i + 1)
        rem = (ones % m + one) % m  # 2**64 mod m
        limit = zero - rem  # 2**64 − rem (0 stands for 2**64: nothing is rejected)
        while True:
            x = s1 * five
            result = ((x << k7) | (x >> k57)) * nine
            t = s1 << k17
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << k45) | (s3 >> k19)
            if rem == zero or result < limit:
                break
        j = np.int64(result % m)
        perm[i], perm[j] = perm[j], perm[i]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return perm
