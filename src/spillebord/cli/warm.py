"""``spillebord warm``: compile every compiled kernel once, into numba's on-disk cache.

The rules of Kugler og Jokere, its bots and the Posthus solver run in numba kernels; on a
fresh install each is compiled the first time it runs (tens of seconds on 2 cores: the
first Kugler bot move took 38.6 s, the first Studenterkabalen hint 8.9 s). ``make install``
runs this once per checkout, so neither the server's start nor a player's first move
pays for it; later runs load the kernels from the cache in about a second.

It plays each game's first legal-action list, one decision of every bot level, and the
solvers' ``warm_up`` and one hint of every solitaire, on deal 0.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from types import ModuleType
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from spillebord import bots, games, solvers
from spillebord.core.protocol import Game


def steps() -> list[tuple[str, Callable[[], object]]]:
    """What to run, each with a line for the progress bar."""
    found: list[tuple[str, Callable[[], object]]] = []
    keys = games.keys()
    for key in keys:
        game = games.load(key)

        def rules(game: Game = game) -> object:
            return game.new(deal=0).legal_actions()
        found.append((f"{key}: rules", rules))
        for number, level in sorted(bots.levels(key).items()):
            def decide(key: str = key, level: bots.Level = level) -> object:
                state = games.load(key).new(deal=0)
                seat = state.to_move if state.to_move is not None else 0
                player = bots.load(key, level.bot, **dict(level.options))
                return player.choose(bots.Observation(state, seat, random.Random(0)))
            found.append((f"{key}: level {number} bot", decide))
        if solvers.has_solver(key):
            module = solvers.load(key)
            hook = getattr(module, "warm_up", None)
            if hook is not None:
                found.append((f"{key}: solver", hook))

            def hint(module: ModuleType = module, game: Game = game) -> object:
                return module.hint(game.new(deal=0), 1.0)
            found.append((f"{key}: hint", hint))
    return found


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
