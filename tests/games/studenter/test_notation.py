"""Position JSON and action texts: round-trips, refusals with one-line reasons, the view
(stock order hidden), the resample of the hidden stock, and auto-move."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.games.studenter import GAME, StudenterState, auto_move, auto_moves

from .builder import position, position_json


def data(**kwargs: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(GAME.format_position(GAME.new(deal=9)))
    out.update(kwargs)
    return out


def refused(d: dict[str, Any], match: str) -> None:
    with pytest.raises(NotationError, match=match) as info:
        GAME.parse_position(json.dumps(d))
    assert "\n" not in str(info.value)


def test_position_round_trips_and_keeps_the_rule_book_keys() -> None:
    s = GAME.new(deal=9)
    text = GAME.format_position(s)
    assert list(json.loads(text)) == ["pass", "base", "row", "foundations", "helpers",
                                      "stock", "waste", "left_used", "deal"]
    again = GAME.parse_position(text)
    assert GAME.format_position(again) == text and again == s and again.deal == 9


def test_bad_positions_are_refused_with_a_reason() -> None:
    d = data()
    refused({**d, "row": d["row"][1:]}, "103 cards, not 104")
    refused({**d, "row": [*d["row"], "2C"]}, "105 cards")
    row = list(d["row"])
    row[0] = "KS" if row[0] != "KS" else "QS"
    refused({**d, "row": row}, "appears")
    refused({**d, "base": "1"}, "unknown base rank")
    refused({**d, "foundations": [*d["foundations"], []]}, "exactly 8 foundations, not 9")
    refused({**d, "helpers": [*d["helpers"], None]}, "exactly 6 helpers, not 7")
    refused({**d, "pass": 4}, "pass must be 1, 2 or 3")
    refused({**d, "pass": 1.0}, "pass must be 1, 2 or 3")
    refused({**d, "row": [*d["row"][:-1], "XX"]}, "not a card")
    refused({k: v for k, v in d.items() if k != "waste"}, "lacks 'waste'")
    refused({**d, "helpers": [None, *d["helpers"][1:]], "stock": [*d["stock"],
             d["helpers"][0]]}, "h1 is empty while the stock has cards")


def test_foundation_must_follow_the_base_and_the_wrap() -> None:
    good = json.loads(position_json(base="Q", heights=[3, 0, 0, 0, 0, 0, 0, 0]))
    assert [c[0] for c in good["foundations"][0]] == ["Q", "K", "A"]  # the wrap
    bad = dict(good)
    bad["foundations"] = [list(reversed(good["foundations"][0])), *good["foundations"][1:]]
    refused(bad, "f1 does not follow the base Q and the wrap: card 1 is A")


def test_illegal_actions_explain_themselves_and_change_nothing() -> None:
    s = GAME.new(deal=9)
    before = GAME.format_position(s)
    for text, reason in [("redeal", "only when the stock is empty"),
                         ("row>row", "cannot go back onto the row"),
                         ("h7>f1", "not a studenter action"),
                         ("waste>f1", "the waste is empty")]:
        with pytest.raises(IllegalActionError, match=reason):
            s.apply(text)
    assert GAME.format_position(s) == before


def test_view_hides_the_stock_order_and_shows_base_pass_bonus() -> None:
    s = GAME.new(deal=9)
    v = s.view(0)
    assert v == s.view(None)
    assert "stock" not in v and v["stock_size"] == 78
    base = json.loads(GAME.format_position(s))["base"]
    assert (v["base"], v["pass"], v["bonus"]) == (base, 1, 3)
    stock_runs = {",".join(s.stock[i:i + 3]) for i in range(len(s.stock) - 2)}
    flat = ",".join(c for key in ("row", "waste") for c in v[key])
    assert not any(run in flat for run in stock_runs if run not in ",".join(s.row))
    after_pass = position(row=["2C", "5C"], helpers=["AC", None, "3C", "4C", None, "6C"],
                          stock=[], waste=["KD", "7S", "QS"], heights=[13] * 7 + [4])
    v2 = after_pass.apply("redeal").view(0)
    assert (v2["pass"], v2["bonus"], v2["turn_overs_left"], v2["stock_size"]) == (2, 2, 1, 1)


def test_resample_shuffles_only_the_unseen_stock() -> None:
    s = GAME.new(deal=9)
    other = s.resample(0, random.Random(1))
    assert isinstance(other, StudenterState)
    assert sorted(other.stock) == sorted(s.stock) and other.stock != s.stock
    assert other.view(0) == s.view(0)
    # Pass 2: the stock is the old waste, seen in order, so nothing is hidden.
    s2 = position(row=["2C", "5C"], helpers=["AC", None, "3C", "4C", None, "6C"], stock=[],
                  waste=["KD", "7S", "QS"], heights=[13] * 7 + [4]).apply("redeal")
    # (the deal number is drawn afresh — it is part of the position text — and nothing else)
    assert dataclasses.replace(s2.resample(0, random.Random(1)), deal=s2.deal) == s2


def test_auto_move_takes_only_cards_nothing_can_be_built_on() -> None:
    # base 8: every foundation holds at least 8 … J, so a Q (the next card) is safe.
    s = position(row=["4D", "QD"], helpers=["QS", "KS", "AS", "2S", "3S", "5S"],
                 heights=[4] * 7 + [5])
    assert auto_move(s) == "row>f1"
    assert auto_moves(s)[:2] == ["row>f1", "h1>f2"]
    # Not safe: a J is still out, and could go onto the Q on the row.
    s2 = position(row=["4D", "QD"], helpers=["QS", "KS", "AS", "2S", "3S", "5S"],
                  heights=[4] * 6 + [3, 5])
    assert auto_move(s2) is None
    assert GAME.auto_move(s2) is None
    assert "row>f1" in s2.legal_actions()


def test_click_refuses_unknown_targets() -> None:
    with pytest.raises(NotationError, match="cannot click"):
        GAME.click(GAME.new(deal=9), "f1")
