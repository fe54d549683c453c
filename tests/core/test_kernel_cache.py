"""The compiled kernels' cache is kept per version of the code (spillebord/kernel_cache.py).

Numba renews a cached kernel when its own file changes, not when a kernel it calls
from another file does: after an upgrade that changed only the rules kernel, the bots
would have gone on running the old rules.  A real two-file package shows the hazard with
one fixed cache directory, and that the directory chosen from the code's digest ends it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spillebord import kernel_cache

CALLEE = """from numba import njit

@njit(cache=True)
def points():
    return {value}
"""
CALLER = """from numba import njit

from kpkg.games.callee import points

@njit(cache=True)
def total():
    return points() + 100
"""
RUN = """import os, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from spillebord import kernel_cache
if {fixed!r}:
    os.environ["NUMBA_CACHE_DIR"] = {fixed!r}
else:
    name = "kernels-" + kernel_cache.digest(Path({root!r}) / "kpkg")
    os.environ["NUMBA_CACHE_DIR"] = str(Path({root!r}) / "cache" / name)
from kpkg.caller import total
print(total())
"""


def package(root: Path, value: int) -> None:
    (root / "kpkg" / "games").mkdir(parents=True, exist_ok=True)
    (root / "kpkg" / "__init__.py").write_text("")
    (root / "kpkg" / "games" / "__init__.py").write_text("")
    (root / "kpkg" / "games" / "callee.py").write_text(CALLEE.format(value=value))
    (root / "kpkg" / "caller.py").write_text(CALLER)


def total(root: Path, fixed: str = "") -> int:
    out = subprocess.run([sys.executable, "-c", RUN.format(root=str(root), fixed=fixed)],
                         capture_output=True, text=True, timeout=300, check=True)
    return int(out.stdout.split()[-1])


@pytest.mark.slow  # four processes compile with Numba
def test_a_changed_callee_in_another_file_is_compiled_afresh(tmp_path: Path) -> None:
    package(tmp_path, 1)
    assert total(tmp_path) == 101
    fixed = str(tmp_path / "fixed")
    assert total(tmp_path, fixed) == 101
    package(tmp_path, 2)  # an upgrade changes only the callee's file
    assert total(tmp_path, fixed) == 101, "Numba renewed it itself: this guard is moot"
    assert total(tmp_path) == 102  # the digest's directory: compiled afresh


def test_the_digest_follows_the_code_below_the_server_only(tmp_path: Path) -> None:
    for rel in ("games/kugler/kernel.py", "bots/x.py", "server/app.py", "web/pages.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    first = kernel_cache.digest(tmp_path)
    (tmp_path / "server/app.py").write_text("x = 2\n")
    (tmp_path / "web/pages.py").write_text("x = 2\n")
    assert kernel_cache.digest(tmp_path) == first
    (tmp_path / "games/kugler/kernel.py").write_text("x = 2\n")
    assert kernel_cache.digest(tmp_path) != first


def chosen(env_value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if env_value is not None:
        env["NUMBA_CACHE_DIR"] = env_value
    out = subprocess.run([sys.executable, "-c", "import os, spillebord; "
                          "print(os.environ['NUMBA_CACHE_DIR'])"],
                         capture_output=True, text=True, timeout=120, check=True, env=env)
    return out.stdout.strip()


def test_importing_spillebord_chooses_the_directory_unless_the_operator_did(
        tmp_path: Path) -> None:
    ours = chosen(None)
    assert Path(ours).name == f"kernels-{kernel_cache.digest()}"
    assert chosen(str(tmp_path / "kernels-0123456789abcdef")) == ours  # another release's
    assert chosen(str(tmp_path / "mine")) == str(tmp_path / "mine")  # the operator's


def test_warm_removes_older_codes_kernels_only_in_its_own_cache(tmp_path: Path) -> None:
    cache = tmp_path / "__pycache__"
    keep, old = cache / "kernels-new", cache / "kernels-old"
    for d in (keep, old):
        d.mkdir(parents=True)
        (d / "k.nbi").write_text("")
    beside = tmp_path / "games" / "__pycache__" / "kernel.f-1.py311.nbi"
    beside.parent.mkdir(parents=True)
    beside.write_text("")
    gone = kernel_cache.prune(keep, tmp_path)
    assert old in gone and not old.exists() and not beside.exists()
    assert (keep / "k.nbi").exists()
    elsewhere = tmp_path / "user-cache" / "kernels-a"
    other = tmp_path / "user-cache" / "kernels-b"
    other.mkdir(parents=True)
    kernel_cache.prune(elsewhere, tmp_path)
    assert other.exists()  # a user's cache may be another install's
