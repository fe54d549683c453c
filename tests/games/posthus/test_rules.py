"""One test per posthus ruling of the rule book, built from positions in its text."""

from __future__ import annotations

import pytest

from spillebord.core.errors import IllegalActionError
from spillebord.core.rng import shuffled
from spillebord.games.posthus import GAME, PosthusState
from spillebord.games.posthus import grid as g

from .positions import P1, P2, P3, P4, into, legal, pos


def test_gap_accepts_by_left_neighbour() -> None:
    # d1: left neighbour 9H, so TH fits.
    assert "TH" in into(pos(P1), "d1")
    after = pos(P1).apply("TH d1")
    assert isinstance(after, PosthusState)
    assert after.grid[3] == "TH" and after.grid[g.parse_place("h3") or 0] is None


def test_gap_accepts_by_right_neighbour() -> None:
    # d1: right neighbour TS, so 9S fits, although the left neighbour is 9H.
    assert "9S" in into(pos(P1), "d1")
    assert into(pos(P1), "d1") == {"TH", "9S"}


def test_gap_refuses_a_card_neither_neighbour_allows() -> None:
    with pytest.raises(IllegalActionError, match=r"^JS does not fit d1: the left neighbour "
                       r"is 9H and the right neighbour is TS$"):
        pos(P1).apply("JS d1")


def test_column_1_takes_any_seven() -> None:
    # a1: column a, right neighbour 9C: the four 7s and 8C (the card below 9C).
    assert into(pos(P2), "a1") == {"7C", "7D", "7H", "7S", "8C"}


def test_nothing_right_of_a_king() -> None:
    # f1: left neighbour KS; the right neighbour 9D would allow 8D, but not right of a K.
    state = pos(P2)
    assert into(state, "f1") == set()
    with pytest.raises(IllegalActionError, match="right of a King"):
        state.apply("8D f1")


def test_empty_neighbour_allows_nothing() -> None:
    # d2: left TH, right a gap -> only JH; e2: left a gap, right QH -> only JH.
    state = pos(P2)
    assert into(state, "d2") == {"JH"}
    assert into(state, "e2") == {"JH"}
    with pytest.raises(IllegalActionError, match="the right neighbour is a gap"):
        state.apply("QC d2")


def test_open_gaps_flag_lets_a_gap_next_to_a_gap_take_any_card() -> None:
    strict, open_ = pos(P2), pos(P2, open_gaps=True)
    assert "QC d2" not in legal(strict)
    assert "QC d2" in legal(open_) and "QC e2" in legal(open_)
    assert into(open_, "d2") == set(g.DECK)
    # a1 has no gap beside it: still only the 7s and 8C.
    assert into(open_, "a1") == {"7C", "7D", "7H", "7S", "8C"}


def test_open_gaps_flag_still_never_right_of_a_king() -> None:
    state = pos(P3, open_gaps=True)
    assert into(state, "g3") == set()  # right of KS, next to the gap h3
    assert into(state, "h3") == set(g.DECK)  # right of the gap g3
    assert into(pos(P3), "h3") == set()  # strict: an empty neighbour allows nothing


def test_open_gaps_is_off_by_default() -> None:
    assert GAME.new(deal=1).flags == {"open_gaps": False}
    assert [f.name for f in GAME.flag_specs if f.default] == []


def test_rules_judged_before_card_leaves() -> None:
    # Under open_gaps, 9S (b3) beside the gap c3 would leave a gap behind it; judged
    # before it leaves, c3 has two card neighbours, so only TS fits.
    state = pos(P1, open_gaps=True)
    assert into(state, "c3") == {"TS"}
    with pytest.raises(IllegalActionError, match="the left neighbour is 9S"):
        state.apply("9S c3")
    # g2: QH may move one place right, because the right neighbour KH allows it.
    assert into(pos(P1), "g2") == {"KH", "QH"}


def test_any_card_may_be_taken_out_of_a_run() -> None:
    # 8C ends the run 7C 8C of row 2; a1 (right neighbour 9C) accepts it.
    state = pos(P2)
    assert state.runs[1] == 2
    after = state.apply("8C a1")
    assert isinstance(after, PosthusState)
    assert after.runs[1] == 1


def test_run_is_an_unbroken_same_suit_sequence_from_column_1() -> None:
    state = pos(P1)
    assert state.runs == (3, 4, 0, 1)  # 7H-9H; 7C-TC; 8S… no 7; 7S then 8D breaks it
    view = state.view(None)
    assert view["runs"] == [3, 4, 0, 1]
    assert view["run_places"] == ["a1", "b1", "c1", "a2", "b2", "c2", "d2", "a4"]
    shifted = pos(P2)  # 7H 8H 9H JH: the missing TH ends the run at 9H
    assert shifted.runs == (0, 2, 3, 1)


