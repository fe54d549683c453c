"""The lesson page ``/learn/{game}`` and its API (docs/protocol.md, "Lessons").

``GET /api/learn`` lists the games with a lesson; ``GET /api/learn/{game}`` gives the
lesson's outline and its first position; ``POST /api/learn/{game}`` plays the learner's
move (an action text, or a click target the game resolves) on the actions played so
far and answers the next position, or the explanation of a move the step does not take.
After the lesson a table game's other seats are played by the game's default level,
in the bot pool (never on the event loop).
"""

from __future__ import annotations

import asyncio
import random
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from spillebord import bots, games, learn
from spillebord.core.record import GameRecord
from spillebord.server.errors import Refusal
from spillebord.server.http.deps import ComputeDep, QuotasDep
from spillebord.server.http.pages import page
from spillebord.server.infra import compute
from spillebord.server.infra.compute import Compute
from spillebord.server.infra.quotas import client_address
from spillebord.server.learn import service

router = APIRouter()
BOT_MOVES_PER_REQUEST = 400
"""The most bot moves one answer plays before the learner's turn (a safety bound)."""


class LearnMove(BaseModel):
    actions: list[Annotated[str, Field(max_length=80)]] = Field(
        default_factory=list, max_length=service.MAX_ACTIONS)
    action: str | None = Field(default=None, max_length=80)
    click: str | None = Field(default=None, max_length=16)


def _lesson_or_refuse(game: str) -> str:
    if game not in learn.lesson_games() or not games.manifest(game).ready:
        raise Refusal("unknown_game", f"{game[:32]!r} has no lesson", 404)
    return game


def _walk(game: str, actions: list[str]) -> service.Walk:
    try:
        return service.walk(game, actions)
    except service.LessonRefused as exc:
        raise Refusal("bad_lesson", str(exc)) from None


@router.get("/learn/{game}", include_in_schema=False)
def lesson_page(game: str) -> Response:
    if game not in learn.lesson_games():
        raise HTTPException(404)
    return page("learn.html", "Lær spillet")


@router.get("/api/learn")
def lessons() -> list[str]:
    """The games that have a lesson (and are offered to players)."""
    return [g for g in learn.lesson_games() if games.manifest(g).ready]


@router.get("/api/learn/{game}")
async def lesson(game: str) -> dict[str, Any]:
    """The lesson's outline (catalogue keys per step, whose step it is) and its first
    position for the learner (seat 0)."""
    _lesson_or_refuse(game)

    def first() -> dict[str, Any]:
        w = service.walk(game, [])
        service.play_scripted(w)
        return {**service.outline(game), **service.answer(w, 0)}
    return await asyncio.to_thread(first)


@router.post("/api/learn/{game}")
async def lesson_move(request: Request, compute_pools: ComputeDep, quotas: QuotasDep,
                      game: str, body: LearnMove) -> dict[str, Any]:
    """Play the learner's move (``action``, or ``click`` on a place) after ``actions``
    (429 past the address's quota of lesson moves: infra/quotas.py)."""
    _lesson_or_refuse(game)
    address = client_address(request)
    await quotas.lesson_move(address)
    w = await asyncio.to_thread(_walk, game, list(body.actions))
    since = len(w.actions)
    message: dict[str, object] | None = None
    choices: list[str] = []
    action = body.action
    if action is None and body.click is not None:
        meanings = service.click(w, body.click)
        if len(meanings) == 1:
            action = meanings[0]
        elif meanings:
            choices = meanings
        else:
            message = {"key": "server.click_nothing", "params": {"place": body.click},
                       "places": ["place"]}
    if action is not None:
        message = await asyncio.to_thread(service.try_action, w, action)
    if message is None and not choices:
        await _bots_play(compute_pools, w, f"lesson:{address}")
    return await asyncio.to_thread(service.answer, w, since, message, choices)


async def _bots_play(pools: Compute, w: service.Walk, flow: str) -> None:
    """After the lesson: the other seats move (the game's default level, in the bot pool,
    in ``flow``'s turn: one flow per address, infra/fair_queue.py) until it is the
    learner's turn or the game is over."""
    game = w.lesson.game
    level = bots.default_level(game)
    table = bots.levels(game)
    if level is None or level not in table:
        return
    chosen = table[level]
    for _ in range(BOT_MOVES_PER_REQUEST):
        state = w.state
        if w.in_lesson or state.outcome is not None or state.to_move in (None,
                                                                         service.LEARNER):
            return
        seat = state.to_move
        record = GameRecord(game, state.seats, 0, {}, tuple(w.actions),
                            w.lesson.position)
        text = await pools.queued("bots", flow, compute.bot_choose, record.dumps(), seat,
                                  chosen.bot, dict(chosen.options), random.randrange(2**31))
        await asyncio.to_thread(w.apply, text)
