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
if {follow!r}:
    kernel_cache.configure(Path({root!r}) / "kpkg")
from kpkg.caller import total
print(total())
"""

def package(root: Path, value: int) -> None:
    (root / "kpkg" / "games").mkdir(parents=True, exist_ok=True)
    (root / "kpkg" / "__init__.py").write_text("")
    (root / "kpkg" / "games" / "__init__.py").write_text("")
    (root / "kpkg" / "games" / "callee.py").write_text(CALLEE.format(value=value))
    (root / "kpkg" / "caller.py").write_text(CALLER)


def total(root: Path, follow: bool = True) -> int:
    out = subprocess.run([sys.executable, "-c", RUN.format(root=str(root), follow=follow)],
                         capture_output=True, text=True, timeout=300, check=True)
    return int(out.stdout.split()[-1])


@pytest.mark.slow  # four processes compile with Numba
def test_a_changed_callee_in_another_file_is_compiled_afresh(tmp_path: Path) -> None:
    package(tmp_path, 1)
    assert total(tmp_path, follow=False) == 101  # Numba's own cache, beside the code
    package(tmp_path, 2)  # an upgrade changes only the callee's file
    assert total(tmp_path, follow=False) == 101, "Numba renewed it itself: this is moot"
    assert total(tmp_path) == 102  # the digest changed: the kernels were forgotten
    assert total(tmp_path) == 102  # and are kept again, beside the code
    assert list((tmp_path / "kpkg" / "__pycache__").glob("caller.total-*.nbi"))


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
                          "print(os.environ.get('NUMBA_CACHE_DIR', '-'))"],
                         capture_output=True, text=True, timeout=120, check=True, env=env)
    return out.stdout.strip()


def test_importing_spillebord_follows_the_code_unless_the_operator_chose(
        tmp_path: Path) -> None:
    assert chosen(None) == "-"  # beside the code (the package here can be written)
    assert chosen(str(tmp_path / "kernels-0123456789abcdef")) == "-"  # older code's choice
    assert chosen(str(tmp_path / "mine")) == str(tmp_path / "mine")  # the operator's
    stamp = kernel_cache.PACKAGE / "__pycache__" / kernel_cache.STAMP
    assert stamp.read_text().strip() == kernel_cache.digest()


def test_kernels_of_older_code_are_forgotten_and_of_this_code_kept(tmp_path: Path) -> None:
    (tmp_path / "games" / "__pycache__").mkdir(parents=True)
    (tmp_path / "games" / "k.py").write_text("x = 1\n")
    kept = tmp_path / "games" / "__pycache__" / "k.f-1.py311.nbi"
    kept.write_text("")
    assert kernel_cache.configure(tmp_path) == tmp_path / "__pycache__"
    assert not kept.exists()  # no stamp yet: older code's, forgotten
    kept.write_text("")
    kernel_cache.configure(tmp_path)
    assert kept.exists()  # the same code: kept
    (tmp_path / "games" / "k.py").write_text("x = 2\n")
    kernel_cache.configure(tmp_path)
    assert not kept.exists()  # a rule changed: forgotten
