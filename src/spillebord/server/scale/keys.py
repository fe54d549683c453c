"""Advisory-lock keys (no database driver needed to compute them)."""

from __future__ import annotations

import hashlib


def lock_key(name: str) -> int:
    """A signed 64-bit PostgreSQL advisory-lock key for ``name`` (a match id, or a
    fixed name such as "migrations"), namespaced by a prefix; a collision between two
    names only makes them wait for each other."""
    digest = hashlib.blake2b(b"spillebord:" + name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
