"""The operator drill's stage (issue 31): two workers behind nginx on PostgreSQL + Redis,
players connected throughout, and the checks an operator's tools make after each step.

Players: solitaires (posthus, studenter) and Kugler og Jokere tables of one human seat
and three level-1 bots, each human played by a task through nginx that acts as soon as
it may, reconnects at once when its socket closes (through nginx, retrying 502/503 as
the page does), and keeps every acknowledged action under its event number.  A refusal
must be ``stale``, ``unavailable`` (an outage: nothing changed; try again) or
``rate_limited`` — never ``internal``.

After each step (``settle``): the players pause (the Kugler bots stop at their human's
turn), then every worker, asked directly, shows every game at the database's version
and status, and the players go on.  ``check_ready`` and ``check_metrics`` read what the
operator's balancer and Prometheus would."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import Engine, func, select, text
from tests.scale.cluster import opened
from tests.server.live import Client
from tests.services import Nginx, Worker
from websockets.exceptions import ConnectionClosed, InvalidStatus

from spillebord.server.infra.storage.models import actions, matches, owners

ALLOWED = frozenset({"stale", "unavailable", "rate_limited"})


@dataclass
class Player:
    match_id: str
    token: str
    game: str
    seat: int = 0
    acked: dict[int, str] = field(default_factory=dict)  # seq -> action text
    refusals: list[str] = field(default_factory=list)    # refusal codes seen
    drops: list[int] = field(default_factory=list)       # close codes seen
    back_in: list[float] = field(default_factory=list)   # seconds to be back
    idle: bool = False                                   # paused (``settle``)
    done: bool = False


@dataclass
class Stage:
    proxy: Nginx
    workers: list[Worker]
    engine: Engine
    players: list[Player] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    running: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    phase: str = "start"  # the step under way (refusals are noted with it)
    deal: int = 0
    retried: list[str] = field(default_factory=list)  # new games refused with 503

    # -- players --------------------------------------------------------------------
    async def seat_players(self, solitaires: int, tables: int, seed: int) -> None:
        games = [("posthus", "studenter")[i % 2] for i in range(solitaires)]
        games += ["kugler"] * tables
        self.deal = seed
        for game in games:
            self.players.append(await self._new_game(game))
        rng = random.Random(seed)
        self.running.set()
        self.tasks = [asyncio.create_task(self._play(p, random.Random(rng.random())))
                      for p in list(self.players)]

    async def _new_game(self, game: str) -> Player:
        self.deal += 1
        seats: list[Any] = ["me"] if game != "kugler" else ["me", *[{"level": 1}] * 3]
        body = {"game": game, "seats": seats, "deal": self.deal}
        async with httpx.AsyncClient(base_url=self.proxy.http, timeout=30) as http:
            while True:  # as the page: a worker warming up or draining says try again
                r = await http.post("/api/matches", json=body)
                if r.status_code != 503:
                    break
                assert r.json()["detail"]["code"] in ("warming", "draining",
                                                      "unavailable"), r.text
                self.retried.append(f"{self.phase}: {r.json()['detail']['code']}")
                await asyncio.sleep(float(r.headers.get("retry-after", "1")))
        assert r.status_code in (200, 201), r.text
        made = r.json()
        return Player(made["match_id"], made["token"], game)

    def acked(self) -> int:
        return sum(len(p.acked) for p in self.players)

    async def more(self, n: int, timeout: float = 60) -> None:
        """Wait for ``n`` more acknowledged actions (the games move)."""
        target = self.acked() + n
        deadline = time.monotonic() + timeout
        while self.acked() < target:
            assert time.monotonic() < deadline, "the games stopped moving"
            self.failed()
            await asyncio.sleep(0.05)

    def failed(self) -> None:
        for t in self.tasks:
            if t.done():
                t.result()  # a failed player fails the test now

    async def finish(self) -> None:
        self.stop.set()
        self.running.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), 60)

    async def _play(self, p: Player, rng: random.Random) -> None:
        c = await self._reopen(p)
        try:
            while not self.stop.is_set():
                if not self.running.is_set():
                    p.idle = True
                    await self.running.wait()
                    p.idle = False
                    continue
                try:
                    if not await self._act(p, c, rng):  # ended: the next game at once
                        p.done = True
                        p = await self._new_game(p.game)
                        self.players.append(p)
                        await c.close()
                        c = await self._reopen(p)
                except (ConnectionClosed, OSError) as exc:
                    lost_at = time.monotonic()
                    rcvd = getattr(exc, "rcvd", None)
                    p.drops.append(rcvd.code if rcvd is not None else 1006)
                    c = await self._reopen(p)
                    p.back_in.append(time.monotonic() - lost_at)
                    assert c.version >= max(p.acked, default=0), "acknowledged action lost"
        finally:
            p.idle = True
            await c.close()

    async def _act(self, p: Player, c: Client, rng: random.Random) -> bool:
        """One action of this seat when it may act; False once the game has ended."""
        deadline = time.monotonic() + 60
        while (st := c.state) is None or not (st["outcome"] is not None or st["legal"]
                                              or not self.running.is_set()):
            msg = await c.recv(max(0.1, deadline - time.monotonic()))
            if msg["t"] == "error":  # a late answer to an action sent on an old state
                self._refused(p, msg)
        if st["outcome"] is not None:
            return False
        if not self.running.is_set() or not st["legal"]:
            return True
        calm = [a for a in st["legal"] if a != "resign"] or st["legal"]
        action, v0 = rng.choice(calm), c.version
        await c.send("act", action=action)
        while True:
            msg = await c.recv(60)
            if msg["t"] == "error":
                code = self._refused(p, msg)
                await asyncio.sleep(float(msg["d"].get("retry_after") or 0.2)
                                    if code != "stale" else 0.05)
                return True
            if msg["t"] == "state":
                mine = [e for e in msg["d"]["events"] if e["seq"] > v0
                        and e["seat"] == p.seat and e["action"] == action]
                if mine:
                    p.acked[mine[0]["seq"]] = action
                    return True

    def _refused(self, p: Player, msg: dict[str, Any]) -> str:
        code = str(msg["d"]["code"])
        p.refusals.append(f"{self.phase}: {code}")
        assert code in ALLOWED, msg  # never ``internal``
        return code

    async def _reopen(self, p: Player) -> Client:
        delay = 0.0
        while True:
            await asyncio.sleep(delay)
            try:
                return await opened(self.proxy.ws, p.match_id, p.token)
            except (InvalidStatus, OSError, ConnectionClosed) as exc:
                if isinstance(exc, InvalidStatus):
                    assert exc.response.status_code in (502, 503), exc
                delay = 0.25 if delay == 0 else min(delay * 2, 2.0)

    # -- after each step ----------------------------------------------------------------
    async def settle(self, timeout: float = 30) -> dict[str, tuple[int, str]]:
        """Pause the players; check every worker shows every game as the database has
        it (version and status); go on.  Returns the database's view."""
        self.running.clear()
        deadline = time.monotonic() + timeout
        try:
            while not all(p.idle or p.done for p in self.players):
                assert time.monotonic() < deadline, "the players did not pause"
                self.failed()
                await asyncio.sleep(0.05)
            ids = [p.match_id for p in self.players]  # (a game that ends makes one)
            while True:
                db = self.stored(ids)
                views = [await self.views(w, ids) for w in self.workers]
                wrong = {(i, m): (v, db[m]) for i, view in enumerate(views)
                         for m, v in view.items() if v != db[m]}
                if not wrong and db == self.stored(ids):
                    return db
                assert time.monotonic() < deadline, f"workers disagree: {wrong}"
                await asyncio.sleep(0.2)
        finally:
            self.running.set()

    def stored(self, ids: list[str]) -> dict[str, tuple[int, str]]:
        with self.engine.connect() as conn:
            seqs = dict(conn.execute(select(actions.c.match_id, func.max(actions.c.seq))
                                     .where(actions.c.match_id.in_(ids))
                                     .group_by(actions.c.match_id)).all())
            status = dict(conn.execute(select(matches.c.id, matches.c.status)
                                       .where(matches.c.id.in_(ids))).all())
        return {m: (int(seqs.get(m) or 0), str(status[m])) for m in ids}

    async def views(self, w: Worker, ids: list[str]) -> dict[str, tuple[int, str]]:
        out = {}
        async with httpx.AsyncClient(base_url=w.http, timeout=10) as http:
            for m in ids:
                r = await http.get(f"/api/matches/{m}")
                assert r.status_code == 200, r.text
                out[m] = (int(r.json()["version"]), str(r.json()["status"]))
        return out

    def owner_of_most(self) -> int:
        """The worker that owns the most live games now."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(owners.c.worker)).scalars().all()
        pids = [str(w.proc.pid) if w.proc else "" for w in self.workers]
        counts = [sum(1 for o in rows if str(o).split("-")[0] == pid) for pid in pids]
        assert max(counts) > 0, f"no worker owns a game: {rows}"
        return counts.index(max(counts))

    def check_acked(self) -> None:
        """Stored events 1, 2, 3 … per game, every acknowledged action under its
        number: nothing acknowledged lost, nothing applied twice."""
        with self.engine.connect() as conn:
            for p in self.players:
                stored = conn.execute(select(actions.c.seq, actions.c.text, actions.c.seat)
                                      .where(actions.c.match_id == p.match_id)
                                      .order_by(actions.c.seq)).all()
                seqs = [s for s, _t, _seat in stored]
                assert seqs == list(range(1, len(seqs) + 1)), "a gap or a double"
                by_seq = {s: (t, seat) for s, t, seat in stored}
                lost = {s: a for s, a in p.acked.items() if by_seq.get(s) != (a, p.seat)}
                assert not lost, f"{p.match_id} lost acknowledged actions {lost}"


# -- what the operator's tools read ----------------------------------------------------
async def readyz(w: Worker) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.get(f"{w.http}/readyz")
        return r.status_code, r.json()


async def wait_ready(w: Worker, status: int, pred: Any = None,
                     timeout: float = 30) -> dict[str, Any]:
    """Poll ``/readyz`` until it answers ``status`` (and ``pred(body)``)."""
    deadline = time.monotonic() + timeout
    while True:
        code, body = await readyz(w)
        if code == status and (pred is None or pred(body)):
            return body
        assert time.monotonic() < deadline, (code, body)
        await asyncio.sleep(0.2)


async def metrics(w: Worker) -> dict[str, float]:
    """Every sample of a worker's /metrics, named with its labels."""
    async with httpx.AsyncClient(timeout=10) as http:
        text = (await http.get(f"{w.http}/metrics")).text
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}" if labels else s.name] = float(s.value)
    return out


