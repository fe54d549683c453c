"""The action hot path (issue 7): the writer's after-commit callback, the driver-level
insert, the per-version state cache, inline sending and the JSON encoder.

Durability is the invariant under all of it: an event is applied in memory only after
its commit, and applied (and announced) even when the socket that sent it is gone.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord import games
from spillebord.server.infra.storage import writer as writer_module
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.migrate import upgrade
from spillebord.server.infra.storage.models import actions, matches
from spillebord.server.infra.storage.repo import EventRow, Repository, now
from spillebord.server.infra.storage.writer import GroupWriter
from spillebord.server.room import wire
from spillebord.server.services import Services
from spillebord.server.tables.lobby import CreateMatch


@pytest.fixture
async def hub(tmp_path: Path) -> AsyncIterator[Services]:
    h = Services(settings_for(str(tmp_path / "hot.db")))
    await h.start()
    # the services start in the background (infra/warmup.py): the rooms are bound once
    # its "games" step is done — on a loaded machine after the first test began
    for _ in range(3000):
        if h.warmup.serving:
            break
        await asyncio.sleep(0.1)
    assert h.warmup.serving, h.warmup.report()
    yield h
    await h.stop()


async def new_session(hub: Services) -> Any:
    made = await hub.lobby.create(CreateMatch(game="posthus", deal=7), None)
    return await hub.rooms.get(made["match_id"])


async def test_a_cancelled_actor_still_applies_and_announces(hub: Services) -> None:
    session = await new_session(hub)
    heard: list[int] = []
    hub.bus.subscribe(session.id, heard.append)
    action = str(session.state.legal_actions()[0])
    task = asyncio.create_task(session.act(0, 0, action))
    await asyncio.sleep(0)  # queued for the writer, not yet committed
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(200):
        if heard:
            break
        await asyncio.sleep(0.01)
    assert session.version == 1 and session.applied == [action]
    assert heard == [1]
    row = await asyncio.to_thread(hub.repo.load_match, session.id)
    assert row is not None and [e.text for e in row.events] == [action]


async def test_nothing_is_applied_before_the_commit(hub: Services) -> None:
    session = await new_session(hub)
    seen: list[int] = []
    real_submit = hub.writer.submit

    def submit(ops: Any, on_commit: Any = None, loop: Any = None) -> Any:
        seen.append(session.version)  # at hand-over: still the old version

        def checked() -> None:
            seen.append(session.version)  # committed: now it may be applied
            on_commit()

        return real_submit(ops, checked, loop)

    hub.writer.submit = submit  # type: ignore[method-assign]
    try:
        await session.act(0, 0, str(session.state.legal_actions()[0]))
    finally:
        hub.writer.submit = real_submit  # type: ignore[method-assign]
    assert seen == [0, 0] and session.version == 1


def one_match_db(path: Path) -> Any:
    """A migrated SQLite file at ``path`` holding one running match, ``m``."""
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(insert(matches).values(id="m", game="posthus", flags={}, seats=1,
                                            deal=1, status="running", created=now()))
    return engine


def stored_seqs(engine: Any) -> list[int]:
    """The stored events' numbers, in order; the engine is disposed of."""
    with engine.connect() as conn:
        seqs = conn.exec_driver_sql("SELECT seq FROM actions ORDER BY seq").scalars().all()
    engine.dispose()
    return list(seqs)


async def test_writer_failure_runs_no_callback(tmp_path: Path) -> None:
    engine = one_match_db(tmp_path / "w.db")
    writer = GroupWriter(engine)
    calls: list[int] = []
    try:
        row = Repository.event_row("m", EventRow(1, "act", "8H c2", 0))
        await writer.submit([row], lambda: calls.append(1))
        with pytest.raises(RuntimeError):
            await writer.submit([row], lambda: calls.append(2))  # duplicate key
        assert calls == [1]
    finally:
        await asyncio.to_thread(writer.close)
        engine.dispose()


