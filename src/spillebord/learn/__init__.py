"""Lessons: a short guided game per game, kept as data (issue #33).

One file per game, ``lessons/<game>.json``::

    {"game": "posthus", "position": "<the game's own position text>",
     "intro": "<catalogue key>", "done": "<catalogue key>",
     "steps": [{"action": "<action text>", "do": "<key>", "why": "<key>"}, ...]}

A table game's lesson also scripts the other seats' moves between the learner's:
``{"action": "<action text>", "seat": N}`` (no words).

``position`` is read with the game's ``parse_position``; each step's ``action`` is the
one move the lesson teaches there, in the game's notation; ``do`` (what to do) and
``why`` (the rule behind it) and ``intro``/``done`` are keys of the page catalogues
(``web/static/i18n/{da,en}.json``), so every word a learner reads is in both languages.
``replay`` plays a lesson through the engine; tests/test_learn.py replays every lesson,
so a rule change that breaks one fails CI.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from spillebord import games
from spillebord.core.errors import NotationError, SpillebordError, translatable
from spillebord.core.protocol import State

GENERAL_WORDS = ("learn.not_taught", "learn.not_allowed", "learn.not_your_turn",
                 "learn.title", "learn.title_plain", "learn.lesson", "learn.progress",
                 "learn.show_me", "learn.done_title", "learn.new_game", "learn.home",
                 "learn.moves", "learn.failed", "learn.no_lesson", "learn.offer_title",
                 "learn.offer_text", "learn.from_rules")
"""Catalogue keys the lesson page, the start page's offer and the rules dialog use
besides the lessons' own."""


@dataclass(frozen=True)
class Step:
    """A taught move (``seat`` 0, the learner, with ``do`` and ``why``), or in a table
    game another seat's scripted move (no words: the page plays it for that seat)."""

    action: str
    do: str
    why: str
    seat: int = 0


@dataclass(frozen=True)
class Lesson:
    game: str
    position: str
    intro: str
    done: str
    steps: tuple[Step, ...]

    def words(self) -> list[str]:
        """Every catalogue key the lesson shows."""
        return [self.intro, *(k for s in self.steps if s.seat == 0 for k in (s.do, s.why)),
                self.done]


def lesson_games() -> list[str]:
    """The games that have a lesson, sorted."""
    folder = resources.files(__package__).joinpath("lessons")
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir()
                  if p.name.endswith(".json"))


def load(game: str) -> Lesson:
    """The lesson of ``game``; NotationError when there is none or it is malformed."""
    if game not in lesson_games():
        raise NotationError(f"no lesson for {game!r}")
    raw = json.loads(resources.files(__package__).joinpath("lessons", f"{game}.json")
                     .read_text(encoding="utf-8"))
    if raw.get("game") != game:
        raise NotationError(f"lesson file {game}.json names game {raw.get('game')!r}")
    steps = tuple(Step(str(s["action"]), str(s.get("do", "")), str(s.get("why", "")),
                       int(s.get("seat", 0))) for s in raw["steps"])
    if not steps:
        raise NotationError(f"lesson {game!r} has no steps")
    return Lesson(game, str(raw["position"]), str(raw["intro"]), str(raw["done"]), steps)


def start(lesson: Lesson) -> State:
    """The lesson's start position, read by its game."""
    return games.load(lesson.game).parse_position(lesson.position)


def replay(lesson: Lesson) -> list[State]:
    """The states of the lesson, start first: one more than there are steps.  Raises the
    engine's IllegalActionError at the first taught action that is not legal."""
    states = [start(lesson)]
    for step in lesson.steps:
        states.append(states[-1].apply(step.action))
    return states


def check(lesson: Lesson, index: int, action: str) -> dict[str, object]:
    """Judge a learner's ``action`` at step ``index`` (from 0): ``{"ok": True}`` for the
    taught move; otherwise ``{"ok": False, "message": ...}`` with a translatable message
    (``core.errors.translatable`` form) -- the engine's own refusal when the rules forbid
    the move (``learn.not_allowed`` if it carries no key), else ``learn.not_taught``
    (legal, but not what this step teaches)."""
    if not 0 <= index < len(lesson.steps):
        raise NotationError(f"lesson {lesson.game!r} has no step {index}")
    if lesson.steps[index].seat != 0:
        raise NotationError(f"step {index} of lesson {lesson.game!r} is another seat's")
    state = replay(Lesson(lesson.game, lesson.position, lesson.intro, lesson.done,
                          lesson.steps[:index]))[-1]
    if action == lesson.steps[index].action:
        return {"ok": True}
    try:
        state.apply(action)
    except SpillebordError as error:
        message = error.message() or translatable("learn.not_allowed", {})
        return {"ok": False, "message": message}
    return {"ok": False, "message": translatable("learn.not_taught", {})}
