"""The group writer's batch statement on PostgreSQL (issue 20, session 6): client CPU and
round trip of one batch of one event row, with the lease fence, written four ways —
the session-5 transaction (``BEGIN``, the fence's ``SELECT … FOR SHARE``, an
``executemany`` insert, ``COMMIT``), one statement with an array per column, and the two
forms storage/writer.py uses now: one statement with one JSON parameter (a batch of
several rows) and with plain parameters (one row).

    python bench/pg_batch.py [--statements 1500]

Starts a throwaway PostgreSQL (tests/services.py; fsync off, so the disk does not set
the round trip) and runs each form on one autocommit connection, alternating, twice.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from rich.console import Console
from rich.table import Table
from sqlalchemy import create_engine, insert

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.services import Postgres  # noqa: E402

from spillebord.server.infra.storage import migrate  # noqa: E402
from spillebord.server.infra.storage.models import matches  # noqa: E402
from spillebord.server.infra.storage.writer import _PgRows  # noqa: E402

COLUMNS = "match_id, seq, kind, text, seat, by_bot, time"
OLD_FENCE = "SELECT match_id, token FROM owners WHERE match_id = ANY(%s) FOR SHARE"
OLD_INSERT = f"INSERT INTO actions ({COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)"
ARRAYS = (  # the first form of session 6
    "WITH f AS MATERIALIZED (SELECT match_id, token FROM owners "
    "WHERE match_id = ANY(%s) FOR SHARE), "
    "ok AS (SELECT f.match_id FROM f JOIN unnest(%s::text[], %s::text[]) "
    "AS w(match_id, token) ON f.match_id = w.match_id AND f.token = w.token), "
    f"ins AS (INSERT INTO actions ({COLUMNS}) SELECT * FROM unnest(%s::varchar(32)[], "
    "%s::int[], %s::varchar(8)[], %s::text[], %s::int[], %s::bool[], %s::timestamptz[]) "
    f"AS r({COLUMNS}) WHERE r.match_id IN (SELECT match_id FROM ok)) "
    "SELECT match_id FROM ok")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--statements", type=int, default=1500)
    args = ap.parse_args()
    pg = Postgres.start(fsync=False)
    try:
        engine = create_engine(pg.url())
        migrate.upgrade(engine)
        with engine.begin() as c:
            c.execute(insert(matches).values(id="m1", game="posthus", flags={}, seats=1,
                                             deal=1, status="running",
                                             created=datetime.now(UTC)))
            c.exec_driver_sql("INSERT INTO owners VALUES "
                              "('m1', 'w', 'tok', 1, now() + interval '1 hour')")
        stmts = _PgRows(engine)
        engine.dispose()
        conn = psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres "
                               f"dbname={pg.dbname}", autocommit=True)
        seq = [0]

        def row() -> tuple[object, ...]:
            seq[0] += 1
            return ("m1", seq[0], "act", "x", 0, False, datetime.now(UTC))

        def old() -> None:
            with conn.transaction():
                conn.execute(OLD_FENCE, (["m1"],)).fetchall()
                conn.cursor().executemany(OLD_INSERT, [row()])

        def arrays() -> None:
            conn.execute(ARRAYS, (["m1"], ["m1"], ["tok"],
                                  *[[v] for v in row()])).fetchall()

        def as_json() -> None:
            keys = COLUMNS.split(", ")
            r = dict(zip(keys, row(), strict=True))
            r["time"] = r["time"].isoformat()  # type: ignore[attr-defined]
            conn.execute(stmts.fenced_many, (json.dumps(["m1"]), json.dumps({"m1": "tok"}),
                                             json.dumps([r]))).fetchall()

        def plain() -> None:
            conn.execute(stmts.fenced_one, ("m1", "tok", *row())).fetchall()

        forms: list[tuple[str, Callable[[], None]]] = [
            ("session 5: BEGIN, fence, executemany, COMMIT", old),
            ("one statement, an array per column", arrays),
            ("one statement, one JSON parameter (several rows)", as_json),
            ("one statement, plain parameters (one row)", plain)]
        got: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in forms}
        for _ in range(2):
            for name, form in forms:
                for _ in range(50):  # psycopg prepares a statement after 5 runs
                    form()
                cpu, wall = time.process_time(), time.perf_counter()
                for _ in range(args.statements):
                    form()
                got[name].append(((time.process_time() - cpu) / args.statements * 1e6,
                                  (time.perf_counter() - wall) / args.statements * 1e6))
        conn.close()
    finally:
        pg.stop()
    table = Table(title="one batch of one event row, with the lease fence")
    for col in ("form", "client CPU µs", "round trip µs"):
        table.add_column(col, justify="left" if col == "form" else "right")
    for name, runs in got.items():
        table.add_row(name, " – ".join(f"{c:.0f}" for c, _ in sorted(runs)),
                      " – ".join(f"{w:.0f}" for _, w in sorted(runs, key=lambda x: x[1])))
    console = Console()
    console.print(table)
    console.print("client CPU: this process (psycopg's adaptation and protocol work); "
                  "round trip: wall time per statement, PostgreSQL's work included")


if __name__ == "__main__":
    main()
