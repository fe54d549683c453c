"""The cost of a sign-in: Argon2id hashing at the server's parameters (and a few
alternatives for comparison), then whole sign-ins over HTTP against a real server.
Prints a table.

    python bench/argon2_cost.py            # 30 verifications a setting, 40 sign-ins
    python bench/argon2_cost.py --quick    # 8 and 10

1. ``verify``: wall and CPU time of one ``PasswordHasher.verify`` (the work of every
   sign-in, right or wrong, and of an unknown name against the dummy hash), median and
   p95, for the server's default parameters (docs/server.md) and three others;
2. ``sign-in``: ``POST /api/session`` against ``create_app`` under uvicorn (one worker,
   temporary SQLite), one client and two at once: median/p95 latency and sign-ins per
   second — what a burst of sign-ins costs the worker (at most two hashes run at once).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402
from rich.table import Table  # noqa: E402

from spillebord.server.app import create_app  # noqa: E402
from spillebord.server.infra.settings import Settings  # noqa: E402
from spillebord.server.people.passwords import Argon2Params  # noqa: E402

PASSWORD = "Tårnet har 7 blå vinduer"
SETTINGS = [("server default (OWASP 1)", Argon2Params()),
            ("OWASP 2: 19 MiB, t=2, p=1", Argon2Params(2, 19456, 1)),
            ("RFC 9106 low-mem: 64 MiB, t=3, p=4", Argon2Params(3, 65536, 4)),
            ("64 MiB, t=1, p=1", Argon2Params(1, 65536, 1))]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def verify_costs(n: int) -> list[tuple[str, float, float, float]]:
    rows = []
    for label, params in SETTINGS:
        hasher = params.hasher()
        stored = hasher.hash(PASSWORD)
        wall, cpu = [], []
        for _ in track(range(n), description=label, transient=True):
            w, c = time.perf_counter(), time.process_time()
            hasher.verify(stored, PASSWORD)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
        rows.append((label, statistics.median(wall) * 1e3, pct(wall, 0.95) * 1e3,
                     statistics.median(cpu) * 1e3))
    return rows


def serve(tmp: Path) -> tuple[uvicorn.Server, str]:
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(db_url=f"sqlite:///{tmp / 'bench.db'}", warm_workers=False)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


async def sign_ins(base: str, n: int, parallel: int) -> tuple[float, float, float]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        names = [f"Bench {parallel} {i}" for i in range(parallel)]
        for name in names:
            r = await http.post("/api/account", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            http.cookies.clear()
        times: list[float] = []

        async def one(name: str, count: int) -> None:
            for _ in range(count):
                start = time.perf_counter()
                r = await http.post("/api/session", json={"name": name, "password": PASSWORD})
                assert r.status_code == 200, r.text
                http.cookies.clear()
                times.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(one(name, n // parallel) for name in names))
        rate = len(times) / (time.perf_counter() - start)
    return statistics.median(times) * 1e3, pct(times, 0.95) * 1e3, rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n_verify, n_sign = (8, 10) if args.quick else (30, 40)
    console = Console()
    table = Table(title="Argon2id verify (one thread)")
    for col in ("parameters", "wall median ms", "wall p95 ms", "CPU median ms"):
        table.add_column(col)
    for label, med, p95, cpu in verify_costs(n_verify):
        table.add_row(label, f"{med:.1f}", f"{p95:.1f}", f"{cpu:.1f}")
    console.print(table)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = serve(Path(tmp))
        try:
            table = Table(title="POST /api/session, one worker, server default parameters")
            for col in ("clients", "median ms", "p95 ms", "sign-ins/s"):
                table.add_column(col)
            for parallel in (1, 2):
                med, p95, rate = asyncio.run(sign_ins(base, n_sign, parallel))
                table.add_row(str(parallel), f"{med:.1f}", f"{p95:.1f}", f"{rate:.1f}")
            console.print(table)
        finally:
            server.should_exit = True
    import os
    console.print(f"cores: {os.cpu_count()}; load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
