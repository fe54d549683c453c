"""A warm first start (issues 27 and 31): the worker answers at once, says "warming"
until it can serve every game at full speed, and shows how far it has come.

The compiled kernels (Kugler og Jokere's rules and bots, the Posthus solver) are built on
a fresh install the first time they run — tens of seconds — and loaded from numba's cache
(about a second each process) afterwards; the bot and solver worker processes must be
spawned and load them too.  Done inside the lifespan start-up, that kept the whole
worker silent (``/healthz`` included: a supervisor would kill it); done lazily, it made
the first player wait (6.2 s for the first level-2 Kugler move of a fresh ``make run``).

So the start-up runs in the background, in this order, after the quick checks (schema,
Redis) that must stop a worker that cannot serve:

1. ``rules``: each game's first legal-action list in this process (its rules kernel);
2. ``games``: the services start and the unfinished games reload (``serve``);
3. ``bots`` and ``solver``: every step of :func:`steps` of that kind in the bot and the
   solver worker process, both at once (one decision of every bot level, each solver's
   ``warm_up`` and one hint), so the first decision finds its kernels loaded.

``/healthz`` answers from the first moment.  ``/readyz`` answers 503 with ``"status":
"warming"`` and the step it is at until all of them are done (then the usual checks).
Until step 2 is done (:attr:`Warmup.serving`) :class:`WarmupGate` answers everything
but the operator's paths with 503 ``warming`` and ``Retry-After``: a page gets a small
page that shows the progress and reloads itself, an API call the JSON refusal, a game
socket a 503 before the upgrade (nginx tries the next worker).  Each step is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

import spillebord.web
from spillebord import bots, games, solvers
from spillebord.core.protocol import Game

if TYPE_CHECKING:
    from spillebord.server.infra.compute import Compute

log = logging.getLogger(__name__)
KINDS = ("rules", "bots", "solver")
PAGE = Path(spillebord.web.__file__).resolve().parent / "static" / "warming.html"
# Paths that work while warming: the operator's, and the files the warming page loads.
OPEN_PATHS = ("/healthz", "/readyz", "/metrics", "/static/")
RETRY_SECONDS = 2
TRY_AGAIN_LATER = 1013  # WebSocket close code

Step = tuple[str, Callable[[], object]]


def steps(kind: str | None = None) -> list[Step]:
    """Every compiled kernel's first run, each with a label: ``rules`` (each game's
    first legal actions), ``bots`` (one decision of every bot level on deal 0),
    ``solver`` (each solver's ``warm_up`` and one hint).  ``kind`` picks one kind."""
    found: list[tuple[str, str, Callable[[], object]]] = []
    for key in games.keys():  # noqa: SIM118 (a module function, not a dict)
        game = games.load(key)

        def rules(game: Game = game) -> object:
            return game.new(deal=0).legal_actions()
        found.append(("rules", f"{key}: rules", rules))
        for number, level in sorted(bots.levels(key).items()):
            def decide(key: str = key, level: bots.Level = level) -> object:
                state = games.load(key).new(deal=0)
                seat = state.to_move if state.to_move is not None else 0
                player = bots.load(key, level.bot, **dict(level.options))
                return player.choose(bots.Observation(state, seat, random.Random(0)))
            found.append(("bots", f"{key}: level {number} bot", decide))
        if solvers.has_solver(key):
            module = solvers.load(key)
            hook = getattr(module, "warm_up", None)
            if hook is not None:
                found.append(("solver", f"{key}: solver", hook))

            def hint(module: ModuleType = module, game: Game = game) -> object:
                return module.hint(game.new(deal=0), 1.0)
            found.append(("solver", f"{key}: hint", hint))
    return [(label, run) for k, label, run in found if kind is None or k == kind]


def run_steps(kind: str) -> int:
    """Run every step of ``kind`` here (in a bot or solver worker process); how many."""
    todo = steps(kind)
    for _label, run in todo:
        run()
    return len(todo)


@dataclass
class Warmup:
    """Where the start-up is; ``/readyz`` and the warming page report it."""

    step: str = "starting"
    done: list[str] = field(default_factory=list)
    total: int = 0
    serving: bool = False   # the services run and the games are loaded (step 2)
    ready: bool = False     # every step done
    failed: str | None = None
    began: float = field(default_factory=time.monotonic)
    took: float | None = None
    task: asyncio.Task[None] | None = None

    def report(self) -> dict[str, Any]:
        return {"step": self.step, "done": len(self.done), "of": self.total,
                "seconds": round(time.monotonic() - self.began, 1),
                **({"failed": self.failed} if self.failed else {})}

    def start(self, serve: Callable[[], Awaitable[None]], compute: Compute,
              processes: bool) -> None:
        """Begin in the background (from the lifespan start-up, which then returns)."""
        self.task = asyncio.create_task(self.run(serve, compute, processes))

    async def run(self, serve: Callable[[], Awaitable[None]], compute: Compute,
                  processes: bool) -> None:
        pools = [("bots", compute.bot_pool), ("solver", compute.solver_pool)]
        try:
            rules = steps("rules")
            self.total = len(rules) + 1 + (len(pools) if processes else 0)
            for label, run in rules:
                await self._step(label, asyncio.to_thread(run))
            await self._step("games", serve())
            self.serving = True
        except Exception as exc:  # the worker cannot serve: say so, stay not ready
            self.failed = f"{self.step}: {exc}"
            log.exception("the start-up failed at %s", self.step)
            return
        if processes:  # both processes at once (two processes, or a thread and one)
            await asyncio.gather(*(self._process(compute, name, kind)
                                   for name, kind in pools))
        self.took = time.monotonic() - self.began
        self.ready = True
        self.step = "ready"
        log.warning("ready: warmed up in %.1f s", self.took)

    async def _process(self, compute: Compute, name: str, kind: str) -> None:
        try:
            await self._step(f"{name} kernels",
                             compute.run(kind, run_steps, name, name=name))
        except Exception:  # not fatal: the first call pays for the process's start
            log.warning("warming the %s process failed", name, exc_info=True)

    async def _step(self, label: str, work: Awaitable[object]) -> None:
        self.step = label
        t0 = time.monotonic()
        await work
        self.done.append(label)
        took = time.monotonic() - t0
        if took > 1.0:  # a compile on a fresh install, or a process starting
            log.warning("warming: %s took %.1f s (%d of %d)", label, took,
                        len(self.done), self.total)

    async def stop(self) -> None:
        """Shutdown during the start-up: wait for the step in flight (it may hold the
        services half started), not for the rest."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


class WarmupGate:
    """While the services are not yet serving (:attr:`Warmup.serving`): 503 ``warming``
    with ``Retry-After`` for everything but ``OPEN_PATHS`` — a browser's page request
    gets the warming page (it shows the progress from ``/readyz`` and reloads itself),
    a game socket a 503 before the upgrade."""

    def __init__(self, app: ASGIApp, warmup: Warmup) -> None:
        self.app = app
        self.warmup = warmup

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (self.warmup.serving or scope["type"] not in ("http", "websocket")
                or str(scope.get("path", "")).startswith(OPEN_PATHS)):
            await self.app(scope, receive, send)
            return
        headers = {"Retry-After": str(RETRY_SECONDS), "Cache-Control": "no-store"}
        if scope["type"] == "websocket":  # before the upgrade: nginx tries another
            ws = WebSocket(scope, receive, send)
            try:
                await ws.send_denial_response(Response(status_code=503, headers=headers))
            except RuntimeError:  # a server without denial responses: "try again later"
                await ws.close(code=TRY_AGAIN_LATER)
            return
        accept = dict(scope.get("headers") or []).get(b"accept", b"")
        response: JSONResponse | FileResponse
        if scope.get("method") == "GET" and b"text/html" in accept and PAGE.is_file():
            response = FileResponse(PAGE, status_code=503, headers=headers,
                                    media_type="text/html; charset=utf-8")
        else:
            response = JSONResponse(
                {"detail": {"code": "warming", "reason": "the server is starting; "
                            "try again shortly", "warming": self.warmup.report()}},
                status_code=503, headers=headers)
        await response(scope, receive, send)
