"""The server's own storage code on a real PostgreSQL: the Alembic migrations build
exactly the model tables, the repository and the group writer round-trip a match, an
invite is claimed once, and the ``(match_id, seq)`` key refuses a duplicate event."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from tests.schema import assert_migrations_match_models

from spillebord.server.errors import Refusal
from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import actions
from spillebord.server.infra.storage.repo import EventRow, MatchRow, Repository, SeatRow, now
from spillebord.server.infra.storage.writer import GroupWriter
from spillebord.server.scale.catchup import read_since

pytestmark = pytest.mark.services


def test_migrations_match_models_on_postgres(pg_url: str) -> None:
    engine = make_engine(pg_url)
    assert engine.dialect.name == "postgresql"
    assert_migrations_match_models(engine)
    engine.dispose()


def _match(match_id: str) -> MatchRow:
    return MatchRow(id=match_id, game="gammel_jomfru", flags={"x": True}, seats=3,
                    deal=2**62 + 12345, status="running", created=now(),
                    takeover_seconds=30, creator=None,
                    seat_rows=[SeatRow(0, "human", token_hash="a" * 64, player_id=None),
                               SeatRow(1, "human"),
                               SeatRow(2, "bot", "random", {"depth": 2})])


async def test_repository_and_group_writer_round_trip(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate.upgrade(engine)
    repo = Repository(engine)
    repo.create_match(_match("m1"), {1: "c" * 64})
    writer = GroupWriter(engine)
    try:
        # Many concurrent writes share transactions; each resolves after its commit.
        await asyncio.gather(*(writer.write([Repository.event_row(
            "m1", EventRow(seq, "act", f"a{seq}", seq % 3))]) for seq in range(1, 41)))
        when = now()
        await writer.write([Repository.event_row("m1", EventRow(41, "act", "end", 0)),
                            lambda conn: Repository.write_finish(conn, "m1", {"w": [0]},
                                                                 when)])
        with pytest.raises(RuntimeError):  # the primary key fences a duplicate event
            await writer.write([Repository.event_row("m1", EventRow(7, "act", "dup", 1))])
    finally:
        writer.close()
    row = repo.load_match("m1")
    assert row is not None
    assert row.deal == 2**62 + 12345 and row.flags == {"x": True}
    assert [e.seq for e in row.events] == list(range(1, 42))
    assert [e.text for e in row.events][:3] == ["a1", "a2", "a3"]
    assert row.status == "finished" and row.outcome == {"w": [0]}
    assert row.seat_rows[2].level == {"depth": 2} and row.seat_rows[0].token_hash == "a" * 64
    assert row.created.tzinfo is not None
    events, status = read_since(engine, "m1", 38)
    assert [e.seq for e in events] == [39, 40, 41]
    assert status is not None and status["status"] == "finished"
    assert read_since(engine, "m1", 41) == ([], None)
    assert [r.id for r in repo.load_running()] == []
    engine.dispose()


def test_invite_is_claimed_once_and_duplicate_seq_refused(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate.upgrade(engine)
    repo = Repository(engine)
    repo.create_match(_match("m2"), {1: "d" * 64})
    assert repo.claim_invite("d" * 64, "e" * 64, None) == ("m2", 1)
    with pytest.raises(Refusal) as used:
        repo.claim_invite("d" * 64, "f" * 64, None)
    assert used.value.code == "invite_used"
    with pytest.raises(Refusal) as unknown:
        repo.claim_invite("0" * 64, "f" * 64, None)
    assert unknown.value.code == "bad_invite"
    assert repo.load_match("m2").seat_rows[1].token_hash == "e" * 64  # type: ignore[union-attr]
    assert [r.id for r in repo.load_running()] == ["m2"]
    row = Repository.event_row("m2", EventRow(1, "act", "x", 0))
    with engine.begin() as conn:
        conn.execute(actions.insert(), [row])
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(actions.insert(), [row])
    with engine.connect() as conn:
        n = conn.execute(select(text("count(*)")).select_from(actions)).scalar_one()
    assert n == 1
    engine.dispose()
