"""The live lobby under load: many open tables, many lobby sockets, and the time a new
table takes to reach every socket.  Prints a table.

    python bench/lobby_feed.py                    # 1,000 tables, 500 sockets, 40 new tables
    python bench/lobby_feed.py --quick            # 200 tables, 100 sockets, 15 new tables

Starts ``spillebord serve`` (one worker, temporary SQLite) in its own process, opens
``--tables`` public Gammel Jomfru tables over HTTP, connects ``--sockets`` WebSockets to
/ws/lobby (each first gets the whole list), then opens ``--new`` more tables one at a
time, 0.25 s apart, and measures for every (socket, new table) the time from sending
the create request to the socket receiving that table's ``table`` message: median,
p99 and max over all pairs.  Target (issue 15): p99 ≤ 200 ms at 1,000 tables and 500
sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import serving

ENV = {"SPILLEBORD_RATE": "100000", "SPILLEBORD_WARM": "0"}
BODY = {"game": "gammel_jomfru", "seats": ["me", "human", "human"], "public": True}


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The server, its log in ``tmp/server.log`` (errors are shown after the run)."""
    return serving.start_server(tmp, ENV)


async def run(base: str, n_tables: int, n_sockets: int, n_new: int,
              progress: Progress) -> tuple[list[float], float, int]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        task = progress.add_task("opening tables", total=n_tables)
        gate = asyncio.Semaphore(8)

        async def one() -> None:
            async with gate:
                r = await http.post("/api/matches", json=BODY)
                assert r.status_code == 201, r.text
            progress.advance(task)

        await asyncio.gather(*(one() for _ in range(n_tables)))
        ws_base = base.replace("http://", "ws://")
        task = progress.add_task("connecting lobby sockets", total=n_sockets)
        socks: list[websockets.ClientConnection] = []
        snapshot_sizes = []
        arrived: dict[str, list[float]] = {}
        seen: list[set[str]] = []

        async def reader(i: int, s: websockets.ClientConnection) -> None:
            async for text in s:
                msg = orjson.loads(text)
                if msg["t"] == "table" and msg["d"]["match_id"] not in seen[i]:
                    seen[i].add(msg["d"]["match_id"])
                    arrived.setdefault(msg["d"]["match_id"], []).append(time.perf_counter())

        # Each socket is read from the moment it has its snapshot, as a page reads its
        # socket: a client that does not read stops answering the server's pings (the
        # library stops reading when 16 messages wait) and is dropped after 20 s.
        readers = []
        for i in range(n_sockets):
            s = await websockets.connect(f"{ws_base}/ws/lobby", max_size=2**26)
            first = orjson.loads(await s.recv())
            snapshot_sizes.append(len(first["d"]["tables"]))
            socks.append(s)
            seen.append(set())
            readers.append(asyncio.create_task(reader(i, s)))
            progress.advance(task)
        task = progress.add_task("new tables", total=n_new)
        delays: list[float] = []
        new_ids: list[str] = []
        parts: dict[str, list[float]] = {"answer": [], "first": [], "spread": []}
        for _ in range(n_new):
            sent = time.perf_counter()
            r = await http.post("/api/matches", json=BODY)
            parts["answer"].append(time.perf_counter() - sent)
            match_id = r.json()["match_id"]
            new_ids.append(match_id)
            deadline = time.perf_counter() + 10
            while (len(arrived.get(match_id, [])) < sum(s.close_code is None for s in socks)
                   and time.perf_counter() < deadline):  # (a closed socket is not waited for)
                await asyncio.sleep(0.005)
            got = arrived.get(match_id, [])
            if got:
                parts["first"].append(min(got) - sent)
                parts["spread"].append(max(got) - min(got))
            delays += [t - sent for t in got]
            delays += [10.0] * (n_sockets - len(got))  # never arrived: counted as 10 s
            progress.advance(task)
            await asyncio.sleep(0.25)
        await asyncio.sleep(5)  # a last chance for late deliveries, to tell late from lost
        lost = sum(1 for i in range(len(socks)) for m in new_ids if m not in seen[i])
        closed = sum(1 for s in socks if s.close_code is not None)
        if lost or closed:
            print(f"never arrived: {lost} pairs; sockets closed meanwhile: {closed} "
                  f"{sorted({(s.close_code, s.close_reason) for s in socks if s.close_code})}")
        for t in readers:
            t.cancel()
        for s in socks:
            await s.close()
        print("medians, ms — create answered: {:.1f}; first socket: {:.1f}; first to last "
              "socket: {:.1f}".format(*(1000 * statistics.median(v or [0.0])
                                        for v in parts.values())))
        return delays, statistics.median(snapshot_sizes), len(socks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--sockets", type=int, default=500)
    ap.add_argument("--new", type=int, default=40)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.tables, args.sockets, args.new = 200, 100, 15
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp))
        try:
            with Progress(console=console, transient=True) as progress:
                delays, listed, n = asyncio.run(run(base, args.tables, args.sockets, args.new,
                                                    progress))
        finally:
            serving.stop_server(proc, Path(tmp), console)
    delays.sort()
    ms = [d * 1000 for d in delays]
    table = Table(title="A new table reaching every lobby socket (one worker)")
    for col in ("open tables", "sockets", "pairs", "median ms", "p99 ms", "max ms"):
        table.add_column(col)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    table.add_row(str(int(listed)), str(n), str(len(ms)), f"{statistics.median(ms):.1f}",
                  f"{p99:.1f}", f"{ms[-1]:.1f}")
    console.print(table)
    console.print(f"cores: {os.cpu_count()}; load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
