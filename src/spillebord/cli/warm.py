"""``spillebord warm``: compile every compiled kernel once, into numba's on-disk cache.

The rules of Kugler og Jokere, its bots and the Posthus solver run in numba kernels; on a
fresh install each is compiled the first time it runs (tens of seconds on 2 cores: the
first Kugler bot move took 38.6 s, the first Studenterkabalen hint 8.9 s). ``make install``
runs this once per checkout, so neither the server's start nor a player's first move
pays for it; later runs load the kernels from the cache in about a second.  A cache made of older
code is forgotten when ``spillebord`` is imported (``spillebord/kernel_cache.py``).

It plays each game's first legal-action list, one decision of every bot level, and the
solvers' ``warm_up`` and one hint of every solitaire, on deal 0.
"""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from spillebord.server.infra.warmup import steps


def warm(quiet: bool = False) -> float:
    """Run every step; returns the seconds it took."""
    began = time.perf_counter()
    todo = steps()
    with Progress(TextColumn("{task.description:<32}"), BarColumn(), TimeElapsedColumn(),
                  disable=quiet, transient=False) as progress:
        task = progress.add_task("compiling kernels", total=len(todo))
        for label, run in todo:
            progress.update(task, description=label)
            run()
            progress.advance(task)
        progress.update(task, description="kernels ready")
    return time.perf_counter() - began


def command(quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                                help="no progress bar")] = False) -> None:
    """Compile the rules, bot and solver kernels into numba's cache (make install runs it)."""
    took = warm(quiet)
    typer.echo(f"kernels ready in {took:.1f} s")
