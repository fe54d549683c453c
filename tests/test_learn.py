"""The lessons (issue #33) replay through the engine and speak both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spillebord import games, learn
from spillebord.core.errors import IllegalActionError, NotationError

I18N = Path(__file__).resolve().parents[1] / "src" / "spillebord" / "web" / "static" / "i18n"
LESSONS = learn.lesson_games()


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_every_ready_game_has_a_lesson() -> None:
    assert set(LESSONS) == set(games.ready_keys())


@pytest.mark.parametrize("game", LESSONS)
def test_lesson_replays_through_the_engine(game: str) -> None:
    lesson = learn.load(game)
    states = learn.replay(lesson)
    assert len(states) == len(lesson.steps) + 1
    for state, step in zip(states[:-1], lesson.steps, strict=True):
        # The taught action is in the engine's own legal list at its step.
        assert step.action in [str(a) for a in state.legal_actions()], step
        # The learner is seat 0; other seats' moves are scripted with their seat.
        assert state.to_move == step.seat, step
        assert bool(step.do and step.why) == (step.seat == 0), step
    end = states[-1]
    # The lesson ends in a real position the player can continue from.
    assert not end.is_over
    text = games.load(game).format_position(end)
    assert games.load(game).format_position(games.load(game).parse_position(text)) == text


@pytest.mark.parametrize("game", LESSONS)
def test_lesson_words_are_in_both_catalogues(game: str) -> None:
    lesson = learn.load(game)
    keys = lesson.words()
    assert len(keys) == len(set(keys))
    for lang in ("da", "en"):
        words = catalogue(lang)
        missing = [k for k in keys if not words.get(k, "").strip()]
        assert missing == [], f"{lang}.json lacks {missing}"
        for key in keys:
            # No notation reaches the learner: no card codes (9H, TD) or places (c1, f8).
            assert not re.search(r"\b([2-9TJQKA][CDHS]|[a-h][1-4]|[fh][1-8])\b",
                                 words[key]), (lang, key, words[key])
    # Danish really is Danish: the two catalogues differ for every lesson text.
    assert all(catalogue("da")[k] != catalogue("en")[k] for k in keys)


def test_no_stray_lesson_words() -> None:
    used = {k for g in LESSONS for k in learn.load(g).words()}
    for lang in ("da", "en"):
        stray = sorted(k for k in catalogue(lang) if k.startswith("learn.")
                       and k not in used | set(learn.GENERAL_WORDS))
        assert stray == []


def test_a_broken_lesson_fails_the_replay(tmp_path: Path) -> None:
    lesson = learn.load("posthus")
    broken = learn.Lesson(lesson.game, lesson.position, lesson.intro, lesson.done,
                          (learn.Step("KD f2", "x", "y"), *lesson.steps))
    with pytest.raises(IllegalActionError):
        learn.replay(broken)


def test_unknown_lesson_is_refused() -> None:
    with pytest.raises(NotationError):
        learn.load("chess")


def test_check_accepts_only_the_taught_move() -> None:
    lesson = learn.load("posthus")
    assert learn.check(lesson, 0, "9H c1") == {"ok": True}
    # Legal, but not the lesson's move.
    assert learn.check(lesson, 0, "9S c1") == {
        "ok": False, "message": {"key": "learn.not_taught", "params": {}}}
    # Against the rules: the engine's refusal, in catalogue form (the gap right of a king).
    wrong = learn.check(lesson, 1, "KD f2")
    assert wrong["ok"] is False
    message = wrong["message"]
    assert isinstance(message, dict)
    assert message["key"] == "posthus.right_of_king"
    for lang in ("da", "en"):
        assert f"refused.{message['key']}" in catalogue(lang)
        assert all(catalogue(lang)[k].strip() for k in learn.GENERAL_WORDS)
    # The taught move of a later step is judged on that step's own position.
    assert learn.check(lesson, 3, "redeal") == {"ok": True}
    with pytest.raises(NotationError):
        learn.check(lesson, 4, "redeal")
