"""One test per ruling of the rule book's studenter section, named after it, built from
positions in the rule book's JSON (tests/games/studenter/builder.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from spillebord.core.cards import two_decks
from spillebord.core.errors import IllegalActionError
from spillebord.games.studenter import GAME, StudenterState

from .builder import position

FULL = ["AC", "2C", "3C", "4C", "5C", "6C"]  # six helpers holding cards


def after(state: StudenterState, *actions: str) -> StudenterState:
    for a in actions:
        nxt = state.apply(a)
        assert isinstance(nxt, StudenterState)
        state = nxt
    return state


def test_rule1_deal_19_row_base_card_on_f1_6_helpers_78_stock() -> None:
    s = GAME.new(deal=7)
    assert len(s.row) == 19 and len(s.stock) == 78 and not s.waste
    assert len(s.foundations[0]) == 1 and all(not p for p in s.foundations[1:])
    assert s.base == "A23456789TJQK".index(s.foundations[0][0][0]) + 1
    assert all(h is not None for h in s.helpers) and len(s.helpers) == 6
    cards = [*s.row, *s.foundations[0], *(h for h in s.helpers if h), *s.stock]
    assert Counter(cards) == Counter(two_decks())
    assert s.pass_no == 1 and not s.left_used
    assert GAME.format_position(GAME.new(deal=7)) == GAME.format_position(s)


def test_rule2_foundations_build_up_regardless_of_suit_with_wrap() -> None:
    s = position(base="Q", row=["3S"], helpers=["AD", "KH", "2S", "QC", "5H", "9D"],
                 heights=[2, 1, 0, 0, 0, 0, 0, 0])  # f1 = Q K, f2 = Q
    legal = s.legal_actions()
    assert "h1>f1" in legal  # A on K: the wrap, any suit
    assert "h2>f2" in legal  # K on Q, any suit
    assert "h3>f1" not in legal and "h5>f1" not in legal
    s2 = after(s, "h1>f1", "h3>f1")  # then the 2 on the A
    assert s2.foundations[0][-2:] == ("AD", "2S")


def test_rule2_completed_foundation_takes_nothing() -> None:
    s = position(row=["9S"], helpers=["8D", "KH", "2S", "QC", "5H", "9D"],
                 heights=[13, 0, 0, 0, 0, 0, 0, 0])
    assert len(s.foundations[0]) == 13
    assert not [a for a in s.legal_actions() if a.endswith(">f1")]
    assert not [a for a in s.legal_actions() if a.startswith("f")]  # cards never leave
    with pytest.raises(IllegalActionError, match="complete"):
        s.apply("h1>f1")
    assert "h1>f2" in s.legal_actions()  # the 8 starts another foundation instead


def test_rule2_empty_foundation_takes_only_base_rank() -> None:
    s = position(row=["9S"], helpers=["8D", "9H", "2S", "QC", "5H", "9D"])
    legal = s.legal_actions()
    assert [a for a in legal if a.startswith("h1>f")] == [f"h1>f{i}" for i in range(2, 9)]
    assert "h2>f2" not in legal and "h2>f1" in legal  # a 9 only on the 8 of f1
    with pytest.raises(IllegalActionError, match="takes only a 8"):
        s.apply("h2>f2")


def test_rule3_only_rightmost_row_card_available() -> None:
    s = position(row=["9S", "TD", "5C"], helpers=FULL)
    assert not [a for a in s.legal_actions() if a.startswith("row>")]
    s = position(row=["5C", "TD", "9S"], helpers=FULL)
    assert [a for a in s.legal_actions() if a.startswith("row>")] == ["row>f1"]


def test_rule4_row_end_built_down_from_helpers_and_waste_only() -> None:
    s = position(row=["4D", "9C"], helpers=["8D", "7H", "KS", "QC", "TC", "3S"],
                 waste=["8S"])
    legal = s.legal_actions()
    assert "h1>row" in legal and "waste>row" in legal
    assert "h2>row" not in legal and "h5>row" not in legal  # a 7 and a ten: no
    with pytest.raises(IllegalActionError, match="not one lower"):
        s.apply("h2>row")
    wrap = position(row=["AC"], helpers=["KD", "7H", "KS", "QC", "TC", "3S"])
    assert {"h1>row", "h3>row"} <= set(wrap.legal_actions())  # K on A


def test_rule4_empty_row_takes_nothing() -> None:
    s = position(row=[], helpers=["8D", "7H", "KS", "QC", "TC", "3S"], waste=["JD"])
    assert not [a for a in s.legal_actions() if a.endswith(">row")]
    with pytest.raises(IllegalActionError, match="empty row takes nothing"):
        s.apply("waste>row")


def test_rule5_waste_built_on_from_row_only() -> None:
    s = position(row=["4D", "8D"], helpers=["8H", "7H", "KS", "QC", "TC", "3S"],
                 waste=["9C"])
    assert "row>waste" in s.legal_actions()
    with pytest.raises(IllegalActionError, match="only the row's rightmost"):
        s.apply("h1>waste")
    assert after(s, "row>waste").waste == ("9C", "8D")
    empty = position(row=["4D", "8D"], helpers=FULL)
    with pytest.raises(IllegalActionError, match="empty waste takes nothing"):
        empty.apply("row>waste")


def test_rule6_leftmost_card_once_per_game() -> None:
    s = position(row=["7C", "3D", "8D"], helpers=FULL)
    assert "left>row" in s.legal_actions()
    s2 = after(s, "left>row")
    assert s2.row == ("3D", "8D", "7C") and s2.left_used
    s3 = position(row=["7C", "3D", "8D"], helpers=FULL, left_used=True)
    assert "left>row" not in s3.legal_actions()
    with pytest.raises(IllegalActionError, match="once already"):
        s3.apply("left>row")
    assert "left>row" not in position(row=["3D", "8D"], helpers=FULL).legal_actions()
    assert "left>row" not in position(row=["8D"], helpers=FULL).legal_actions()
    assert "left>row" in position(row=["KD", "AS"], helpers=FULL).legal_actions()  # wrap


def test_rule7_helper_refilled_from_stock_in_order() -> None:
    s = position(row=["4D"], helpers=["KH", "QH", "9S", "QC", "TC", "3S"])
    first, second = s.stock[0], s.stock[1]
    s2 = after(s, "h3>f1")
    assert s2.helpers[2] == first and s2.stock[0] == second
    assert len(s2.stock) == len(s.stock) - 1


def test_rule7_helper_stays_empty_when_stock_empty() -> None:
    # base 8; seven foundations complete, f8 at 8 9 T J Q: the K A 2 … 7 are out.
    s = position(row=["7C", "6C", "5C", "4C", "3C"], helpers=["KS", "AS", None, None, None,
                 None], waste=["2S"], stock=[], heights=[13] * 7 + [5], pass_no=2)
    s2 = after(s, "h1>f8")
    assert s2.helpers[0] is None and s2.waste == ("2S",)  # never from the waste
    assert "h2>f8" in s2.legal_actions()


OUT9 = {"heights": [13] * 7 + [4]}  # base 8: the Q K A 2 3 4 5 6 7 are out


def test_rule8_turn_over_keeps_order_three_passes() -> None:
    s = position(row=[], helpers=["AC", "2C", "3C", "4C", "5C", "6C"],
                 stock=["KD", "7S", "QS"], **OUT9)
    s = after(s, "draw", "draw", "draw")
    assert s.waste == ("KD", "7S", "QS") and "draw" not in s.legal_actions()
    s = after(s, "redeal")
    assert s.pass_no == 2 and s.stock == ("KD", "7S", "QS") and not s.waste
    s = after(s, "draw", "draw", "draw", "redeal", "draw")
    assert s.pass_no == 3 and s.waste == ("KD",)
    s = after(s, "draw", "draw")
    assert "redeal" not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="twice already"):
        s.apply("redeal")


def test_rule8_helpers_refill_after_turn_over() -> None:
    s = position(row=["2C", "5C"], helpers=["AC", None, "3C", "4C", None, "6C"], stock=[],
                 waste=["KD", "7S", "QS"], **OUT9)
    s2 = after(s, "redeal")
    assert s2.helpers[1] == "KD" and s2.helpers[4] == "7S" and s2.stock == ("QS",)
    assert s2.pass_no == 2


@pytest.mark.parametrize(("pass_no", "bonus"), [(1, 3), (2, 2), (3, 1)])
def test_rule9_bonus_3_2_1(pass_no: int, bonus: int) -> None:
    s = position(row=[], helpers=["7S", None, None, None, None, None], stock=[],
                 heights=[13] * 7 + [12], pass_no=pass_no)
    assert s.to_move == 0 and s.outcome is None
    won = after(s, "h1>f8")
    assert won.to_move is None and won.legal_actions() == []
    assert won.outcome is not None
    assert (won.outcome.reason, won.outcome.bonus, won.outcome.winners) == ("won", bonus, (0,))
    assert won.view(0)["bonus"] == bonus


def test_rule9_lost_when_only_resign_left() -> None:
    # base 8, f8 needs a 5, which lies under the 7 and the 6; the leftmost move is used.
    stuck = position(row=["5D", "7D", "6D"], stock=[], heights=[13] * 7 + [10], pass_no=3,
                     left_used=True)
    assert stuck.to_move is None and stuck.legal_actions() == []
    assert stuck.outcome is not None and stuck.outcome.reason == "stuck"
    assert stuck.outcome.losers == (0,) and stuck.outcome.bonus == 0
    live = GAME.new(deal=3)
    gone = after(live, "resign")
    assert gone.outcome is not None and gone.outcome.reason == "resigned"
    assert GAME.parse_position(GAME.format_position(gone)).to_move is None


def test_rule10_click_to_move_helper_and_waste_card() -> None:
    s = position(row=["TD"], helpers=["8S", "9S", "9H", "QC", "2C", "3S"], waste=["9C"])
    assert GAME.click(s, "h1") == ["h1>f2"]  # a base card: the first empty foundation
    assert GAME.click(s, "h2") == ["h2>f1"]  # fits a foundation
    assert GAME.click(s, "waste") == ["waste>f1"]
    assert GAME.click(after(s, "h2>f1"), "h3") == ["h3>row"]  # else the row
    assert GAME.click(s, "h4") == []  # fits nowhere


def test_rule10_click_to_move_row_card_never_to_waste() -> None:
    s = position(row=["4D", "9D"], helpers=FULL, waste=["TS"])
    assert GAME.click(s, "row") == ["row>f1"]
    s2 = position(row=["4D", "JD"], helpers=FULL, waste=["QS"])
    assert "row>waste" in s2.legal_actions() and GAME.click(s2, "row") == []


def test_rule10_click_to_move_stock_draws_or_turns_over() -> None:
    s = position(row=[], helpers=["AC", "2C", "3C", "4C", "5C", "6C"],
                 stock=["KD", "7S", "QS"], **OUT9)
    assert GAME.click(s, "stock") == ["draw"]
    s2 = after(s, "draw", "draw", "draw")
    assert GAME.click(s2, "stock") == ["redeal"]
    s3 = position(row=["2C", "5C"], helpers=["AC", "3C", "4C", "6C", None, None], stock=[],
                  waste=["KD", "7S", "QS"], pass_no=3, **OUT9)
    assert GAME.click(s3, "stock") == []
