"""Move facts of Kugler og Jokere (games/kugler/describe.py): what a page needs to word a
move without field codes — its kind, fields moved, home field, path, jumped and hit
marbles — checked on positions where each answer is known from the rule book."""

from __future__ import annotations

import json
import random
from typing import Any

from spillebord import games

GAME = games.load("kugler")
START = {"0": ["s0"] * 5, "1": ["s1"] * 5, "2": ["s2"] * 5, "3": ["s3"] * 5}


def position(marbles: dict[str, list[str]], hand: list[str]) -> Any:
    board = {**START, **marbles}
    return GAME.parse_position(json.dumps(
        {"seats": 4, "turn": 0, "marbles": board, "hands": {"0": hand}}))


def step(state: Any, action: str, i: int = 0) -> dict[str, Any]:
    facts = GAME.describe(state, action)
    assert facts is not None and facts["card"] == action.split()[0]
    result: dict[str, Any] = facts["steps"][i]
    return result


def test_out_of_the_start_area() -> None:
    st = position({}, ["AH", "2C", "3C", "4C", "5C"])
    s = step(st, "AH s0-t0")
    assert (s["kind"], s["fields"], s["path"], s["from"], s["to"]) == \
        ("out", 1, ["t0"], "s0", "t0")


def test_forward_with_a_jumped_partner_and_a_hit_opponent() -> None:
    # Seat 0 on t3; partner (seat 2) on t5, opponent (seat 1) on t8.
    st = position({"0": ["s0"] * 4 + ["t3"], "1": ["s1"] * 4 + ["t8"],
                   "2": ["s2"] * 4 + ["t5"]}, ["5H", "2C", "3C", "4C", "6C"])
    s = step(st, "5H t3-t8")
    assert s["kind"] == "forward" and s["fields"] == 5
    assert s["path"] == ["t4", "t5", "t6", "t7", "t8"]
    assert s["jumps"] == [2] and s["home_field"] is None
    assert s["effects"] == [{"seat": 1, "from": "t8", "to": "s1"}]


def test_into_the_home_and_back_with_an_eight() -> None:
    # Seat 0's home entry is t67 (18·0 − 5 mod 72); from t65, a 4 ends on home field 2.
    st = position({"0": ["s0"] * 3 + ["t65", "t30"]}, ["4H", "8C", "3C", "5C", "6C"])
    s = step(st, "4H t65-h0.2")
    assert (s["kind"], s["fields"], s["home_field"]) == ("forward", 4, 2)
    assert s["path"] == ["t66", "t67", "h0.1", "h0.2"]
    b = step(st, "8C t30-t22")
    assert (b["kind"], b["fields"], b["path"][0], b["path"][-1]) == ("back", 8, "t29", "t22")


def test_a_joker_jumps_and_a_partner_is_pushed_to_its_home_entry() -> None:
    # Partner seat 2's entry is t31; landing on the partner on t20 pushes it there.
    st = position({"0": ["s0"] * 4 + ["t16"], "2": ["s2"] * 4 + ["t20"],
                   "1": ["s1"] * 4 + ["t40"]}, ["4H", "JK", "3C", "5C", "6C"])
    s = step(st, "4H t16-t20")
    assert s["effects"] == [{"seat": 2, "from": "t20", "to": "t31"}]
    j = step(st, "JK t16-t40")
    assert (j["kind"], j["fields"], j["path"]) == ("jump", 0, [])
    assert j["effects"] == [{"seat": 1, "from": "t40", "to": "s1"}]


def test_a_split_seven_has_two_steps_and_a_discard_none() -> None:
    st = position({"0": ["s0"] * 3 + ["t2", "t10"]}, ["7H", "2C", "3C", "4C", "6C"])
    facts = GAME.describe(st, "7H t10-t14 t2-t5")
    assert facts is not None
    assert [(s["from"], s["fields"]) for s in facts["steps"]] == [("t10", 4), ("t2", 3)]
    # The other order is the same move (an alias): described as the legal text.
    assert GAME.describe(st, "7H t2-t5 t10-t14") == facts
    discard = GAME.describe(position({}, ["2C", "3C", "4C", "5C", "6C"]), "discard 2C")
    assert discard is not None and discard["discard"] and discard["steps"] == []
    assert GAME.describe(st, "7H t2-t99") is None  # not a legal action


def test_every_legal_move_of_random_games_is_described_consistently() -> None:
    rng = random.Random(7)
    for deal in range(3):
        st = GAME.new(deal=deal, seats=6)
        for _ in range(150):
            if st.to_move is None:
                break
            for a in st.legal_actions():
                facts = GAME.describe(st, str(a))
                assert facts is not None
                for s in facts["steps"]:
                    assert s["path"] == [] or s["path"][-1] == s["to"]
                    assert s["kind"] != "forward" or s["fields"] == len(s["path"])
            st = st.apply(rng.choice(st.legal_actions()))
