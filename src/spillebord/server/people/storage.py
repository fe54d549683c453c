"""The people tables (names, accounts, sign-in sessions, failed sign-ins): plain
blocking functions on the engine, called off the event loop.  Portable SQLAlchemy Core;
every uniqueness rule is a database constraint, so two workers cannot both win."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.models import (
    accounts,
    auth_sessions,
    players,
    sign_in_failures,
)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Person:
    player_id: str
    name: str | None
    account: bool


@dataclass(frozen=True, slots=True)
class Account:
    player_id: str
    name: str
    password_hash: str


def _taken() -> Refusal:
    return Refusal("name_taken", "this name is already taken", 409, key="server.name_taken")


class PeopleRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- players and names ------------------------------------------------------------
    def person(self, player_id: str) -> Person | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(players.c.id, players.c.name, accounts.c.player_id.label("acc"))
                .outerjoin(accounts, accounts.c.player_id == players.c.id)
                .where(players.c.id == player_id)).first()
        if row is None:
            return None
        return Person(row.id, row.name, row.acc is not None)

    def set_name(self, player_id: str, name: str, key: str) -> None:
        try:
            with self.engine.begin() as conn:
                done = conn.execute(update(players).where(players.c.id == player_id)
                                    .values(name=name, name_key=key))
                if done.rowcount != 1:
                    raise Refusal("unknown_player", "there is no such player", 404)
        except IntegrityError:
            raise _taken() from None

    def names(self, player_ids: list[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(players.c.id, players.c.name)
                                .where(players.c.id.in_(player_ids),
                                       players.c.name.is_not(None))).all()
        return {r.id: r.name for r in rows}

    # -- accounts -------------------------------------------------------------------
    def create_account(self, player_id: str, created_player: bool, name: str, key: str,
                       password_hash: str, when: datetime) -> None:
        """Give the player (made now when ``created_player``) the name and a password."""
        try:
            with self.engine.begin() as conn:
                if created_player:
                    conn.execute(insert(players).values(id=player_id, created=when,
                                                        name=name, name_key=key))
                else:
                    done = conn.execute(update(players).where(players.c.id == player_id)
                                        .values(name=name, name_key=key))
                    if done.rowcount != 1:
                        raise Refusal("unknown_player", "there is no such player", 404)
                if conn.execute(select(accounts.c.player_id)
                                .where(accounts.c.player_id == player_id)).first():
                    raise Refusal("already_account", "this player already has an account",
                                  409)
                conn.execute(insert(accounts).values(player_id=player_id,
                                                     password_hash=password_hash,
                                                     created=when, password_changed=when))
        except IntegrityError:
            if self.account(player_id) is not None:  # a second sign-up raced this one
                raise Refusal("already_account", "this player already has an account",
                              409) from None
            raise _taken() from None

    def account_by_name(self, key: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(players.c.id, players.c.name, accounts.c.password_hash)
                .join(accounts, accounts.c.player_id == players.c.id)
                .where(players.c.name_key == key)).first()
        return None if row is None else Account(row.id, row.name, row.password_hash)

    def account(self, player_id: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(players.c.id, players.c.name, accounts.c.password_hash)
                .join(accounts, accounts.c.player_id == players.c.id)
                .where(players.c.id == player_id)).first()
        return None if row is None else Account(row.id, row.name, row.password_hash)

    def set_password(self, player_id: str, password_hash: str, when: datetime,
                     keep_session: str | None) -> None:
        """The new hash, and every session of the player but ``keep_session`` ended."""
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.player_id == player_id)
                         .values(password_hash=password_hash, password_changed=when))
            gone = delete(auth_sessions).where(auth_sessions.c.player_id == player_id)
            if keep_session is not None:
                gone = gone.where(auth_sessions.c.token_hash != keep_session)
            conn.execute(gone)

    def rehash(self, player_id: str, old_hash: str, new_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.player_id == player_id,
                                                accounts.c.password_hash == old_hash)
                         .values(password_hash=new_hash))

    # -- sessions -------------------------------------------------------------------
    def create_session(self, token_hash: str, player_id: str, when: datetime,
                       expires: datetime) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(auth_sessions).values(token_hash=token_hash,
                                                      player_id=player_id, created=when,
                                                      expires=expires))

    def session(self, token_hash: str) -> tuple[str, datetime] | None:
        """The session's player and expiry time, or None when there is no such session."""
        with self.engine.connect() as conn:
            row = conn.execute(select(auth_sessions.c.player_id, auth_sessions.c.expires)
                               .where(auth_sessions.c.token_hash == token_hash)).first()
        return None if row is None else (row.player_id, _aware(row.expires))

    def end_session(self, token_hash: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(delete(auth_sessions)
                                .where(auth_sessions.c.token_hash == token_hash))
        return bool(done.rowcount)

    def sessions_of(self, player_id: str) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(auth_sessions.c.token_hash)
                                    .where(auth_sessions.c.player_id == player_id)).all())

    # -- failed sign-ins ------------------------------------------------------------
    def failures(self, keys: list[str]) -> dict[str, tuple[int, datetime]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(sign_in_failures)
                                .where(sign_in_failures.c.key_hash.in_(keys))).all()
        return {r.key_hash: (int(r.failures), _aware(r.last)) for r in rows}

    def attempt(self, keys: list[str], when: datetime, forget_before: datetime,
                wait: Callable[[int], float]) -> float:
        """Count a sign-in try for every key, in one transaction that holds each key's
        row, so parallel tries are counted one after the other.  ``wait(n)`` is the
        pause needed after ``n`` failures; when a key still has to wait, nothing is
        counted and the seconds left are returned (else 0)."""
        with self.engine.begin() as conn:
            left = 0.0
            for key in sorted(set(keys)):  # one lock order: no deadlock between tries
                left = max(left, self._count(conn, key, when, forget_before, wait))
            if left > 0:
                conn.rollback()
            return left

    @staticmethod
    def _count(conn: Connection, key: str, when: datetime, forget_before: datetime,
               wait: Callable[[int], float]) -> float:
        row = sign_in_failures.c
        done = conn.execute(update(sign_in_failures).where(row.key_hash == key)
                            .values(failures=row.failures + 1))
        if done.rowcount == 0:
            try:
                with conn.begin_nested():
                    conn.execute(insert(sign_in_failures).values(key_hash=key, failures=1,
                                                                 last=when))
                return 0.0
            except IntegrityError:  # another try inserted it first: count on that row
                conn.execute(update(sign_in_failures).where(row.key_hash == key)
                             .values(failures=row.failures + 1))
        failures, last = conn.execute(select(row.failures, row.last)
                                      .where(row.key_hash == key)).one()
        before = int(failures) - 1
        if _aware(last) < forget_before:
            before = 0
            conn.execute(update(sign_in_failures).where(row.key_hash == key)
                         .values(failures=1))
        pause = wait(before)
        left = (_aware(last) - when).total_seconds() + pause
        if pause > 0 and left > 0:
            return left
        conn.execute(update(sign_in_failures).where(row.key_hash == key).values(last=when))
        return 0.0

    def count_failure(self, keys: list[str], when: datetime, forget_before: datetime) -> None:
        """One more failure for each key (no waiting)."""
        self.attempt(keys, when, forget_before, lambda _n: 0.0)

    def forgive(self, clear: list[str], ease: list[str]) -> None:
        """A successful sign-in: forget the ``clear`` keys' failures, and take back the
        one counted in advance for each ``ease`` key."""
        with self.engine.begin() as conn:
            if clear:
                conn.execute(delete(sign_in_failures)
                             .where(sign_in_failures.c.key_hash.in_(clear)))
            if ease:
                conn.execute(update(sign_in_failures)
                             .where(sign_in_failures.c.key_hash.in_(ease),
                                    sign_in_failures.c.failures > 0)
                             .values(failures=sign_in_failures.c.failures - 1))
