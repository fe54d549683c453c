"""``GET /api/matches/{id}/analysis``: a finished game's analysis (docs/protocol.md,
"Post-game analysis").  Computed once, in its own worker process of the compute pool
(never on the event loop, never in the pools that serve hints and bot moves), within a
budget; kept with the match.  A new computation counts towards the address's quota and
is refused (429) when the worker already has ``analyses_waiting`` computing or waiting
(infra/quotas.py, docs/deploy.md "Limits"); a kept analysis is free."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.engine import Engine

from spillebord import games
from spillebord.server.analysis import store, work
from spillebord.server.errors import Refusal
from spillebord.server.http.api import Readable
from spillebord.server.http.deps import ComputeDep, QuotasDep, RepoDep
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.quotas import client_address

router = APIRouter()
SOLITAIRE_SECONDS = 8.0
"""The whole budget of a solitaire's analysis (wall seconds in the worker)."""
SOLVE_SECONDS = 1.0
"""The most one position's solve may take."""
TABLE_SECONDS = 8.0
"""The whole budget of a table game's analysis; moves after it are counted unknown."""
_running: dict[str, asyncio.Future[dict[str, Any]]] = {}


@router.get("/api/analysis")
def analysed_games() -> list[str]:
    """The games offered to players that have a post-game analysis."""
    return [g for g in games.ready_keys() if work.analysable(g) is not None]


@router.get("/api/matches/{match_id}/analysis")
async def analysis(request: Request, found: Readable, compute: ComputeDep, repo: RepoDep,
                   quotas: QuotasDep, match_id: str) -> dict[str, Any]:
    """The analysis of a finished match: a solitaire's solver verdicts and the move
    that lost the round (or the redeal that gave up its bonus) with a winning line; a
    table game's doubtful moves of the human seats by the level-3 bot."""
    session, _seat = found
    if session.running:
        raise Refusal("running", "the analysis is available when the game is over", 403)
    kind = await asyncio.to_thread(work.analysable, session.row.game)
    if kind is None:
        raise Refusal("no_analysis", f"{session.row.game} has no analysis", 404)
    kept = await asyncio.to_thread(store.load, repo.engine, match_id, work.VERSION)
    if kept is not None:
        return kept
    if match_id not in _running:
        # a new computation: 429 past the address's rate or a full queue (quotas.py)
        await quotas.analysis(client_address(request), len(_running))
    pending = _running.get(match_id)  # (another request may have started it meanwhile)
    if pending is None:
        record = session.record()
        humans = [s.seat for s in session.seats if s.kind == "human"]
        pending = _running[match_id] = asyncio.ensure_future(
            _compute(compute, repo.engine, match_id, kind, record.dumps(), humans))
        pending.add_done_callback(lambda _f: _running.pop(match_id, None))
    return await asyncio.shield(pending)


async def _compute(compute: Compute, engine: Engine, match_id: str, kind: str,
                   record: str, humans: list[int]) -> dict[str, Any]:
    if kind == "solitaire":
        text = await compute.run(compute.solver_pool, work.solitaire, record,
                                 SOLITAIRE_SECONDS, SOLVE_SECONDS, name="analysis")
    else:
        text = await compute.run(compute.solver_pool, work.table, record, humans,
                                 TABLE_SECONDS, name="analysis")
    body: dict[str, Any] = json.loads(text)
    await asyncio.to_thread(store.save, engine, match_id, work.VERSION, body)
    return body
