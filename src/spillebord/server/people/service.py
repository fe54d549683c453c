"""Names, accounts and sign-in sessions as the API uses them (docs/server.md, "Names
and accounts"; routes in people/routes.py).

A *guest* is a player id (``POST /api/players``) that the browser keeps; it can take a
display name at once.  Signing up gives that same player id a password, so its games
and statistics stay.  From then on the id acts only together with a sign-in session:
a random cookie value of which the database keeps the SHA-256.  A wrong password and
an unknown name get the same answer after the same Argon2 work; failures slow down
further tries per name and per address (``Throttle``).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from spillebord.server.errors import Refusal
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage.repo import now
from spillebord.server.people.names import check_name, legacy_key, name_key
from spillebord.server.people.passwords import Argon2Params, Passwords, check_new_password
from spillebord.server.people.storage import PeopleRepo, Person


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bad_sign_in() -> Refusal:
    # One answer for an unknown name and a wrong password.
    return Refusal("bad_sign_in", "the name or the password is wrong", 401)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new session: its cookie value goes to the browser once."""

    player_id: str
    name: str
    token: str


class Throttle:
    """The slow-down after failed sign-ins: ``signin_free`` failures per key are free,
    then each try waits ``signin_delay`` seconds, doubled with every further failure, at
    most ``signin_max_delay``.  Failures are counted before the password is checked, so
    parallel tries count too; a success takes its own back."""

    def __init__(self, repo: PeopleRepo, settings: Settings) -> None:
        self.repo = repo
        self.settings = settings

    def wait(self, failures: int) -> float:
        s = self.settings
        if failures < s.signin_free:
            return 0.0
        return float(min(s.signin_max_delay, s.signin_delay * 2 ** (failures - s.signin_free)))

    async def enter(self, keys: list[str]) -> None:
        """Refuse (429) while any key must still wait; else count a failure in advance."""
        when = now()
        forget = when - timedelta(seconds=self.settings.signin_forget)
        left = await asyncio.to_thread(self.repo.attempt, keys, when, forget, self.wait)
        if left > 0:
            seconds = math.ceil(left)
            raise Refusal("too_many_tries", f"too many failed sign-ins; try again in "
                                            f"{seconds} s", 429,
                          key="server.too_many_tries", params={"seconds": seconds})


PLAYER_ID = re.compile(r"^[A-Za-z0-9_-]{8,32}$")


def check_player(player: str | None) -> str | None:
    """A guest's player id as given (8–32 letters, digits, - or _), else a refusal."""
    if player is not None and not PLAYER_ID.match(player):
        raise Refusal("bad_player", "a player id is 8–32 letters, digits, - or _")
    return player


