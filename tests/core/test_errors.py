"""Errors carry an English reason and, for the page, a message key with params."""

from __future__ import annotations

import pytest
from tests.reasons import check_reason

from spillebord.core.errors import IllegalActionError, NotationError, SpillebordError
from spillebord.games.posthus import GAME as POSTHUS
from spillebord.server.errors import Refusal


def test_reason_stays_the_english_text() -> None:
    exc = IllegalActionError("8H does not fit c2", key="posthus.no_fit.card_card",
                             params={"card": "8H", "place": "c2", "left": "9S", "right": "TH"},
                             cards=("card", "left", "right"))
    assert str(exc) == exc.reason == "8H does not fit c2"
    assert isinstance(exc, ValueError) and isinstance(exc, SpillebordError)
    assert exc.message() == {"key": "posthus.no_fit.card_card",
                             "params": {"card": "8H", "place": "c2", "left": "9S",
                                        "right": "TH"},
                             "cards": ["card", "left", "right"]}


def test_params_become_strings_and_marks_must_name_params() -> None:
    exc = IllegalActionError("x", key="gammel_jomfru.no_seat", params={"seat": 7, "seats": 3})
    assert exc.params == {"seat": "7", "seats": "3"} and exc.cards == ()
    assert "cards" not in exc.message() and "ranks" not in exc.message()
    with pytest.raises(ValueError, match="not params"):
        IllegalActionError("x", key="k.k", params={"a": "8H"}, cards=("card",))


def test_an_error_without_key_has_no_message() -> None:
    exc = NotationError("line 1: bad")
    assert exc.key is None and exc.params == {} and exc.message() == {}


def test_core_keys() -> None:
    state = POSTHUS.new(0)
    over = state.apply("resign")
    with pytest.raises(IllegalActionError) as info:
        over.apply("redeal")
    check_reason(info.value, "core.game_over", {})


def test_refusal_from_error_keeps_key_params_and_cards() -> None:
    exc = IllegalActionError("8H is not in the posthus deck", key="posthus.not_in_deck",
                             params={"card": "AH"}, cards=("card",))
    r = Refusal.from_error("illegal", exc)
    assert r.to_json() == {"code": "illegal", "reason": "8H is not in the posthus deck",
                           "key": "posthus.not_in_deck", "params": {"card": "AH"},
                           "cards": ["card"]}
    plain = Refusal.from_error("illegal", ValueError("nope"))
    assert plain.to_json() == {"code": "illegal", "reason": "nope"}
    assert Refusal("stale", "old").to_json() == {"code": "stale", "reason": "old"}