async def restart(w: Worker, env: dict[str, str] | None = None) -> None:
    """SIGTERM (drain), wait for the exit, start again (with ``env``: another release),
    wait until ``/readyz`` says ready — the documented rolling step."""
    assert w.proc is not None
    w.proc.send_signal(signal.SIGTERM)
    await asyncio.to_thread(w.proc.wait, 60)
    if env is not None:
        w.env = env
    await asyncio.to_thread(w.start, 120.0, False)
    await wait_ready(w, 200, timeout=120)


async def rolling_upgrade(stage: Stage, url: str, n1: dict[str, str]) -> dict[str, Any]:
    """docs/deploy.md "Upgrade and roll back", step by step, with the players on:
    N+1's ``spillebord db upgrade`` (N's workers go on serving on the new schema, ready),
    then each worker restarted as N+1 and waited for until ready.  Returns what was seen."""
    from tests.scale.release import REVISION, db_upgrade

    seen: dict[str, Any] = {}
    await stage.more(40)
    stage.phase = "db upgrade"
    out = await asyncio.to_thread(db_upgrade, url, Path(n1["PYTHONPATH"]))
    seen["upgrade"] = out
    with stage.engine.connect() as conn:
        heads = set(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    assert heads == {REVISION}, heads
    stage.phase = "N on N+1's schema"
    await stage.more(40)
    for w in stage.workers:
        code, body = await readyz(w)
        assert code == 200 and body["checks"]["migrations"] is True, body
    await stage.settle()
    for i, w in enumerate(stage.workers):
        stage.phase = f"worker {i} restarted as N+1"
        await restart(w, {**w.env, **n1})
        await stage.more(40)
        await stage.settle()
    stage.phase = "N+1"
    return seen
