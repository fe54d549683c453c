"""Deal numbers: the versioned algorithm that turns (game, seats, deal number) into every
shuffle a game will ever need.

Algorithm ``v1`` (documented in docs/notation.md, pinned by golden tests):

1. The *stream key* is the UTF-8 text
   ``spillebord/deal/v1|<game>|<flags>|<seats>|<deal>|<stream>`` where ``<flags>`` lists
   only the flags that change the cards (``name=value`` sorted, joined by ``,``; empty for
   every current game), and ``<stream>`` names the shuffle: ``deal`` for the first deal,
   ``redeal/1``, ``reshuffle/3`` … for later ones.
2. SHA-256 of the key gives 32 bytes = four little-endian 64-bit words, the state of a
   xoshiro256** generator (https://prng.di.unimi.it/, public-domain algorithm).
3. ``below(n)`` draws 64-bit outputs and rejects those ≥ 2**64 − (2**64 mod n), then
   returns the output mod n (no modulo bias).
4. ``shuffle`` is Fisher–Yates from the last position down: for i = n−1 … 1,
   j = below(i + 1), swap items i and j.

Only integer arithmetic and SHA-256 are used, so the result is the same on every
install and every Python version.  Changing any step means a new version string.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

DEAL_ALGORITHM_VERSION = "v1"
_MASK = (1 << 64) - 1
T = TypeVar("T")


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


class DealRng:
    """xoshiro256** seeded from a stream key; deterministic everywhere."""

    __slots__ = ("_s",)

    def __init__(self, key: str) -> None:
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        s = [int.from_bytes(digest[i : i + 8], "little") for i in range(0, 32, 8)]
        if not any(s):  # pragma: no cover - SHA-256 giving 32 zero bytes
            s[0] = 1
        self._s = s

    def next64(self) -> int:
        s = self._s
        result = (_rotl((s[1] * 5) & _MASK, 7) * 9) & _MASK
        t = (s[1] << 17) & _MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher–Yates from the last position down, j = ``below(i + 1)``
        for i = n−1 … 1.  From ``COMPILED_FROM`` items on (every deal and reshuffle) the
        same draws come from the compiled kernel (core/rng_kernel.py, ≈ 50× faster);
        tests/core/test_deal_numbers.py checks both against ``below``."""
        out = list(items)
        if len(out) >= 16:
            kernel = _KERNEL or _load_kernel()
            state = kernel[1](self._s, dtype=kernel[2])
            perm = kernel[0](state, len(out))
            self._s = state.tolist()
            return list(map(out.__getitem__, perm.tolist()))
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


_KERNEL: tuple[Any, Any, Any] | None = None  # (permutation, np.array, np.uint64)


def _load_kernel() -> tuple[Any, Any, Any]:
    """The compiled shuffle, loaded on the first shuffle that uses it (Numba and numpy
    are imported then, not with this module)."""
    global _KERNEL
    import numpy as np

    from spillebord.core.rng_kernel import permutation

    _KERNEL = (permutation, np.array, np.uint64)
    return _KERNEL


def stream_key(
    game: str, seats: int, deal: int, stream: str = "deal",
    flags: Mapping[str, object] | None = None,
) -> str:
    if deal < 0:
        raise ValueError("a deal number is a non-negative integer")
    given: Mapping[str, object] = flags or {}
    flag_text = ",".join(f"{k}={given[k]}" for k in sorted(given))
    return f"spillebord/deal/{DEAL_ALGORITHM_VERSION}|{game}|{flag_text}|{seats}|{deal}|{stream}"


def deal_rng(
    game: str, seats: int, deal: int, stream: str = "deal",
    flags: Mapping[str, object] | None = None,
) -> DealRng:
    """The generator for one shuffle of one deal.  ``flags`` are only those that change
    the cards; pass none for the current games."""
    return DealRng(stream_key(game, seats, deal, stream, flags))


def fresh_deal(rng: random.Random) -> int:
    """A deal number drawn from ``rng`` alone: what a ``State.resample`` puts in place of
    the true one, so a resampled state's later shuffles (kugler's reshuffles, posthus'
    redeals) are drawn afresh and the true deal number (which holds the future and, with
    the position, the hidden cards) is not kept."""
    return rng.getrandbits(31)


def shuffled(
    cards: Sequence[T], game: str, seats: int, deal: int, stream: str = "deal",
    flags: Mapping[str, object] | None = None,
) -> list[T]:
    """``cards`` shuffled by the named stream of a deal."""
    return deal_rng(game, seats, deal, stream, flags).shuffle(cards)