async def test_event_rows_commit_on_the_loop_and_wait_for_no_other_writer(
        tmp_path: Path) -> None:
    """SQLite: a batch of event rows is committed on the loop itself (no hand-over to
    the writer thread); while another connection holds the write lock it goes to the
    thread instead, which waits for the lock — the loop is never held up, and the
    event is committed, in order, once the lock is free."""
    path = tmp_path / "w.db"
    engine = one_match_db(path)
    writer = GroupWriter(engine)
    loop_thread = threading.get_ident()
    on_thread: list[bool] = []  # per committed batch: on the writer thread?
    writer.observe = lambda _n, _s: on_thread.append(threading.get_ident() != loop_thread)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        await writer.write([Repository.event_row("m", EventRow(1, "act", "8H c2", 0))])
        assert on_thread == [False]  # committed on the loop
        other.execute("BEGIN IMMEDIATE")  # another writer holds SQLite's write lock
        done = asyncio.ensure_future(
            writer.write([Repository.event_row("m", EventRow(2, "act", "9H c3", 0))]))
        longest, last = 0.0, time.monotonic()
        for _ in range(30):  # the loop runs on while the batch waits for the lock
            await asyncio.sleep(0.01)
            longest, last = max(longest, time.monotonic() - last), time.monotonic()
        # (waiting for the lock on the loop would hold it for SQLite's 30-s busy timeout)
        assert not done.done() and on_thread == [False] and longest < 5
        other.execute("COMMIT")
        await asyncio.wait_for(done, 30)
        # (the thread counts the batch done just after it resolved the future)
        for _ in range(500):
            if writer._in_thread == 0:
                break
            await asyncio.sleep(0.01)
        await writer.write([Repository.event_row("m", EventRow(3, "act", "TH c4", 0))])
        assert on_thread == [False, True, False]  # the thread idle again: the loop
    finally:
        other.close()
        await asyncio.to_thread(writer.close)
    assert stored_seqs(engine) == [1, 2, 3]


