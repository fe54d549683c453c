"""Running ``spillebord analyse`` as a real process in its own session, so that the Ray
processes it starts (each worker in a process group of its own, all in the command's
session) can be found — and, after a SIGKILL, cleaned up — by session id."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
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


@contextlib.contextmanager
def ray_head(cpus: int = 2) -> Iterator[str]:
    """A Ray cluster started the way an operator would (``ray start --head``, token
    authentication as Ray sets it up), stopped and cleaned up by session; its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", f"--port={port}",
         f"--num-cpus={cpus}", "--include-dashboard=false", "--disable-usage-stats",
         "--block"], env=ENV, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "Ray runtime started" in line:
                break
        else:
            raise AssertionError("ray start failed")
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
        kill_group(proc)
