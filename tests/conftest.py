"""Shared pytest configuration: the test tiers and the leaked-process check.

Tiers (docs/testing.md): every test under tests/browser is marked ``browser``, under
tests/scale ``services``, under tests/server ``server`` (a real server on a socket), under
tests/research and tests/analysis ``research``; long ones carry ``slow`` themselves.
``make check`` runs what is left — rules, conformance, core, CLI — and ``make test`` runs
every tier.  Without the research extra (``make install-dev``) the research and analysis
folders are not collected (nor a test file elsewhere that imports spillebord.research),
and the run's header says so.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import time
from collections.abc import Generator, Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
TIERS = {"browser": "browser", "scale": "services", "server": "server",
         "research": "research", "analysis": "research"}
RESEARCH_MODULES = ("pettingzoo", "gymnasium", "pyspiel", "ray", "pyarrow", "matplotlib")
RESEARCH = all(find_spec(name) is not None for name in RESEARCH_MODULES)
# A process a test started has this long to end after the last fixture is torn down.
# The wait ends as soon as none is left, so it costs a passing run nothing; 10 s ran out
# at load ≈ 30 for a server's compute processes still exiting (issue 30, session 10).
LEAK_GRACE = 60.0
# Where each test's wall and CPU seconds go when set (scripts/test_times.py reads them).
TIMES_ENV = "SPILLEBORD_TEST_TIMES"


def pytest_report_header() -> str | None:
    if RESEARCH:
        return None
    return ("research extra not installed: tests/research and tests/analysis are not "
            "collected (make install-research)")


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if RESEARCH:
        return None
    if collection_path.parent == TESTS and collection_path.name in ("research", "analysis"):
        return True
    # A test file of another tier that drives the research adapters (the bot client
    # seats a PettingZoo policy) needs the extra too.
    # (tests/learned runs in .venv-learn, without the extra, and decides for itself.)
    if (collection_path.suffix == ".py" and collection_path.name.startswith("test_")
            and collection_path.parent.name != "learned"):
        text = collection_path.read_text(encoding="utf-8")
        return True if "from spillebord.research" in text else None
    return None


# The order the tiers start in (`make test`, docs/testing.md): the longest chains first —
# the browser group (one worker), then the services files (each worker its own
# PostgreSQL/Redis/nginx), the server files, research — and the many short files of the
# fast tier last, filling the workers' gaps at the end.  Files keep their order within
# a tier; run with --no-loadscope-reorder so pytest-xdist hands the groups out in it.
START_ORDER = {"browser": 0, "services": 1, "server": 2, "research": 3}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    order: dict[int, int] = {}
    for item in items:
        parts = Path(item.path).resolve().relative_to(TESTS).parts
        tier = TIERS.get(parts[0]) if len(parts) > 1 else None
        if tier is not None:
            item.add_marker(tier)
        # `make test` runs with --dist loadfile: a file's tests stay on one worker, so
        # its module server starts once.  (--dist loadgroup with xdist_group marks
        # looked like it did more, but with pytest 9 the group never reached the node
        # ids and every test was sent on its own: measured this session.)
        order[id(item)] = START_ORDER.get(tier or "", len(START_ORDER))
    items.sort(key=lambda item: order[id(item)])  # stable: a file's tests stay together


# multiprocessing's own helper for the test process (its semaphores): it ends with the
# process it serves, so it is no test's leftover.
HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def descendants(root: int) -> dict[int, str]:
    """The live (not zombie) processes below ``root``, with their command lines."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        if state != "Z":
            children.setdefault(int(ppid), []).append(int(entry))
    found: dict[int, str] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        found[pid] = raw.replace(b"\0", b" ").decode("utf-8", "replace").strip()[:200]
        todo.extend(children.get(pid, []))
    return found


@pytest.fixture(scope="session", autouse=True)
def no_leaked_processes() -> Iterator[None]:
    """Requested first, torn down last: when every other fixture has stopped what it
    started, no process the tests started may still run.  Leftovers are killed and the
    run fails at this teardown, naming them."""
    before = set(descendants(os.getpid()))
    yield
    deadline = time.monotonic() + LEAK_GRACE
    while True:
        left = {pid: cmd for pid, cmd in descendants(os.getpid()).items()
                if pid not in before and not any(helper in cmd for helper in HELPERS)}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not left, "processes the tests started outlived them: " + "; ".join(
        f"{pid} {cmd}" for pid, cmd in sorted(left.items()))


# -- where the time goes (docs/testing.md, "Timing the tiers") -----------------------------
def _cpu() -> tuple[float, float]:
    """CPU seconds (user + sys) of this process and of the children it has waited for."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """With SPILLEBORD_TEST_TIMES=DIR, one JSON line per test (setup, call and teardown
    together) in DIR/<xdist worker>.jsonl: wall seconds, this process's CPU seconds and
    its waited-for children's (a module server's CPU lands on the test whose teardown
    stops it: add a file's tests up)."""
    out = os.environ.get(TIMES_ENV)
    if not out:
        yield
        return
    wall, (me, kids) = time.monotonic(), _cpu()
    yield
    wall, (me2, kids2) = time.monotonic() - wall, _cpu()
    record = {"test": item.nodeid, "file": item.nodeid.split("::")[0],
              "wall": round(wall, 3), "cpu": round(me2 - me, 3),
              "children": round(kids2 - kids, 3),
              "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
              "marks": sorted({m.name for m in item.iter_markers()} & {
                  "slow", "browser", "services", "server", "research"})}
    path = Path(out) / f"{record['worker']}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        f.write(json.dumps(record) + "\n")
