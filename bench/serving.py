"""Start a real single-process server (`spillebord serve` on SQLite in a temp dir) for the
socket benches (chat_load.py, lobby_feed.py): a free port, its log in ``tmp/server.log``,
and the wait until it answers.  Run the benches as scripts (``python bench/x.py``), so
this module is found beside them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from rich.console import Console

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path, env: dict[str, str],
                 cpus: set[int] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """The server with ``env`` added to this process's, pinned to ``cpus`` if given;
    returns the process and its base URL once ``/api/games`` answers."""
    port = free_port()
    exe = shutil.which("spillebord", path=str(Path(sys.executable).parent)) or "spillebord"
    proc = subprocess.Popen([exe, "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/s.db"],
                            stdout=subprocess.DEVNULL, stderr=(tmp / "server.log").open("wb"),
                            cwd=ROOT, env={**os.environ, **env},
                            preexec_fn=lambda: os.sched_setaffinity(0, cpus) if cpus else None)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def stop_server(proc: subprocess.Popen[bytes], tmp: Path, console: Console) -> None:
    """Stop the server and show the first errors and warnings of its log."""
    proc.terminate()
    proc.wait(20)
    errors = [line for line in (tmp / "server.log").read_text().splitlines()
              if "Error" in line or "WARNING" in line or "error" in line]
    for line in errors[:20]:
        console.print(f"server: {line}", markup=False)