async def test_a_request_alone_commits_in_its_callers_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite, a quiet server (a paced player): a request with nothing else waiting is
    committed inside ``submit`` — its callback has run and its future is done when
    ``submit`` returns, so the acting task goes on in the same loop iteration — and
    requests close together (here: the same step, ``QUIET`` made long so no pause of
    a loaded machine splits them) share one batch again."""
    monkeypatch.setattr(writer_module, "QUIET", 60.0, raising=False)
    engine = one_match_db(tmp_path / "w.db")
    writer = GroupWriter(engine)
    sizes: list[int] = []
    writer.observe = lambda n, _s: sizes.append(n)
    calls: list[int] = []

    def row(seq: int) -> dict[str, Any]:
        return Repository.event_row("m", EventRow(seq, "act", f"{seq}", 0))

    try:
        await writer.write([row(1)])  # the first: a batch (the writer learns the loop)
        alone = writer.submit([row(2)], lambda: calls.append(2))
        assert alone.done() and calls == [2] and sizes == [1, 1]
        first = writer.submit([row(3)], lambda: calls.append(3))
        second = writer.submit([row(4)], lambda: calls.append(4))
        assert not first.done() and not second.done() and calls == [2]
        await asyncio.gather(first, second)
        assert calls == [2, 3, 4] and sizes == [1, 1, 2]  # 3 and 4: one batch
    finally:
        await asyncio.to_thread(writer.close)
    assert stored_seqs(engine) == [1, 2, 3, 4]


async def test_the_writer_thread_waits_for_sqlites_lock_itself(tmp_path: Path) -> None:
    """The writer thread's connection has SQLite's busy timeout 0 and waits for the
    write lock in its own loop (looking every 0.5-5 ms), not in SQLite's busy handler,
    which sleeps up to 100 ms between looks: a move that met another connection's write
    waited that long after the lock was free (issue 29's soak).  The batch is still
    committed, once, after a lock held for 0.3 s.  Fails before: busy timeout 30000."""
    path = tmp_path / "w.db"
    engine = one_match_db(path)
    writer = GroupWriter(engine)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")
        done = asyncio.ensure_future(
            writer.write([Repository.event_row("m", EventRow(1, "act", "8H c2", 0))]))
        await asyncio.sleep(0.3)
        assert not done.done()
        other.execute("COMMIT")
        await asyncio.wait_for(done, 30)
        conn = writer._conn  # the writer thread's own connection
        assert conn is not None
        timeout = conn.connection.driver_connection.execute("PRAGMA busy_timeout")
        assert timeout.fetchone()[0] == 0
    finally:
        other.close()
        await asyncio.to_thread(writer.close)
    assert stored_seqs(engine) == [1]


async def test_driver_level_insert_stores_what_core_stores(tmp_path: Path) -> None:
    engine = one_match_db(tmp_path / "w.db")
    with engine.begin() as conn:
        conn.execute(insert(actions), [
            Repository.event_row("m", EventRow(1, "act", "8H c2", 0, True))])
    writer = GroupWriter(engine)
    try:
        await asyncio.gather(*[
            writer.write([Repository.event_row("m", EventRow(i, kind, "æø 8H", seat, bot))])
            for i, kind, seat, bot in [(2, "act", 0, True), (3, "undo", None, False)]])
    finally:
        await asyncio.to_thread(writer.close)
    with engine.connect() as conn:
        raw = conn.exec_driver_sql(
            "SELECT seq, by_bot, typeof(by_bot), typeof(time), length(time) FROM actions "
            "ORDER BY seq").all()
        rows = conn.execute(select(actions).order_by(actions.c.seq)).all()
    engine.dispose()
    # The same storage classes and time format as SQLAlchemy Core's own insert (row 1).
    assert [tuple(r[2:]) for r in raw] == [("integer", "text", 26)] * 3
    assert [(r.seq, r.kind, r.text, r.seat, r.by_bot) for r in rows] == [
        (1, "act", "8H c2", 0, True), (2, "act", "æø 8H", 0, True),
        (3, "undo", "æø 8H", None, False)]


def test_wire_json_is_the_standard_compact_json() -> None:
    for key in sorted(games.keys()):
        game = games.load(key)
        state = game.new(deal=11, seats=game.seat_counts[0])
        for seat in (None, 0):
            view = state.view(seat)
            assert wire.dumps(view) == json.dumps(view, ensure_ascii=False,
                                                  separators=(",", ":"))
    odd = {"å": ["ø", None, True, 2**62], 3: {"x": -1}}
    assert wire.dumps(odd) == json.dumps(odd, ensure_ascii=False, separators=(",", ":"))


async def test_every_state_is_the_current_one_and_a_reconnect_is_full(
        server: LiveServer) -> None:
    """Two sockets of one seat: each action's state (rendered once per version and
    shared) shows exactly the session's position at that version; a socket opened
    later gets the full state with no events."""
    made = await create(server.http, game="posthus", deal=99)
    a = await Client.open(server.ws, made["match_id"], made["token"])
    b = await Client.open(server.ws, made["match_id"], made["token"])
    game = games.load("posthus")
    rng = random.Random(3)
    try:
        await a.until(lambda s: True)
        await b.until(lambda s: True)
        state = game.new(deal=99)
        for n in range(1, 25):
            calm = [x for x in a.state["legal"] if x != "resign"]  # type: ignore[index]
            if not calm:
                break
            action = rng.choice(calm)
            await a.send("act", action=action)
            state = state.apply(action)
            for c in (a, b):
                st = await c.until(lambda s, n=n, c=c: c.version >= n)
                assert c.version == n
                assert st["view"] == state.view(0)
                assert st["legal"] == [str(x) for x in state.legal_actions()]
                assert [e["action"] for e in st["events"]] == [action]
        c = await Client.open(server.ws, made["match_id"], made["token"])
        try:
            assert (await c.recv())["t"] == "welcome"
            first = await c.recv()
            assert first["t"] == "state" and first["v"] == a.version
            assert first["d"]["events"] == [] and first["d"]["view"] == state.view(0)
        finally:
            await c.close()
    finally:
        await a.close()
        await b.close()


async def test_answers_keep_their_order(server: LiveServer) -> None:
    """The state an action caused and the refusal of a stale second action arrive in
    the order they were produced (inline sending and the sender task never overlap)."""
    made = await create(server.http, game="posthus", deal=5)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    try:
        st = await c.until(lambda s: True)
        first, second = [x for x in st["legal"] if x != "resign"][:2]
        await c.send("act", v=0, action=first)
        await c.send("act", v=0, action=second)
        got = [await c.recv(), await c.recv()]
        assert [m["t"] for m in got] == ["state", "error"]
        assert got[0]["v"] == 1 and got[1]["d"]["code"] == "stale"
    finally:
        await c.close()


@pytest.mark.parametrize("seed", [1, 2])
async def test_many_sockets_acting_at_once(server: LiveServer, seed: int) -> None:
    """Group commit under concurrency: every acknowledged action is in the record."""
    rng = random.Random(seed)
    made = [await create(server.http, game="posthus") for _ in range(12)]
    clients = [await Client.open(server.ws, m["match_id"], m["token"]) for m in made]

    async def play(c: Client) -> list[str]:
        done: list[str] = []
        st = await c.until(lambda s: True)
        for n in range(1, 16):
            calm = [x for x in st["legal"] if x != "resign"]
            if not calm or st["outcome"] is not None:
                break
            action = rng.choice(calm)
            await c.send("act", action=action)
            st = await c.until(lambda s, n=n: c.version >= n)
            done.append(action)
        return done

    try:
        played = await asyncio.gather(*[play(c) for c in clients])
    finally:
        for c in clients:
            await c.close()
    for m, mine in zip(made, played, strict=True):
        row = await asyncio.to_thread(server.services.repo.load_match, m["match_id"])
        assert [e.text for e in row.events] == mine
