"""Running ``spillebord analyse`` as a real process in its own session, so that the Ray
processes it starts (each worker in a process group of its own, all in the command's
session) can be found — and, after a SIGKILL, cleaned up — by session id."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq

ENV = {**os.environ, "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}


def start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "spillebord.cli.main", "analyse", *args],
                            cwd=cwd, env=ENV, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def finish(proc: subprocess.Popen[str], timeout: float = 240) -> tuple[str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        kill_group(proc)
    assert proc.returncode == 0, err[-3000:]
    return out, err


def kill_group(proc: subprocess.Popen[str]) -> None:
    """SIGKILL what is left of the command's session (Ray's agents outlive a killed
    driver)."""
    for pid in session_processes(proc.pid, ""):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def session_processes(sid: int, title: str) -> list[int]:
    """Pids in session ``sid`` whose command line starts with ``title``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != sid:
                continue
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ProcessLookupError):
            continue
        if cmd.startswith(title):
            found.append(int(entry.name))
    return found


def parts_rows(out: Path) -> int:
    parts = out.with_name(out.name + ".parts")
    return sum(pq.read_metadata(p).num_rows for p in parts.glob("*.parquet")) \
        if parts.is_dir() else 0


def wait_for(predicate: Callable[[], bool], timeout: float,
             proc: subprocess.Popen[str]) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        if proc.poll() is not None:
            err = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"the run ended first: {err[-2000:]}")
        time.sleep(0.05)
    raise AssertionError("timed out")
