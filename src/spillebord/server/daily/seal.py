"""The sealed daily deal (issue 28; docs/protocol.md, "Checking a daily deal"): each
day's deal is chosen from a secret only the server knows, committed to ahead of the
day, and revealed when the day is over.

- ``start = HMAC-SHA256(secret, "spillebord daily deal <game> <YYYY-MM-DD>")``, its
  first 8 bytes as a big-endian number modulo 2⁶²; the day's deal is the first number
  ``start``, ``start + 1`` … that the game's solver proves winnable.  Nobody without
  the secret can compute it, and from the whole range of deal numbers (not a shipped
  table of a few hundred, whose layouts anyone could generate and recognise) the first
  layout does not give the number away.
- ``salt = HMAC-SHA256(secret, "spillebord daily salt <game> <YYYY-MM-DD>")``, the first
  32 hex digits; the commitment is ``fairness.commitment(deal, salt)`` — SHA-256 of the
  text ``"<deal>:<salt>"``, as at the tables.
- The commitments of today and the next days are public; deal, salt and ``start`` only
  after the day (Europe/Copenhagen).  Anyone then checks SHA-256(``"<deal>:<salt>"``)
  against the commitment they saw before, and ``games.load(game).new(deal=deal)``
  against the layout they played.

The secret is ``Settings.daily_secret`` or, when unset, 64 random hex digits generated
once and kept in the database (``storage/secrets.py``).  It is never logged and never
in an answer; changing it changes only days not yet chosen (a chosen day's deal and salt
are stored with it).
"""

from __future__ import annotations

import hashlib
import hmac

from spillebord.server.room import fairness

SECRET_NAME = "daily"
RANGE = 2**62  # starts stay well below the deal limit of 2⁶³ even after solver steps


def _mac(secret: str, text: str) -> bytes:
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).digest()


def start_of(secret: str, game: str, day: str) -> int:
    return int.from_bytes(_mac(secret, f"spillebord daily deal {game} {day}")[:8],
                          "big") % RANGE


def salt_of(secret: str, game: str, day: str) -> str:
    return _mac(secret, f"spillebord daily salt {game} {day}").hex()[:32]


def commitment(deal: int, salt: str) -> str:
    return fairness.commitment(deal, salt)
