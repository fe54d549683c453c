"""Position JSON, action text and views of kugler: round-trips, the rule book's minimal
example, and one-line errors for bad positions and actions."""

from __future__ import annotations

import json
import random

import pytest

from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.games.kugler import GAME

from .helpers import legal, position

EXAMPLE = {"seats": 4, "turn": 0,
           "marbles": {"0": ["s0", "s0", "t5", "h0.5", "h0.4"], "1": ["s1"] * 5,
                       "2": ["s2"] * 5, "3": ["s3"] * 5},
           "hands": {"0": ["AS", "7H", "8D", "JK", "QC"]}}


def test_rule_book_minimal_example_parses_and_fills_from_the_deal() -> None:
    state = GAME.parse_position(json.dumps(EXAMPLE))
    assert state.marbles(0) == ["s0", "s0", "t5", "h0.4", "h0.5"]
    assert state.hands[0] == ("7H", "8D", "AS", "JK", "QC")
    assert all(len(h) == 5 for h in state.hands) and len(state.draw) == 134 - 20
    again = GAME.parse_position(json.dumps(EXAMPLE))
    assert again.position() == state.position()
    other = GAME.parse_position(json.dumps({**EXAMPLE, "deal": 9}))
    assert other.hands[1] != state.hands[1] or other.draw != state.draw


def test_position_round_trips_mid_game() -> None:
    rng = random.Random(5)
    state = GAME.new(deal=4, seats=8)
    for _ in range(150):
        state = state.apply(rng.choice(state.legal_actions()))
    text = state.position()
    again = GAME.parse_position(text)
    assert again.position() == text and legal(again) == legal(state)
    assert again.view(3) == state.view(3)


@pytest.mark.parametrize(("change", "message"), [
    ({"marbles": {**EXAMPLE["marbles"], "0": ["s0", "s0", "t5", "h0.5", "t99"]}},
     "t99 does not exist"),
    ({"marbles": {**EXAMPLE["marbles"], "1": ["t5", "s1", "s1", "s1", "s1"]}},
     "two marbles on t5"),
    ({"marbles": {**EXAMPLE["marbles"], "2": ["s2"] * 4}}, "exactly 5 marbles"),
    ({"marbles": {**EXAMPLE["marbles"], "2": ["h0.1"] + ["s2"] * 4}}, "not its own"),
    ({"marbles": {**EXAMPLE["marbles"], "2": ["s3"] + ["s2"] * 4}}, "not its own"),
    ({"hands": {"0": ["AS", "7H", "8D", "JK", "ZZ"]}}, "'ZZ' is not a card"),
    ({"hands": {"0": ["AS", "7H", "8D", "JK"]}}, "must hold 5 cards"),
    ({"hands": {"0": ["JK"] * 5, "1": ["JK", "JK", "3C", "4C", "5C"]}},
     "JK appears 7 times"),
    ({"hands": {"0": ["2C", "2C", "2C", "3C", "4C"]}}, "2C appears 3 times"),
    ({"hands": {"1": ["2C", "2C", "3C", "3C", "4C"]}}, "seat 0, the seat to move"),
    ({"seats": 5}, "'seats' must be 4, 6 or 8"),
    ({"turn": 4}, "'turn' must be"),
    ({"colour": 1}, "unknown key"),
])
def test_bad_positions_are_refused_in_one_line(change: dict[str, object],
                                               message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        GAME.parse_position(json.dumps({**EXAMPLE, **change}))
    assert "\n" not in str(info.value)


def test_bad_action_texts_give_reasons_and_change_nothing() -> None:
    state = position({0: ["t10", "t14"]}, ["5H", "7C", "8D", "KS", "JK"])
    before = state.position()
    for text, reason in [
        ("5H t10-t15", "you cannot jump your own marble on t14"),
        ("5S t10-t15", "you do not hold 5S"),
        ("5H t11-t16", "no marble of yours on t11"),
        ("5H t10-t16", "a 5 moves t10 to t15, not t16"),
        ("5H t10-t999", "t999 does not exist"),
        ("5H", "say which marble moves"),
        ("5H t14-t19 t10-t12", "only a 7 may be split"),
        ("7C t14-t16 t10-t13", "add up to 7"),
        ("discard KS", "may not discard KS"),
        ("KS s1-t18", "not the start area"),
        ("QQ t1-t2", "does not start with a card"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(text)
    assert state.position() == before


def test_action_text_matches_the_rule_book_forms() -> None:
    state = position({0: ["t3", "t40", "t70", "t20"], 1: ["t50"]},
                     ["KS", "5H", "7C", "8D", "JK"])
    texts = set(legal(state))
    assert {"KS s0-t0", "5H t40-t45", "7C t3-t5 t40-t45", "8D t20-t12", "JK t3-t50"} \
        <= texts
    four = position({0: ["t66"]}, ["4C", "2C", "3C", "5C", "6C"])
    assert "4C t66-h0.3" in legal(four)


def test_view_shows_own_hand_and_sizes_only() -> None:
    state = GAME.new(deal=2, seats=4).apply(GAME.new(deal=2, seats=4).legal_actions()[0])
    for seat in (0, 1, None):
        v = state.view(seat)
        json.dumps(v)
        assert v["hand_sizes"] == {"0": 5, "1": 5, "2": 5, "3": 5}
        assert "draw" not in v and "hands" not in v
        assert v.get("hand") == (None if seat is None else list(state.hands[seat]))
    assert state.view(None)["discard_top"] == state.discard[-1]
    assert state.view(2)["last"] == [{"seat": 0, "action": state.last[0][1]}]


def test_resample_keeps_what_the_seat_knows() -> None:
    rng = random.Random(3)
    state = GAME.new(deal=8, seats=4)
    for _ in range(30):
        state = state.apply(rng.choice(state.legal_actions()))
    seat = state.to_move
    assert seat is not None
    other = state.resample(seat, rng)
    assert other.hands[seat] == state.hands[seat] and other.discard == state.discard
    assert sorted(c for h in other.hands for c in h) + sorted(other.draw) != [] and \
        len(other.draw) == len(state.draw)
    assert any(other.hands[s] != state.hands[s] for s in range(4) if s != seat)
    assert sorted([*other.draw, *(c for h in other.hands for c in h)]) == \
        sorted([*state.draw, *(c for h in state.hands for c in h)])


def test_click_offers_moves_from_a_place_or_with_a_card() -> None:
    state = position({0: ["t10"]}, ["5H", "KS", "2C", "3C", "4C"])
    assert [str(m) for m in GAME.click(state, "t10")] == ["2C t10-t12", "3C t10-t13",
                                                          "4C t10-t14", "5H t10-t15",
                                                          "KS t10-t20"]
    assert [str(m) for m in GAME.click(state, "KS")] == ["KS s0-t0", "KS t10-t20"]
