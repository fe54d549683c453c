"""Walk a lesson for the page: where the learner stands, what a move does.

Stateless: the page sends the actions played so far (from the lesson's position) and the
new one; the server replays them, so it alone holds the rules and the hidden cards.  The
first ``len(lesson.steps)`` actions must be the lesson's own (the learner's taught moves
and the other seats' scripted ones); after them the learner plays freely (a solitaire
to its end, a table game against level bots: ``routes`` asks the bot pool for their
moves).  Every view sent is seat 0's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spillebord import games, learn
from spillebord.core.errors import SpillebordError, translatable
from spillebord.core.protocol import State

LEARNER = 0
MAX_ACTIONS = 3000
"""The most actions a request may carry (a lesson and a long free game after it)."""


class LessonRefused(ValueError):
    """The request does not follow the lesson (a tampered or stale action list)."""


@dataclass
class Walk:
    """A lesson replayed up to the actions sent: the state and what led there."""

    lesson: learn.Lesson
    actions: list[str]
    states: list[State] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def in_lesson(self) -> bool:
        return len(self.actions) < len(self.lesson.steps)

    def apply(self, action: str) -> None:
        self.states.append(self.state.apply(action))
        self.actions.append(action)


def walk(game: str, actions: list[str]) -> Walk:
    """Replay ``actions`` from the lesson's position (LessonRefused when they stray from
    the lesson's steps or are not legal)."""
    lesson = learn.load(game)
    if len(actions) > MAX_ACTIONS:
        raise LessonRefused(f"at most {MAX_ACTIONS} actions")
    w = Walk(lesson, [], [learn.start(lesson)])
    for i, action in enumerate(actions):
        if i < len(lesson.steps) and action != lesson.steps[i].action:
            raise LessonRefused(f"action {i} is not the lesson's step")
        try:
            w.apply(action)
        except SpillebordError as error:
            raise LessonRefused(f"action {i} is not legal: {error}") from None
    return w


def play_scripted(w: Walk) -> None:
    """Play the other seats' scripted steps that come next in the lesson."""
    while w.in_lesson and w.lesson.steps[len(w.actions)].seat != LEARNER:
        w.apply(w.lesson.steps[len(w.actions)].action)


def try_action(w: Walk, action: str) -> dict[str, object] | None:
    """Play the learner's ``action``: None when it was played, else the translatable
    explanation (the engine's refusal, or ``learn.not_taught`` for a legal move the
    step does not teach).  The lesson's next scripted steps follow a taught move."""
    if w.state.outcome is not None or w.state.to_move != LEARNER:
        return translatable("learn.not_your_turn", {})
    if w.in_lesson:
        verdict = learn.check(w.lesson, len(w.actions), action)
        if not verdict["ok"]:
            message = verdict["message"]
            return message if isinstance(message, dict) else {}
        w.apply(action)
        play_scripted(w)
        return None
    try:
        w.apply(action)
    except SpillebordError as error:
        return error.message() or translatable("learn.not_allowed", {})
    return None


def click(w: Walk, target: str) -> list[str]:
    """What a click on ``target`` may mean (the game's click-to-move)."""
    try:
        return [str(a) for a in games.load(w.lesson.game).click(w.state, target)]
    except SpillebordError:
        return []


def outline(game: str) -> dict[str, Any]:
    """The lesson's words and shape, for the page: its catalogue keys and, per step,
    whose move it is."""
    lesson = learn.load(game)
    start = learn.start(lesson)
    return {
        "game": game,
        "seats": start.seats,
        "intro": lesson.intro,
        "done": lesson.done,
        "steps": [{"seat": s.seat, "do": s.do, "why": s.why} if s.seat == LEARNER
                  else {"seat": s.seat} for s in lesson.steps],
    }


def answer(w: Walk, since: int, message: dict[str, object] | None = None,
           choices: list[str] | None = None) -> dict[str, Any]:
    """The page's answer: seat 0's view, its legal moves (with move facts) when it is to
    move, the actions so far, the lesson's next step (``step``, its ``expect``ed action,
    ``taught``: the learner's steps done) and the events played after ``since`` (with
    move facts and seat 0's view after each)."""
    g = games.load(w.lesson.game)
    state = w.state
    mine = state.outcome is None and state.to_move == LEARNER
    legal = [str(a) for a in state.legal_actions()] if mine else []
    moves = {t: f for t in legal if (f := g.describe(state, t)) is not None}
    events = []
    for i in range(since, len(w.actions)):
        event: dict[str, Any] = {"seq": i + 1, "kind": "act", "action": w.actions[i],
                                 "seat": w.states[i].to_move}
        facts = g.describe(w.states[i], w.actions[i], w.states[i + 1])
        if facts is not None:
            event["move"] = facts
        # The board after the event, so the page can show each move in turn.
        event["view"] = w.states[i + 1].view(LEARNER)
        event["to_move"] = w.states[i + 1].to_move
        events.append(event)
    steps = w.lesson.steps
    out: dict[str, Any] = {
        "ok": message is None and not choices,
        "actions": list(w.actions),
        "step": len(w.actions) if w.in_lesson else None,
        "lesson_over": not w.in_lesson,
        "taught": sum(1 for s in steps[: len(w.actions)] if s.seat == LEARNER),
        "expect": steps[len(w.actions)].action if w.in_lesson else None,
        "view": state.view(LEARNER),
        "legal": legal,
        "moves": moves,
        "to_move": state.to_move,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
        "events": events,
    }
    if message is not None:
        out["message"] = message
    if choices:
        out["choices"] = choices
    return out
