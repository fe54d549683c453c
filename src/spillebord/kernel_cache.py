"""The compiled kernels' cache follows the code they are made of.

Numba's own cache (``cache=True``, files beside the sources in ``__pycache__``) renews a
kernel when *its* file changes, but not when a kernel it calls from another file does (a
documented limit of Numba): after an upgrade that changed ``games/kugler/kernel.py``
only, the bots' and the research kernels that call it would go on running the old rules.
So ``import spillebord`` (before Numba is imported) takes a digest of every source file
the kernels can be made of — the layers below the server (design.md: core, games, bots,
solvers, research, analysis, learn; the server, the pages and the command line never
run compiled) — and when it differs from the one stamped in the package's
``__pycache__``, forgets every cached kernel beside the code (each is compiled afresh on
first use; ``spillebord warm`` does it ahead) and stamps the new digest.

The kernels stay beside the code, so a copy of the package that keeps the files' times
(a release unpacked beside the running one) starts as warm as the original.  Where the
package cannot be written, Numba keeps them in the user's cache; there the directory is
named after the digest (``$XDG_CACHE_HOME`` or ``~/.cache``, ``spillebord/kernels-…``).
A ``NUMBA_CACHE_DIR`` set by the operator is kept as it is (then keeping it fresh is
the operator's part).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
NOT_COMPILED = frozenset({"server", "web", "cli"})  # the layers above the kernels
PREFIX = "kernels-"
STAMP = "kernels.digest"  # in the package's __pycache__: the code its kernels are of


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


def ours(value: str) -> bool:
    """Whether a ``NUMBA_CACHE_DIR`` value is one this module chose (an inherited one
    may be another release's: it is chosen again)."""
    return Path(value).name.startswith(PREFIX)


def forget(package: Path) -> list[Path]:
    """Remove every cached kernel beside the package's sources (the removed files)."""
    gone = []
    for old in package.rglob("__pycache__/*.nb[ic]"):
        old.unlink(missing_ok=True)
        gone.append(old)
    return gone


def configure(package: Path = PACKAGE) -> Path | None:
    """Make Numba's cache follow this code: the directory the kernels are kept in
    (None: the operator chose one)."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given and not ours(given):
        return None
    os.environ.pop("NUMBA_CACHE_DIR", None)
    now = digest(package)
    here = package / "__pycache__"
    chosen = here
    if os.access(here if here.exists() else package, os.W_OK):
        stamp = here / STAMP
        try:
            stamped = stamp.read_text().strip()
        except OSError:
            stamped = ""
        if stamped != now:
            forget(package)
            here.mkdir(exist_ok=True)
            fresh = here / f"{STAMP}.{os.getpid()}"
            fresh.write_text(now + "\n")
            fresh.replace(stamp)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        chosen = base / "spillebord" / f"{PREFIX}{now}"
        os.environ["NUMBA_CACHE_DIR"] = str(chosen)
    if "numba" in sys.modules:  # imported before spillebord: it read its settings
        from numba.core import config
        config.reload_config()  # type: ignore[no-untyped-call]
    return chosen
