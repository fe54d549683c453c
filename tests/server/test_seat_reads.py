"""Shared mode re-reads a room's seats off the loop (scale/replica.py ``reread_seats``:
on a notice from another worker, on every ``Rooms.get``).  Reads end in any order, and a
read that began before a seat was written here is older than that write: an older read
must never take the room back.  In process, on the live server's loop and its real
database, with the first read held on its thread after it read."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, cast

import httpx
import pytest
from sqlalchemy import update
from tests.server.live import Client, LiveServer, create

from spillebord.server.infra.storage.models import seats
from spillebord.server.scale import replica as replica_module
from spillebord.server.scale.replica import Replica

GAME = "gammel_jomfru"


class Held:
    """``read_seats`` whose first call is held after it read, until ``release``."""

    def __init__(self) -> None:
        self.real = replica_module.read_seats
        self.read, self.go = threading.Event(), threading.Event()
        self.calls = 0

    def __call__(self, engine: Any, match_id: str) -> Any:
        self.calls += 1
        first = self.calls == 1
        found = self.real(engine, match_id)
        if first:
            self.read.set()
            self.go.wait(30)
        return found


def on_server(server: LiveServer, coro: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
    """Run ``coro`` on the server's own loop (where its rooms live)."""
    loop = server.services.tables.feed.task.get_loop()
    return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))


async def _table(server: LiveServer) -> tuple[dict[str, Any], Any, Replica, Client]:
    """A table with two free seats, its room in memory (the host's socket) and a replica
    reading its seats from the server's database."""
    made = await create(server.http, game=GAME, seats=["me", "human", "human"])
    host = await Client.open(server.ws, made["match_id"], made["token"])
    await host.expect("welcome")
    s = server.services
    replica = Replica(s.rooms, s.repo.engine, *cast(Any, [None] * 4))
    return made, s.rooms.sessions[made["match_id"]], replica, host


async def test_a_read_begun_before_a_claim_here_never_undoes_it(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat read begins (seat 1 free), a friend claims seat 1 on this worker, the read
    ends: seat 1 stays the friend's, and the friend's token takes it."""
    made, session, replica, host = await _table(server)
    held = Held()
    monkeypatch.setattr(replica_module, "read_seats", held)
    reading = on_server(server, replica.reread_seats(session))
    assert await asyncio.to_thread(held.read.wait, 30)
    async with httpx.AsyncClient(base_url=server.http) as http:
        claimed = (await http.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                   json={})).json()
    assert session.seats[claimed["seat"]].token_hash is not None
    held.go.set()  # the old read ends now: before the fix it put the free seat back
    await reading
    assert session.seats[claimed["seat"]].token_hash is not None, "the claim was undone"
    assert held.calls == 2  # overtaken by the claim here: read again
    friend = await Client.open(server.ws, made["match_id"], claimed["token"])
    welcome = await friend.expect("welcome")
    assert welcome["d"]["role"] == "player" and welcome["d"]["seat"] == claimed["seat"]
    for c in (host, friend):
        await c.close()


async def test_an_older_read_never_replaces_a_newer_one(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another worker gives seat 2 to bots (written in the database only); a read begun
    before it is held while a newer read shows it; then the older read ends: the bots
    stay."""
    _made, session, replica, host = await _table(server)
    held = Held()
    monkeypatch.setattr(replica_module, "read_seats", held)
    older = on_server(server, replica.reread_seats(session))
    assert await asyncio.to_thread(held.read.wait, 30)

    def elsewhere() -> None:
        with server.services.repo.engine.begin() as conn:
            conn.execute(update(seats).where(seats.c.match_id == session.id,
                                             seats.c.seat == 2)
                         .values(kind="bot", bot="random", level={}))

    await asyncio.to_thread(elsewhere)
    await on_server(server, replica.reread_seats(session))  # the notice's read
    assert session.seats[2].kind == "bot"
    held.go.set()  # the older read ends now: before the fix seat 2 went back to free
    await older
    assert session.seats[2].kind == "bot", "an older read put the free seat back"
    assert held.calls == 2  # dropped, not read again: the newer read saw it all
    await host.close()