class People:
    def __init__(self, repo: PeopleRepo, settings: Settings) -> None:
        self.repo = repo
        self.settings = settings
        self.passwords = Passwords(Argon2Params(settings.argon2_time,
                                                settings.argon2_memory_kib,
                                                settings.argon2_lanes))
        self.throttle = Throttle(repo, settings)

    # -- who is asking ----------------------------------------------------------------
    async def session_player(self, token: str | None) -> str | None:
        """The player of a valid session cookie; None without a cookie; a refusal for
        an ended (``bad_session``) or expired (``session_expired``) one."""
        if not token:
            return None
        if len(token) > 128:
            raise Refusal("bad_session", "this sign-in has ended; sign in again", 401)
        found = await asyncio.to_thread(self.repo.session, _digest(token))
        if found is None:
            raise Refusal("bad_session", "this sign-in has ended; sign in again", 401)
        player_id, expires = found
        if expires <= now():
            await asyncio.to_thread(self.repo.end_session, _digest(token))
            raise Refusal("session_expired", "this sign-in has expired; sign in again", 401)
        return player_id

    async def acting(self, token: str | None, claimed: str | None) -> str | None:
        """Who creates or joins a match: the signed-in player, else the claimed guest
        id — which must not be an account's (an account acts only when signed in)."""
        try:
            signed = await self.session_player(token)
        except Refusal:
            signed = None
        if signed is not None:
            return signed
        if claimed is not None:
            person = await asyncio.to_thread(self.repo.person, claimed)
            if person is not None and person.account:
                raise Refusal("sign_in_needed", "this player has an account; sign in first",
                              401)
        return claimed

    async def me(self, token: str | None, guest: str | None) -> Person:
        player_id = await self.session_player(token)
        if player_id is None:
            if guest is None:
                raise Refusal("no_player", "no player: make one with POST /api/players", 401)
            player_id = guest
        person = await asyncio.to_thread(self.repo.person, player_id)
        if person is None:
            raise Refusal("unknown_player", "there is no such player", 404)
        if person.account and token is None:
            raise Refusal("sign_in_needed", "this player has an account; sign in first", 401)
        return person

    # -- names --------------------------------------------------------------------------
    async def rename(self, token: str | None, guest: str | None, raw: str) -> Person:
        person = await self.me(token, guest)
        name = check_name(raw)
        await asyncio.to_thread(self.repo.set_name, person.player_id, name, name_key(name))
        return Person(person.player_id, name, person.account)

    # -- accounts -----------------------------------------------------------------------
    async def sign_up(self, token: str | None, guest: str | None, raw_name: str | None,
                      password: str) -> SignedIn:
        """Give the guest (or a new player) a password; the guest's name unless
        ``raw_name`` is given.  Signs in at once."""
        if await self.session_player(token) is not None:
            raise Refusal("already_account", "you are signed in to an account already", 409)
        person = None
        if guest is not None:
            person = await asyncio.to_thread(self.repo.person, guest)
            if person is None:
                raise Refusal("unknown_player", "there is no such player", 404)
            if person.account:
                raise Refusal("already_account", "this player already has an account", 409)
        given = raw_name if raw_name is not None else (person.name if person else None)
        if given is None:
            raise Refusal("bad_name", "choose a name first", key="server.name_needed")
        name = check_name(given)
        check_new_password(password, name)
        password_hash = await self.passwords.hash(password)
        player_id = person.player_id if person else secrets.token_urlsafe(12)
        when = now()
        await asyncio.to_thread(self.repo.create_account, player_id, person is None, name,
                                name_key(name), password_hash, when)
        return await self._new_session(player_id, name)

    async def sign_in(self, raw_name: str, password: str, address: str) -> SignedIn:
        key = name_key(raw_name)[:64]
        account_key, address_key = _digest("name:" + key), _digest("addr:" + address)
        await self.throttle.enter([account_key, address_key])
        account = None
        if len(password) <= 1024:
            account = await asyncio.to_thread(self.repo.account_by_name, key)
            if account is None:  # named before keys were skeletons
                account = await asyncio.to_thread(self.repo.account_by_name,
                                                  legacy_key(raw_name)[:64])
        ok = await self.passwords.verify(account.password_hash if account else None,
                                         password[:1024])
        if not ok or account is None:
            raise bad_sign_in()
        await asyncio.to_thread(self.repo.forgive, [account_key], [address_key])
        if self.passwords.needs_rehash(account.password_hash):
            new_hash = await self.passwords.hash(password)
            await asyncio.to_thread(self.repo.rehash, account.player_id,
                                    account.password_hash, new_hash)
        return await self._new_session(account.player_id, account.name)

    async def _new_session(self, player_id: str, name: str) -> SignedIn:
        token = secrets.token_urlsafe(32)
        when = now()
        expires = when + timedelta(days=self.settings.session_days)
        await asyncio.to_thread(self.repo.create_session, _digest(token), player_id, when,
                                expires)
        return SignedIn(player_id, name, token)

    async def sign_out(self, token: str | None) -> None:
        if not token or len(token) > 128:
            raise Refusal("no_session", "you are not signed in", 401)
        if not await asyncio.to_thread(self.repo.end_session, _digest(token)):
            raise Refusal("bad_session", "this sign-in has ended; sign in again", 401)

    async def change_password(self, token: str | None, old: str, new: str,
                              address: str) -> None:
        """A new password; every other session of the account ends."""
        player_id = await self.session_player(token)
        if player_id is None or token is None:
            raise Refusal("no_session", "you are not signed in", 401)
        account = await asyncio.to_thread(self.repo.account, player_id)
        if account is None:
            raise Refusal("no_session", "you are not signed in", 401)
        account_key = _digest("name:" + name_key(account.name)[:64])
        address_key = _digest("addr:" + address)
        await self.throttle.enter([account_key, address_key])
        if not await self.passwords.verify(account.password_hash, old[:1024]):
            raise bad_sign_in()
        await asyncio.to_thread(self.repo.forgive, [account_key], [address_key])
        check_new_password(new, account.name)
        new_hash = await self.passwords.hash(new)
        await asyncio.to_thread(self.repo.set_password, player_id, new_hash, now(),
                                _digest(token))
