"""A game's copy loaded from PostgreSQL agrees with itself (issue 31, found by the
operator drill): the match row and its events are read by separate statements, and a
game's last event and its finish (one transaction of the owner's writer) committed
between the two used to give a copy at the final move that still said "running" — on
the worker that loaded it, for good (no later event comes to correct it; the drill saw
worker 0 answer "running, version 200" for a game the database had "finished" at 200).

Deterministic: the commit is made, from another connection, exactly when the load is
about to read the events (a SQLAlchemy hook on the load's own statement)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, insert
from tests.scale.test_pg_storage import _match

from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import actions
from spillebord.server.infra.storage.repo import EventRow, Repository, now

pytestmark = pytest.mark.services


def test_a_finish_between_the_row_and_its_events_is_not_half_seen(pg_url: str) -> None:
    engine = make_engine(pg_url)
    other = make_engine(pg_url)  # the owner's writer, on a connection of its own
    migrate.upgrade(engine)
    repo = Repository(engine)
    repo.create_match(_match("race"), {})
    with engine.begin() as conn:
        conn.execute(insert(actions), [Repository.event_row(
            "race", EventRow(s, "act", f"a{s}", s % 3)) for s in (1, 2)])
    fired: list[bool] = []

    def finish_now(conn: Any, cursor: Any, statement: str, *_rest: Any) -> None:
        if fired or "FROM actions" not in statement:
            return
        fired.append(True)
        with other.begin() as o:  # the last event and the finish, one transaction
            o.execute(insert(actions),
                      [Repository.event_row("race", EventRow(3, "act", "end", 0))])
            Repository.write_finish(o, "race", {"w": [0]}, now())

    event.listen(engine, "before_cursor_execute", finish_now)
    try:
        row = repo.load_match("race")
    finally:
        event.remove(engine, "before_cursor_execute", finish_now)
    assert fired, "the hook never ran"
    assert row is not None
    seqs = [e.seq for e in row.events]
    # one moment's view: running at move 2, or (read after) finished at move 3
    assert (row.status, seqs) in (("running", [1, 2]), ("finished", [1, 2, 3])), \
        (row.status, seqs)
    again = repo.load_match("race")
    assert again is not None and again.status == "finished"
    assert [e.seq for e in again.events] == [1, 2, 3]
    engine.dispose()
    other.dispose()
