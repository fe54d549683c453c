"""Where Numba keeps the compiled kernels: a directory named after the code they are made of.

Numba's own cache (``cache=True``) renews a kernel when *its* file changes, but not when
a kernel it calls from another file does (a documented limit of Numba): after an
upgrade that changed ``games/kugler/kernel.py`` only, the bots' and the research
kernels that call it would go on running the old rules from ``__pycache__``.  So the
cache directory is chosen here, before Numba is imported (``spillebord/__init__.py``),
from a digest of every source file the kernels can be made of — the layers below the
server (design.md: core, games, bots, solvers, research, analysis, learn; the server,
the web pages and the command line never run compiled).  Code changed there: a new
directory, every kernel compiled afresh (``spillebord warm`` / ``make install`` does it
and removes the directories of other code).

It lives in the package's ``__pycache__`` when that can be written, else in the user's
cache (``$XDG_CACHE_HOME`` or ``~/.cache``, ``spillebord/``).  A ``NUMBA_CACHE_DIR`` set
by the operator is kept as it is (then keeping it fresh is the operator's part).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
NOT_COMPILED = frozenset({"server", "web", "cli"})  # the layers above the kernels
PREFIX = "kernels-"


def digest(package: Path = PACKAGE) -> str:
    """A digest of every source file below the server layer (names and contents)."""
    h = hashlib.blake2b(digest_size=8)
    files = [p for p in package.rglob("*.py")
             if p.relative_to(package).parts[0] not in NOT_COMPILED]
    for path in sorted(files):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def home(package: Path = PACKAGE) -> Path:
    """The directory that holds the ``kernels-<digest>`` directories."""
    here = package / "__pycache__"
    if os.access(here if here.exists() else package, os.W_OK):
        return here
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "spillebord"


def ours(value: str) -> bool:
    """Whether a ``NUMBA_CACHE_DIR`` value is one this module chose (an inherited one
    may be another release's: it is chosen again)."""
    return Path(value).name.startswith(PREFIX)


def configure() -> Path | None:
    """Point Numba at this code's kernel directory (None: the operator chose one)."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given and not ours(given):
        return None
    chosen = home() / f"{PREFIX}{digest()}"
    os.environ["NUMBA_CACHE_DIR"] = str(chosen)
    if "numba" in sys.modules:  # imported before spillebord: it read its settings
        from numba.core import config
        config.reload_config()  # type: ignore[no-untyped-call]
    return chosen


def prune(keep: Path, package: Path = PACKAGE) -> list[Path]:
    """Remove the kernel directories of this install's older code beside ``keep`` (only
    in the package's own ``__pycache__``: a user's cache may hold another install's),
    and the kernels an older release left beside the sources (the removed paths)."""
    import shutil

    gone: list[Path] = []
    if keep.parent == package / "__pycache__" and keep.parent.is_dir():
        for other in keep.parent.glob(f"{PREFIX}*"):
            if other != keep and other.is_dir():
                shutil.rmtree(other, ignore_errors=True)
                gone.append(other)
    for old in package.rglob("__pycache__/*.nb[ic]"):
        old.unlink(missing_ok=True)
        gone.append(old)
    return gone
