"""The clients of the abuse benches (bench/fair_compute.py, bench/soak.py): a server in a
subprocess, the measured normal players and each abusive pattern of issue 29.

Every client sends ``X-Forwarded-For`` with an address of its own (the server trusts
127.0.0.1 as its proxy here), so per-address quotas see many clients, as behind nginx.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

_addresses = itertools.count(1)


def address() -> dict[str, str]:
    n = next(_addresses)
    return {"X-Forwarded-For": f"10.{n // 62500 % 250}.{n // 250 % 250}.{n % 250 + 1}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str, env: dict[str, str], src: str | None = None,
                 own_session: bool = False) -> subprocess.Popen[bytes]:
    """``spillebord serve``'s app under uvicorn; ``src``: the source tree to import
    (an older checkout, for old-vs-new figures).  ``own_session``: the server (and its
    worker processes) in a session of its own — with Linux's autogroup scheduling
    (``/proc/sys/kernel/sched_autogroup_enabled``) every session shares the CPUs
    equally as one group, so in the bench's session the clients' own CPU would come out
    of the server's share, as it never does on a site whose clients are elsewhere."""
    full = {**os.environ, "SPILLEBORD_DB": f"sqlite:///{db}",
            "SPILLEBORD_TRUSTED_PROXIES": "127.0.0.1", **env}
    if src is not None:
        full["PYTHONPATH"] = src
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "spillebord.server.app:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--ws-ping-interval", "0", "--no-access-log", "--no-proxy-headers"],
        env=full, cwd=src or None, start_new_session=own_session)


def stop(proc: subprocess.Popen[bytes], grace: float = 60.0) -> None:
    """End the server: SIGTERM, and SIGKILL past ``grace`` seconds (a loaded machine
    may take long to finish the compute calls running; its workers die with it)."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


async def wait_up(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(1200):
            with contextlib.suppress(httpx.TransportError):
                if (await http.get("/readyz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError("server did not start")


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and its children (the compute workers), MiB."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    for p in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its live children (the compute workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in
                 Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    total = 0
    for p in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def loop_seconds(pid: int) -> tuple[float, float]:
    """The server's main thread (its event loop): CPU seconds run and seconds it waited
    for a CPU while runnable (Linux schedstat)."""
    try:
        ran, waited = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[:2]
    except (OSError, ValueError):
        return 0.0, 0.0
    return int(ran) / 1e9, int(waited) / 1e9


async def histograms(base: str, names: tuple[str, ...]) -> dict[str, dict[float, float]]:
    """The server's /metrics histograms ``names`` (summed over their labels): name →
    {bucket bound: cumulative count}."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        text = (await http.get("/metrics")).text
    out: dict[str, dict[float, float]] = {n: {} for n in names}
    for line in text.splitlines():
        head, _, value = line.rpartition(" ")
        name = head.split("{", 1)[0]
        if not name.endswith("_bucket") or name[:-7] not in out:
            continue
        le = head.split('le="', 1)[1].split('"', 1)[0]
        bucket = out[name[:-7]]
        bound = float("inf") if le == "+Inf" else float(le)
        bucket[bound] = bucket.get(bound, 0.0) + float(value)
    return out