def test_redeal_keeps_runs_and_leaves_one_gap_after_each() -> None:
    state = pos(P1)
    after = state.apply("redeal")
    assert isinstance(after, PosthusState)
    assert after.round == 2 and after.redeals_left == 1
    assert [g.place_name(i) for i in after.gaps()] == ["d1", "e2", "a3", "b4"]
    for row, n in enumerate(state.runs):
        base = row * 8
        assert after.grid[base : base + n] == state.grid[base : base + n]
    assert sorted(c for c in after.grid if c) == sorted(g.DECK)


def test_redeal_after_a_complete_run_leaves_the_gap_in_column_8() -> None:
    after = pos(P3).apply("redeal")
    assert isinstance(after, PosthusState)
    assert [g.place_name(i) for i in after.gaps()] == ["h1", "h2", "f3", "g4"]
    assert {after.grid[22], after.grid[23], after.grid[31]} == {"KS", "QS", "KD"}


def test_redeal_shuffles_with_the_deal_number() -> None:
    first = GAME.new(deal=7)
    once = first.apply("redeal")
    assert isinstance(once, PosthusState)
    cards = shuffled(g.gathered_cards(first.grid), "posthus", 1, 7, "redeal/1")
    assert once.grid == g.redeal_grid(first.grid, cards)
    twice = once.apply("redeal")
    assert isinstance(twice, PosthusState)
    cards = shuffled(g.gathered_cards(once.grid), "posthus", 1, 7, "redeal/2")
    assert twice.grid == g.redeal_grid(once.grid, cards)
    assert GAME.new(deal=7).apply("redeal") == once
    assert GAME.new(deal=8).apply("redeal") != once


def test_at_most_two_redeals() -> None:
    state = GAME.new(deal=3).apply("redeal").apply("redeal")
    assert isinstance(state, PosthusState)
    assert state.round == 3 and state.redeals_left == 0
    assert "redeal" not in legal(state)
    with pytest.raises(IllegalActionError, match="no redeal left"):
        state.apply("redeal")


def test_first_deal_shuffles_28_cards_and_4_gaps_over_32_places() -> None:
    state = GAME.new(deal=12)
    expected = shuffled([*g.DECK, *([None] * 4)], "posthus", 1, 12, "deal")
    assert list(state.grid) == expected
    layouts = {tuple(i for i, c in enumerate(GAME.new(deal=d).grid) if c is None)
               for d in range(40)}
    assert len(layouts) > 30  # the gaps land anywhere, not in fixed places


@pytest.mark.parametrize(("round_", "bonus"), [(1, 3), (2, 2), (3, 1)])
def test_bonus_3_2_1(round_: int, bonus: int) -> None:
    state = pos(P4, round_)
    assert state.view(0)["bonus"] == bonus
    won = state.apply("KD g4")
    assert won.outcome is not None
    assert won.outcome.bonus == bonus and won.outcome.reason == "won"


def test_won_when_every_row_holds_a_complete_run() -> None:
    won = pos(P4).apply("KD g4")
    outcome = won.outcome
    assert outcome is not None and outcome.winners == (0,) and outcome.losers == ()
    assert won.to_move is None and won.legal_actions() == []
    # Any suit on any row.
    rows = P4.replace("QD -- KD", "QD KD --").splitlines()
    swapped = "\n".join([rows[0], rows[3], rows[1], rows[4], rows[2]]) + "\n"
    assert pos(swapped).outcome is not None


def test_lost_when_no_move_and_no_redeal() -> None:
    stuck = pos(P3, 3)
    assert stuck.outcome is not None
    assert stuck.outcome.reason == "stuck" and stuck.outcome.losers == (0,)
    assert stuck.legal_actions() == [] and stuck.to_move is None


def test_no_move_but_a_redeal_left_is_not_lost() -> None:
    state = pos(P3, 2)
    assert state.outcome is None
    assert legal(state) == ["redeal", "resign"]


def test_resign() -> None:
    state = pos(P1).apply("resign")
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "resigned"
    assert outcome.winners == () and outcome.losers == (0,) and outcome.bonus == 0
    assert state.legal_actions() == []
    text = GAME.format_position(state)
    assert text.endswith("resigned\n")
    assert GAME.format_position(GAME.parse_position(text)) == text
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply("TH d1")


def test_legal_actions_are_sorted_and_end_with_redeal_and_resign() -> None:
    actions = legal(pos(P1))
    assert actions == sorted(set(actions))
    assert actions[-2:] == ["redeal", "resign"]
    assert actions[:-2] == ["9S d1", "KH g2", "QH g2", "TH d1", "TS c3"]


def test_apply_never_mutates() -> None:
    state = pos(P1)
    before = GAME.format_position(state)
    state.apply("TH d1")
    state.apply("redeal")
    assert GAME.format_position(state) == before
