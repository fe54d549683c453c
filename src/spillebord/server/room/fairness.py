"""Provably fair deals (docs/protocol.md, "Fair deals").

The server draws a table's deal number with ``secrets`` and a random salt, publishes
``commitment(deal, salt)`` when the match is created (match info, ``welcome``, the
create and claim answers) and reveals both when the game is over.  Anyone can then
check that the revealed pair gives the published commitment and that
``games.load(game).new(deal=deal, seats=n, **flags)`` is the game that was played: the
deal was fixed before anyone took a seat, and nobody — the creator included — could
know the other seats' cards.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ALGORITHM = "sha256(deal:salt)"  # named in the match info, so it can change one day


def new_salt() -> str:
    """128 random bits as 32 hex digits: the deal cannot be searched from the seal."""
    return secrets.token_hex(16)


def commitment(deal: int, salt: str) -> str:
    """SHA-256 (hex) of the UTF-8 text ``"<deal in decimal>:<salt>"``."""
    return hashlib.sha256(f"{deal}:{salt}".encode()).hexdigest()


def verify(sealed: str, deal: int, salt: str) -> bool:
    """Whether ``deal`` and ``salt`` are what ``sealed`` committed to."""
    return hmac.compare_digest(sealed, commitment(deal, salt))
