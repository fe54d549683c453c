"""Helpers for the multi-worker tests: a cluster of real uvicorn worker processes on one
PostgreSQL database and one Redis, and small protocol helpers on top of
tests/server/live.py's client."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from tests.server.live import Client
from tests.services import Postgres, Redis, Worker, Workers, worker_env

APP = "spillebord.server.app:create_app"


@contextmanager
def cluster(postgres: Postgres, redis: Redis, db_url: str, n: int = 2,
            **env: str) -> Iterator[Workers]:
    workers = Workers.start(n, worker_env(db_url, redis.url, **env), app=APP)
    try:
        yield workers
    finally:
        workers.stop()


async def post(base: str, path: str, body: Any = None) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post(path, json=body)
        assert r.status_code in (200, 201), r.text
        out: dict[str, Any] = r.json()
        return out


async def get(base: str, path: str, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return await http.get(path, headers=headers)


def events_of(c: Client, after_reconnect: bool = False) -> list[dict[str, Any]]:
    """Every event a client was told, in the order it was first told.  On one socket an
    event is told once.  After a reconnect (``after_reconnect``) the ``sync`` answer may
    repeat an event that a broadcast on the new socket already delivered, or bring a
    missed event after such a broadcast of a newer one; a client keeps events by number,
    so a repeat is allowed there but must be the very same event, and the events are
    returned in the order of their numbers."""
    kept: dict[int, dict[str, Any]] = {}
    order: list[dict[str, Any]] = []
    for m in c.seen:
        if m["t"] != "state":
            continue
        for e in m["d"]["events"]:
            if e["seq"] in kept:
                assert after_reconnect, f"event {e['seq']} told twice on one socket"
                assert kept[e["seq"]] == e, f"event {e['seq']} told twice, differently"
                continue
            kept[e["seq"]] = e
            order.append(e)
    if after_reconnect:
        order.sort(key=lambda e: int(e["seq"]))
    return order


async def opened(base: str, match_id: str, token: str | None = None) -> Client:
    c = await Client.open(base, match_id, token)
    await c.expect("welcome")
    await c.expect("state")
    return c


async def play_turns(c: Client, rng: random.Random, deadline: float,
                     resign_after: int = 120) -> dict[str, Any]:
    """Play this client's seat with random legal actions until the game ends."""
    mine = 0
    while True:
        st = await c.until(lambda s: s["outcome"] is not None or bool(s["legal"]),
                           timeout=max(1.0, deadline - time.monotonic()))
        if st["outcome"] is not None:
            return st
        legal = st["legal"]
        calm = [a for a in legal if a != "resign"]
        action = "resign" if mine >= resign_after and "resign" in legal else rng.choice(
            calm or legal)
        v0 = c.version
        await c.send("act", action=action)
        mine += 1
        while True:  # our own action's state, or a refusal if someone moved first
            msg = await c.recv(max(1.0, deadline - time.monotonic()))
            if msg["t"] == "state" and c.version > v0:
                break
            assert msg["t"] in ("state", "error"), msg
            if msg["t"] == "error":
                assert msg["d"]["code"] in ("stale", "rate_limited"), msg
                if msg["d"]["code"] == "rate_limited":  # nothing happened: slow down
                    await asyncio.sleep(0.25)
                break


async def wait_all(*aws: Any, timeout: float) -> list[Any]:
    return list(await asyncio.wait_for(asyncio.gather(*aws), timeout))


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


async def resync(c: Client, v: int) -> None:
    """Ask for every event after version ``v`` (``sync``) and read until its answer has
    arrived: a ``ping`` sent right after it is answered after it, so the ``pong`` marks
    the end.  (The first ``state`` after the ``sync`` is not always its answer: one the
    server was already sending when the ``sync`` arrived comes first, and if that one
    shows the end of the game a player that stops there never reads the answer.)"""
    await c.send("sync", v=v)
    await c.send("ping", mark=f"sync {v}")
    await c.expect("pong")


async def reconnect(base: str, old: Client, match_id: str, token: str | None,
                    signed: Any = None) -> Client:
    """A new socket for the same seat that resumes where ``old`` stopped: ``sync`` from
    the last version it saw, so the events it missed arrive (``events_of`` keeps them by
    number: a broadcast on the new socket may come first).  ``signed``: the account's
    signed-in client, for an account's seat (issue 27)."""
    c = await Client.open(base, match_id, token, signed=signed)
    await c.expect("welcome")
    await c.recv()  # the full state
    c.seen = [*old.seen, *c.seen]  # keep the history; the resync adds the gap
    await resync(c, old.version)
    return c


async def metric(w: Worker, name: str) -> float:
    """The unlabelled sample ``name`` of a worker's /metrics."""
    async with httpx.AsyncClient(timeout=10) as http:
        text = (await http.get(f"{w.http}/metrics")).text
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and not s.labels:
                return float(s.value)
    raise AssertionError(f"{name} missing")
