"""Studenter refusals carry a message key and params the page can translate."""

from __future__ import annotations

from typing import Any

import pytest
from tests.reasons import check_reason

from spillebord.core.errors import IllegalActionError

from .builder import position

HELPERS = ["8D", "9H", "2S", "QC", "5H", "9D"]


def refused(state: Any, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    return info.value


def test_foundations_name_the_card_the_pile_and_the_rank_it_needs() -> None:
    s = position(row=["9S"], helpers=HELPERS)  # base 8 on f1
    exc = refused(s, "h3>f1")
    check_reason(exc, "studenter.foundation_needs", {"card": "2S", "place": "f1", "rank": "9"},
                 ("card",))
    assert exc.ranks == ("rank",) and str(exc) == "2S does not fit on f1: it needs a 9"
    exc = refused(s, "h2>f2")
    check_reason(exc, "studenter.foundation_base", {"place": "f2", "rank": "8"}, ())
    assert exc.ranks == ("rank",)


def test_row_and_waste_reasons() -> None:
    s = position(row=["4D", "9C"], helpers=["8D", "7H", "KS", "QC", "TC", "3S"],
                 waste=["8S"])
    check_reason(refused(s, "h2>row"), "studenter.row_not_lower",
                 {"card": "7H", "end": "9C"}, ("card", "end"))
    check_reason(refused(s, "h1>waste"), "studenter.waste_only_row", {})
    check_reason(refused(s, "row>row"), "studenter.row_to_row", {})
    check_reason(refused(s, "left>row"), "studenter.left_not_lower",
                 {"card": "4D", "end": "9C"}, ("card", "end"))
    empty = position(row=[], helpers=["8D", "7H", "KS", "QC", "TC", "3S"], waste=["JD"])
    check_reason(refused(empty, "h1>row"), "studenter.row_empty_takes", {})
    check_reason(refused(empty, "row>f1"), "studenter.row_empty", {})


def test_not_an_action_and_game_over() -> None:
    s = position(row=["9S"], helpers=HELPERS)
    check_reason(refused(s, "fly"), "studenter.not_action", {"text": "fly"})
    check_reason(refused(s, "redeal"), "studenter.redeal_stock_left", {})
    check_reason(refused(s.apply("resign"), "draw"), "core.game_over", {})
