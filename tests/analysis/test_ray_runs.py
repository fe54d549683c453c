"""``spillebord analyse solve`` on real local Ray clusters (two workers): the verdicts
are the plain solver's, deal by deal, when a worker is killed mid-run; a run killed
with SIGKILL resumes without redoing the deals it stored (and its verdicts, too, are
the plain solver's).

The comparison uses a node budget (``--nodes``, with a time limit far above what the
budget takes): the verdict, the node count and the line are then the same on any
machine and load, unknowns included, so they can be compared exactly.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pyarrow.parquet as pq

from spillebord.games.posthus import GAME
from spillebord.games.studenter import GAME as STUDENTER
from spillebord.solvers import studenter
from spillebord.solvers.posthus import solve

from .helpers import finish, kill_group, parts_rows, session_processes, start, wait_for

NODES = 400_000
SECONDS = 300.0


def test_ray_gives_the_plain_solvers_verdicts_when_a_worker_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "posthus.parquet"
    proc = start("solve", "posthus", "--deals", "1-200", "--seconds", str(SECONDS),
                 "--nodes", str(NODES), "--workers", "2", "--chunk", "20", "--out", str(out),
                 cwd=tmp_path)
    try:
        # Once a chunk is stored (the workers are up and warm), kill a busy worker.
        wait_for(lambda: parts_rows(out) > 0, 180, proc)
        busy: list[int] = []
        wait_for(lambda: bool(busy.extend(session_processes(proc.pid, "ray::solve_chunk"))
                              or busy), 60, proc)
        os.kill(busy[0], signal.SIGKILL)
    finally:
        _, err = finish(proc)
    retried = re.search(r"retried\s+(\d+)\s+chunk", err)
    assert retried and int(retried.group(1)) >= 1, err
    rows = pq.read_table(out).to_pylist()
    assert [r["deal"] for r in rows] == list(range(1, 201))  # each deal once, in order
    verdicts = set()
    for row in rows:
        plain = solve(GAME.new(deal=row["deal"]), SECONDS, node_limit=NODES)
        assert (row["verdict"], row["nodes"]) == (plain.verdict, plain.nodes), row["deal"]
        assert (row["line"] or []) == (list(plain.line) if plain.verdict == "winnable" else [])
        verdicts.add(row["verdict"])
    assert {"winnable", "unknown"} <= verdicts  # both kinds were compared
    assert not out.with_name(out.name + ".parts").exists()


def test_a_killed_run_resumes_without_redoing_stored_deals(tmp_path: Path) -> None:
    out = tmp_path / "studenter.parquet"
    args = ("solve", "studenter", "--deals", "1-150", "--seconds", "60", "--nodes", "20000",
            "--chunk", "5", "--out", str(out))
    proc = start(*args, "--workers", "2", cwd=tmp_path)
    try:
        wait_for(lambda: parts_rows(out) >= 15, 180, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        kill_group(proc)
    parts = out.with_name(out.name + ".parts")
    stored = {r["deal"]: r for p in sorted(parts.glob("*.parquet"))
              for r in pq.read_table(p).to_pylist()}
    assert 15 <= len(stored) < 150 and not out.exists()
    _, err = finish(start(*args, "--workers", "1", cwd=tmp_path))
    assert re.search(rf"{len(stored)} already in .*, {150 - len(stored)} new", err), err
    rows = pq.read_table(out).to_pylist()
    assert [r["deal"] for r in rows] == list(range(1, 151))
    for row in rows:  # the stored rows were kept, not solved again (same CPU readings)
        if row["deal"] in stored:
            assert row == stored[row["deal"]]
        plain = studenter.solve(STUDENTER.new(deal=row["deal"]), 60, node_limit=20_000)
        assert (row["verdict"], row["nodes"]) == (plain.verdict, plain.nodes), row["deal"]
    assert not parts.exists()
