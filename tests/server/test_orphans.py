"""No orphans (issue 29, finding 7): the compute worker processes of ``spillebord
serve`` die with it, kill -9 included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.server.live import free_port
from tests.services import wait_warm


def start_serve(port: int, db: Path) -> subprocess.Popen[bytes]:
    """``spillebord serve`` (its compute workers start on first use; no daily deals
    chosen ahead: their solver searches are CPU these tests never use)."""
    exe = Path(sys.executable).with_name("spillebord")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "spillebord.cli.main"]
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
                            env={**os.environ, "SPILLEBORD_BOT_DELAY": "0",
                                 "SPILLEBORD_WARM": "0", "SPILLEBORD_DAILY_AHEAD": "0"},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # a busy machine starts slowly; past the warm-up (before it the API answers 503)
    wait_warm(port, 120, proc)
    return proc


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, parent in parents.items() if parent == p}
        todo += list(kids - found)
        found |= kids
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
def test_compute_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    for attempt in range(5):
        port = free_port()
        proc = start_serve(port, tmp_path / f"orphans{attempt}.db")
        try:
            base = f"http://127.0.0.1:{port}"
            # Bots-only table: the bot worker starts; and a winnable deal: the solver.
            made = httpx.post(f"{base}/api/matches", timeout=60, json={
                "game": "gammel_jomfru", "seats": [{"bot": "search"}] * 3})
            assert made.status_code == 201, made.text
            solo = httpx.post(f"{base}/api/matches", timeout=60,
                              json={"game": "posthus", "deal": "winnable"})
            assert solo.status_code == 201, solo.text
            deadline = time.monotonic() + 60
            while len(kids := descendants(proc.pid)) < 3:  # two workers, one tracker
                assert time.monotonic() < deadline, kids
                time.sleep(0.2)
        finally:
            kids = descendants(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        deadline = time.monotonic() + 5
        while any(alive(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [k for k in kids if alive(k)]
        for k in left:  # do not leave them to the next test either
            os.kill(k, signal.SIGKILL)
        assert not left, f"kill {attempt + 1}: {len(left)} of {len(kids)} processes survived"