def bucket_pct(before: dict[float, float], after: dict[float, float], q: float
               ) -> tuple[int, float | None]:
    """(count, the bucket bound under which ``q`` of the observations between two
    scrapes of one histogram fall)."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    if total <= 0:
        return 0, None
    for bound, n in zip(bounds, counts, strict=True):
        if n >= q * total:
            return int(total), bound
    return int(total), bounds[-1]


def db_mib(db: str) -> float:
    return sum(Path(db + s).stat().st_size for s in ("", "-wal", "-shm")
               if Path(db + s).exists()) / 2**20


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Tally:
    bot_waits: list[float] = field(default_factory=list)   # a bot's move, seconds
    moves: list[float] = field(default_factory=list)       # act → own state, seconds
    table_moves: list[float] = field(default_factory=list)  # of those, at a table
    move_ends: list[float] = field(default_factory=list)   # when each move was answered
    hints: list[float] = field(default_factory=list)       # hint → answer, seconds
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # match → (token, n)
    internal: int = 0
    http_5xx: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games: int = 0
    started: float = 0.0  # when the phase began (time.monotonic)

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


async def connect(ws_base: str, match_id: str, token: str | None,
                  where: dict[str, str]) -> Any:
    url = f"{ws_base}/ws/{match_id}" + (f"?token={token}" if token else "")
    return await websockets.connect(url, additional_headers=where, max_size=2**22)


async def create(http: httpx.AsyncClient, tally: Tally, where: dict[str, str],
                 **body: Any) -> dict[str, Any] | None:
    r = await http.post("/api/matches", json=body, headers=where)
    if r.status_code >= 500:
        tally.http_5xx += 1
    if r.status_code != 201:
        tally.refuse(r.json()["detail"]["code"] if r.status_code < 500 else "5xx")
        return None
    made: dict[str, Any] = r.json()
    return made


def deal_of(rng: random.Random, deals: bool) -> dict[str, int]:
    """``{"deal": n}`` drawn from ``rng`` when ``deals`` (a run repeatable by its seed),
    else nothing (the server deals)."""
    return {"deal": rng.randrange(1, 2**20)} if deals else {}


async def table_player(base: str, ws_base: str, tally: Tally, stop: float,
                       rng: random.Random, game: str = "kugler", pace: float = 0.3,
                       deals: bool = False) -> None:
    """A player at a table with three bots of the game's default level, acting
    ``pace`` seconds after their turn comes; measures each bot move (the time from the
    state where a bot is to move to the next state).  ``deals``: the deals are drawn
    from ``rng`` too."""
    where = address()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < stop:
            made = await create(http, tally, where, game=game,
                                seats=["me", *[{"level": 2}] * 3], **deal_of(rng, deals))
            if made is None:
                await asyncio.sleep(5)
                continue
            async with await connect(ws_base, made["match_id"], made["token"], where) as ws:
                await _play(ws, tally, stop, rng, pace, made)
            tally.games += 1


async def _play(ws: Any, tally: Tally, stop: float, rng: random.Random, pace: float,
                made: dict[str, Any]) -> None:
    state: dict[str, Any] | None = None
    version = 0
    since = time.monotonic()
    sent_at: float | None = None
    while time.monotonic() < stop:
        if state is not None and state.get("outcome"):
            return
        if (state is not None and state.get("to_move") == made["seat"] and state["legal"]
                and sent_at is None):
            await asyncio.sleep(pace)
            legal = [a for a in state["legal"] if a != "resign"] or state["legal"]
            sent_at = time.monotonic()
            await ws.send(orjson.dumps({"t": "act", "v": version,
                                        "d": {"action": rng.choice(legal)}}).decode())
        try:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
        except TimeoutError:
            return
        if msg["t"] == "error":
            tally.refuse(msg["d"]["code"])
            if msg["d"]["code"] == "internal":
                tally.internal += 1
            sent_at = None
            continue
        if msg["t"] != "state":
            continue
        now = time.monotonic()
        before = state
        state, version = msg["d"], msg["v"]
        if sent_at is not None and before is not None and before.get("to_move") == made["seat"]:
            tally.moves.append(now - sent_at)
            tally.move_ends.append(now)
            tally.table_moves.append(now - sent_at)
            sent_at = None
        elif before is not None and before.get("to_move") not in (made["seat"], None):
            tally.bot_waits.append(now - since)
        since = now


async def solitaire_player(base: str, ws_base: str, tally: Tally, stop: float,
                           rng: random.Random, pace: float = 0.5,
                           hint_every: int = 10, deals: bool = False) -> None:
    """A Posthuskabalen player: an action every ``pace`` seconds, a hint every
    ``hint_every`` actions; remembers how many actions were acknowledged.  ``deals``:
    the deals are drawn from ``rng`` too."""
    where = address()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < stop:
            made = await create(http, tally, where, game="posthus", **deal_of(rng, deals))
            if made is None:
                await asyncio.sleep(5)
                continue
            match_id, token = made["match_id"], made["token"]
            acked = 0
            async with await connect(ws_base, match_id, token, where) as ws:
                state: dict[str, Any] | None = None
                version = 0
                while time.monotonic() < stop:
                    msg = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
                    if msg["t"] == "state":
                        state, version = msg["d"], msg["v"]
                        break
                n = 0
                while state is not None and not state.get("outcome") \
                        and time.monotonic() < stop and state["legal"]:
                    await asyncio.sleep(pace)
                    n += 1
                    if n % hint_every == 0:
                        t0 = time.monotonic()
                        await ws.send(orjson.dumps({"t": "hint", "v": version, "d": {}})
                                      .decode())
                        reply = await _reply(ws, tally, ("hint",))
                        if reply is not None and reply["t"] == "hint":
                            tally.hints.append(time.monotonic() - t0)
                    legal = [a for a in state["legal"] if a not in ("resign",)]
                    if not legal:
                        break
                    t0 = time.monotonic()
                    await ws.send(orjson.dumps({"t": "act", "v": version,
                                                "d": {"action": rng.choice(legal)}}).decode())
                    reply = await _reply(ws, tally, ("state",))
                    if reply is None or reply["t"] != "state":
                        continue
                    tally.moves.append(time.monotonic() - t0)
                    tally.move_ends.append(time.monotonic())
                    state, version = reply["d"], reply["v"]
                    acked += 1
                    tally.acked[match_id] = (token, acked)
            tally.games += 1


async def _reply(ws: Any, tally: Tally, wanted: tuple[str, ...]) -> dict[str, Any] | None:
    while True:
        msg: dict[str, Any] = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
        if msg["t"] in wanted:
            return msg
        if msg["t"] == "error":
            tally.refuse(msg["d"]["code"])
            if msg["d"]["code"] == "internal":
                tally.internal += 1
            return msg


async def lost_actions(base: str, tally: Tally) -> int:
    """Acknowledged actions missing from the stored records (solitaires)."""
    lost = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for match_id, (token, n) in tally.acked.items():
            r = await http.get(f"/api/matches/{match_id}/record",
                               headers={"Authorization": f"Bearer {token}"})
            if r.status_code != 200:
                lost += n
                continue
            actions = r.json()["record"]["actions"]
            lost += max(0, n - len(actions))
    return lost


# -- the abusive patterns ----------------------------------------------------------
async def bots_only_rooms(base: str, tally: Tally, stop: float, rooms: int = 6,
                          seconds: float = 5.0) -> None:
    """One client opening ``rooms`` bots-only Kugler rooms with slow search bots, and a
    new one whenever one ends or is refused."""
    where = address()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        me = (await http.post("/api/players", headers=where)).json().get("player_id")
        h = {**where, "X-Player": me} if me else where
        slow = {"bot": "ismcts", "options": {"seconds": seconds, "iterations": 100000}}
        while time.monotonic() < stop:
            for _ in range(rooms):
                await create(http, tally, h, game="kugler", seats=[slow] * 4)
            await asyncio.sleep(30)


async def hint_flood(base: str, ws_base: str, tally: Tally, stop: float,
                     sockets: int = 12) -> None:
    """One Posthuskabalen seat asking for hints on ``sockets`` sockets, each asking
    again as soon as it has an answer (or 50 ms after a refusal), and connecting again
    a second after the server closes it (``flood_closed``)."""
    where = address()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        made = await create(http, tally, where, game="posthus")
    if made is None:
        return

    async def flood(ws: Any) -> None:
        while time.monotonic() < stop:
            await ws.send('{"t":"hint","v":0,"d":{}}')
            while True:
                msg = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
                if msg["t"] in ("hint", "error"):
                    if msg["t"] == "hint":
                        tally.refuse("flood_answered")  # (counted with the refusals)
                    else:
                        tally.refuse("flood_" + msg["d"]["code"])
                        await asyncio.sleep(0.05)
                    break

    async def one() -> None:
        while time.monotonic() < stop:
            try:
                async with await connect(ws_base, made["match_id"], made["token"],
                                         where) as ws:
                    await flood(ws)
            except websockets.ConnectionClosed:
                tally.refuse("flood_closed")
                await asyncio.sleep(1)

    await asyncio.gather(*(one() for _ in range(sockets)), return_exceptions=True)


async def creation_burst(base: str, tally: Tally, stop: float) -> None:
    """One guest creating matches and public tables as fast as answers come."""
    where = address()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        me = (await http.post("/api/players", headers=where)).json().get("player_id")
        h = {**where, "X-Player": me}
        for i in itertools.count():
            if time.monotonic() > stop:
                return
            public = i % 2 == 1
            made = await create(http, tally, h, game="gammel_jomfru" if public else "studenter",
                                **({"seats": ["me", "human", "human"], "public": True}
                                   if public else {}))
            if made is None:
                await asyncio.sleep(0.2)


async def sign_up_flood(base: str, tally: Tally, stop: float) -> None:
    where = address()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for i in itertools.count():
            if time.monotonic() > stop:
                return
            r = await http.post("/api/account", headers=where,
                                json={"name": f"Flod {os.getpid()} {i}",
                                      "password": "Flodbølge i fjorden 7"})
            if r.status_code >= 500:
                tally.http_5xx += 1
            elif r.status_code != 201:
                tally.refuse("signup_" + r.json()["detail"]["code"])
                await asyncio.sleep(0.2)
            http.cookies.clear()


async def socket_flood(ws_base: str, tally: Tally, stop: float, n: int = 200) -> None:
    """One address opening ``n`` lobby sockets and holding them."""
    where = address()
    held = []
    for _ in range(n):
        try:
            ws = await websockets.connect(f"{ws_base}/ws/lobby", additional_headers=where)
            held.append(ws)
        except (OSError, websockets.WebSocketException):
            tally.refuse("socket_failed")
    while time.monotonic() < stop:
        await asyncio.sleep(1)
    for ws in held:
        with contextlib.suppress(Exception):
            await ws.close()


async def abandoned_tables(base: str, tally: Tally, stop: float) -> None:
    """Hosts who open a public table and never come (finding 6)."""
    while time.monotonic() < stop:
        where = address()
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            await create(http, tally, where, game="gammel_jomfru",
                         seats=["me", "human", "human"], public=True)
        await asyncio.sleep(5)

