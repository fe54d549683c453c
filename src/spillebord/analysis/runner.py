"""Running a job's chunks: on a local Ray cluster this command starts (bounded CPUs, no
dashboard, quiet logs), on an existing one (``address``), or in this process
(``workers=0``) — the same rows either way, stored chunk by chunk in a ``ResultFile``.

A chunk whose worker dies (killed, out of memory, its node lost) is submitted again, up
to ``ATTEMPTS`` times; the run reports how many were.  A chunk that raises an error of
its own is not retried: the run stops with that error and keeps what is stored.
A Rich progress bar shows the units done, their rate and the time left.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from spillebord.analysis.store import ResultFile

Work = Callable[[Any, Sequence[int]], list[dict[str, Any]]]
ATTEMPTS = 4
LOCAL_OBJECT_STORE = 128 * 2**20  # the rows are small; Ray's default is 30% of memory


class ChunkLostError(RuntimeError):
    """A chunk lost with its worker more often than ``ATTEMPTS``."""


@dataclass
class Report:
    todo: int
    done_before: int
    chunks: int = 0
    retried: int = 0
    rows: int = 0
    workers: int = 0
    failures: list[str] = field(default_factory=list)


def check_address(address: str, timeout: float = 5.0) -> None:
    """Refuse at once (ValueError) an ``--address`` where no Ray cluster listens: Ray
    itself retries a dead address for minutes.  ``ray://HOST:PORT`` (Ray Client, needs
    the ``ray[client]`` extra) and ``HOST:PORT`` (the head's GCS) get a TCP connect within
    ``timeout`` seconds; ``auto`` is left to Ray (it reads a local cluster's address)."""
    if address == "auto":
        return
    client = address.startswith("ray://")
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise ValueError(f"--address {address!r}: give ray://HOST:PORT, HOST:PORT or auto")
    if client and importlib.util.find_spec("grpc") is None:  # what Ray Client needs
        raise ValueError("a ray:// address needs Ray Client: pip install 'ray[client]'")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"no Ray cluster answers at {address} "
                         f"({exc.strerror or type(exc).__name__})") from None


def chunks_of(keys: Sequence[int], size: int) -> list[list[int]]:
    return [list(keys[i:i + size]) for i in range(0, len(keys), size)]


def run(work: Work, job: Any, keys: Sequence[int], store: ResultFile, *, chunk: int,
        workers: int, address: str | None, unit: str, console: Console,
        quiet: bool = False) -> Report:
    """Run ``work(job, chunk)`` over the keys not yet in ``store`` and store the rows."""
    done = store.done(job.run())
    todo = [k for k in keys if k not in done]
    report = Report(len(todo), len(keys) - len(todo))
    parts = chunks_of(todo, chunk)
    report.chunks = len(parts)
    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                  MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                  TextColumn("left"), TimeRemainingColumn(), console=console,
                  disable=quiet) as progress:
        task = progress.add_task(f"{job.game} {unit}", total=len(keys),
                                 completed=report.done_before, rate="")

        def finished(rows: list[dict[str, Any]]) -> None:
            store.append(rows)
            report.rows += len(rows)
            progress.advance(task, len(rows))
            speed = progress.tasks[0].speed
            progress.update(task, rate=f"{speed:.1f} {unit}/s" if speed else "")

        if parts and workers == 0:
            report.workers = 0
            for part in parts:
                finished(work(job, part))
        elif parts:
            _run_on_ray(work, job, parts, workers, address, report, finished)
    store.merge()
    return report


def _run_on_ray(work: Work, job: Any, parts: list[list[int]], workers: int,
                address: str | None, report: Report,
                finished: Callable[[list[dict[str, Any]]], None]) -> None:
    if address:
        _token_auth_if_token_exists()  # read by Ray when it is imported
    ray = import_ray()
    from ray.exceptions import (
        NodeDiedError,
        ObjectLostError,
        OwnerDiedError,
        RayTaskError,
        WorkerCrashedError,
    )

    lost = (WorkerCrashedError, NodeDiedError, ObjectLostError, OwnerDiedError)
    started = False
    if not ray.is_initialized():
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if address:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        else:
            # Token authentication stays as Ray sets it up; its notice is not ours to print.
            logging.getLogger("ray._private.authentication").setLevel(logging.ERROR)
            # "local": a new cluster of our own even when `ray start` left one running.
            ray.init(address="local", num_cpus=workers, include_dashboard=False,
                     logging_level=logging.WARNING, log_to_driver=False,
                     object_store_memory=LOCAL_OBJECT_STORE)
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        report.workers = cpus
        # Retries are ours (max_retries=0) so that the run can count them.
        remote = ray.remote(num_cpus=1, max_retries=0)(work)
        job_ref = ray.put(job)
        queue = deque((part, 1) for part in parts)
        running: dict[Any, tuple[list[int], int]] = {}
        while queue or running:
            while queue and len(running) < 2 * cpus:
                part, attempt = queue.popleft()
                running[remote.remote(job_ref, part)] = (part, attempt)
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                part, attempt = running.pop(ref)
                try:
                    rows = ray.get(ref)
                except lost as exc:
                    if attempt >= ATTEMPTS:
                        raise ChunkLostError(f"a chunk ({part[0]}…{part[-1]}) was lost "
                                           f"{attempt} times: {type(exc).__name__}") from exc
                    report.retried += 1
                    queue.append((part, attempt + 1))
                    continue
                except RayTaskError as exc:
                    # Ray leaves this untyped (and absent without the extra): a typed
                    # name calls it either way
                    as_cause: Callable[[], BaseException] = exc.as_instanceof_cause
                    cause = as_cause()
                    raise cause from None
                finished(rows)
    finally:
        if started:
            ray.shutdown()


def _token_auth_if_token_exists() -> None:
    """Use Ray's token authentication towards an existing cluster when a token is at
    hand and the mode is not set — as Ray itself does for a cluster it starts (a
    cluster from ``ray start`` requires the token by default)."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.expanduser("~/.ray/auth_token")
    if os.environ.get("RAY_AUTH_TOKEN") or os.path.isfile(path):
        os.environ["RAY_AUTH_MODE"] = "token"


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError("Ray is not installed: pip install -e '.[research]' "
                         "(docs/analysis.md)") from None
    return ray
