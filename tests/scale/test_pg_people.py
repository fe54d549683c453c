"""Names, accounts, sessions and failed sign-ins on a real PostgreSQL (issue 15): the
same service code as on SQLite, with the uniqueness rules and counters under
concurrent writers."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from spillebord.server.errors import Refusal
from spillebord.server.infra.settings import Settings
from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.repo import now
from spillebord.server.people.service import People
from spillebord.server.people.storage import PeopleRepo

pytestmark = pytest.mark.services
GOOD = "Blåbær-Kage 7 af tårnet"


async def test_accounts_and_sessions_on_postgres(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate.upgrade(engine)
    people = People(PeopleRepo(engine), Settings(db_url=pg_url))
    repo = people.repo
    when = now()
    for pid in ("guest-one-1", "guest-two-2"):
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO players (id, created) VALUES (%s, %s)",
                                 (pid, when))
    named = await people.rename(None, "guest-one-1", "Åse Ørsted")
    assert named.name == "Åse Ørsted" and not named.account
    with pytest.raises(Refusal) as taken:
        await people.rename(None, "guest-two-2", "ÅSE ØRSTED")
    assert taken.value.code == "name_taken"
    signed = await people.sign_up(None, "guest-one-1", None, GOOD)
    assert signed.player_id == "guest-one-1" and signed.name == "Åse Ørsted"
    assert await people.session_player(signed.token) == "guest-one-1"
    with pytest.raises(Refusal) as needed:
        await people.acting(None, "guest-one-1")
    assert needed.value.code == "sign_in_needed"
    again = await people.sign_in("åse ørsted", GOOD, "10.0.0.1")
    with pytest.raises(Refusal) as wrong:
        await people.sign_in("åse ørsted", "not it at all", "10.0.0.1")
    assert wrong.value.code == "bad_sign_in" and wrong.value.status == 401
    await people.change_password(again.token, GOOD, "Et helt andet kodeord 5", "10.0.0.1")
    with pytest.raises(Refusal) as ended:
        await people.session_player(signed.token)
    assert ended.value.code == "bad_session"
    assert await people.session_player(again.token) == "guest-one-1"
    await people.sign_out(again.token)
    assert repo.sessions_of("guest-one-1") == 0
    engine.dispose()


def test_concurrent_writers_on_postgres(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate.upgrade(engine)
    repo = PeopleRepo(engine)
    when = now()

    def sign_up(i: int) -> str:
        try:
            repo.create_account(f"racer-{i:04d}", True, f"Racer {i}" if i % 2 else "Racer",
                                "racer", "hash", when)
            return "ok"
        except Refusal as exc:
            return exc.code

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(sign_up, range(16)))
    assert results.count("ok") == 1 and set(results) == {"ok", "name_taken"}
    # Twenty failures at once on one new key all count.
    forget = when - timedelta(hours=1)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _i: repo.count_failure(["k" * 64], now(), forget), range(20)))
    assert repo.failures(["k" * 64])["k" * 64][0] == 20
    repo.forgive(["k" * 64], [])
    assert repo.failures(["k" * 64]) == {}
    engine.dispose()


def test_sign_ins_race_the_slow_down_on_postgres(pg_url: str) -> None:
    """Parallel wrong tries are counted before the password is checked: at most the
    free ones (plus the ones already past the check) get a password answer."""
    engine = make_engine(pg_url)
    migrate.upgrade(engine)
    people = People(PeopleRepo(engine), Settings(db_url=pg_url, signin_free=5))

    async def run() -> list[str]:
        await people.sign_up(None, None, "Hurtig Hanne", GOOD)

        async def one(i: int) -> str:
            try:
                await people.sign_in("Hurtig Hanne", f"wrong {i}", f"10.1.0.{i}")
            except Refusal as exc:
                return exc.code
            return "ok"

        return list(await asyncio.gather(*(one(i) for i in range(20))))

    codes = asyncio.run(run())
    assert codes.count("bad_sign_in") <= 7 and codes.count("too_many_tries") >= 13
    assert "ok" not in codes
    engine.dispose()
