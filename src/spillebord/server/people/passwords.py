"""Passwords: the rules a new password meets, and Argon2id hashing through argon2-cffi.

Parameters (docs/server.md, "Passwords"; measured by bench/bench_argon2.py): Argon2id,
46 MiB of memory, 1 pass, 1 lane — the first of OWASP's recommended settings — with
16-byte salts and 32-byte hashes.  Argon2 runs off the event loop in two lanes of one
at a time each per worker (so at most two hashes' memory): **new hashes** (sign-up,
password change, re-hash) and **checks** (sign-in, the old password).  A flood of
sign-ups therefore waits in its own lane and never in front of a sign-in; past
``HASH_QUEUE`` waiting new hashes a sign-up is refused at once (``429 busy``).  A
stored hash made with older parameters is re-hashed at the next sign-in.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from spillebord.server.errors import Refusal

MIN_LENGTH = 10
MAX_LENGTH = 128
MIN_DISTINCT = 5
HASH_QUEUE = 16  # new hashes waiting in their lane before sign-ups are refused
# The most used passwords of the big leaks (and this site's own words): refused even
# when long enough.  Compared casefolded.
COMMON = frozenset({
    "1234567890", "12345678910", "0123456789", "1111111111", "0000000000", "qwertyuiop",
    "1q2w3e4r5t", "q1w2e3r4t5", "password123", "password12", "password1!", "passw0rd12",
    "iloveyou12", "qwerty1234", "qwerty12345", "abcdefghij", "abcd123456", "1234qwerty",
    "spillebord", "spillebord1", "spillebord123", "kodeord123", "adgangskode", "hemmelig12",
    "sommer2024", "sommer2025", "sommer2026", "vinter2025", "vinter2026", "letmein123",
    "welcome123", "football12", "superman12", "dragon1234", "monkey1234", "princess12",
})


@dataclass(frozen=True)
class Argon2Params:
    time_cost: int = 1
    memory_kib: int = 47104  # 46 MiB
    parallelism: int = 1

    def hasher(self) -> PasswordHasher:
        return PasswordHasher(time_cost=self.time_cost, memory_cost=self.memory_kib,
                              parallelism=self.parallelism, hash_len=32, salt_len=16,
                              type=Type.ID)


def check_new_password(password: str, name: str | None) -> None:
    """Refuse a password that is too long, too short or too easy to guess."""
    if len(password) > MAX_LENGTH:
        raise Refusal("password_too_long", f"a password has at most {MAX_LENGTH} characters",
                      key="server.password_too_long", params={"max": MAX_LENGTH})
    if len(password) < MIN_LENGTH:
        raise Refusal("weak_password", f"a password has at least {MIN_LENGTH} characters",
                      key="server.password_short", params={"min": MIN_LENGTH})
    folded = password.casefold()
    if len(set(folded)) < MIN_DISTINCT or folded in COMMON or (
            name is not None and name.casefold().replace(" ", "") in folded.replace(" ", "")):
        raise Refusal("weak_password", "this password is too easy to guess",
                      key="server.password_guessable")


class Passwords:
    """Hash and verify off the event loop, a few at a time."""

    def __init__(self, params: Argon2Params) -> None:
        self.params = params
        self._hasher = params.hasher()
        self._lanes: dict[str, asyncio.Semaphore] = {}
        self.waiting = {"hash": 0, "verify": 0}  # callers queued or running, per lane
        # Verified when the name is unknown, so that answer takes as long as a wrong
        # password for a real account.
        self._dummy = self._hasher.hash("a password nobody has")

    def _lane(self, name: str) -> asyncio.Semaphore:
        if name not in self._lanes:  # made on the event loop that uses it
            self._lanes[name] = asyncio.Semaphore(1)
        return self._lanes[name]

    async def hash(self, password: str) -> str:
        if self.waiting["hash"] > HASH_QUEUE:
            raise Refusal("busy", "too many sign-ups at once; try again in a moment", 429,
                          key="server.busy")
        self.waiting["hash"] += 1
        try:
            async with self._lane("hash"):
                return await asyncio.to_thread(self._hasher.hash, password)
        finally:
            self.waiting["hash"] -= 1

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: an unknown name — the dummy
        hash is verified anyway and the answer is False)."""
        self.waiting["verify"] += 1
        try:
            async with self._lane("verify"):
                return await asyncio.to_thread(self._verify, stored, password)
        finally:
            self.waiting["verify"] -= 1

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            ok = self._hasher.verify(stored or self._dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self._hasher.check_needs_rehash(stored)
