"""Position text and action notation: round-trips and one-line errors naming the place."""

from __future__ import annotations

import json

import pytest

from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.games.posthus import GAME

from .positions import P1, P2, P4, legal, pos


def test_position_round_trips() -> None:
    for text in (P1, P2, P4):
        assert GAME.format_position(GAME.parse_position(text)) == text


def test_round_line_is_optional_and_defaults_to_1() -> None:
    body = P1.split("\n", 1)[1]
    state = GAME.parse_position(body)
    assert state.round == 1 and GAME.format_position(state) == P1
    assert GAME.parse_position("round 3\n" + body).round == 3


def test_blank_lines_and_extra_spaces_are_tolerated() -> None:
    messy = "\n" + P1.replace(" ", "  ").replace("\n", "\n\n")
    assert GAME.format_position(GAME.parse_position(messy)) == P1


def test_parsed_position_has_deal_0_and_the_flags() -> None:
    state = GAME.parse_position(P2, open_gaps=True)
    assert state.deal == 0 and state.flags == {"open_gaps": True}


def _error(text: str) -> str:
    with pytest.raises(NotationError) as info:
        GAME.parse_position(text)
    message = str(info.value)
    assert message and "\n" not in message
    return message


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("round 1", "round 4", "line 1: 'round 4' is not 'round 1', 'round 2' or 'round 3'"),
        ("round 1", "round x", "line 1"),
        ("KC\n", "TC\n", "line 3, place d2: TC appears twice (also at h1)"),
        ("TS JC", "XX JC", "line 2, place e1: 'XX' is not a card or '--'"),
        ("TS JC", "AS JC", "line 2, place e1: AS is not in the posthus deck (7–K)"),
        ("TS JC", "-- JC", "the grid has 5 gaps (d1, e1, g2, c3, h4), not 4: missing TS"),
        ("8S 9S --", "8S 9S", "line 4 (row 3) has 7 places, not 8"),
    ],
)
def test_bad_positions_name_the_place(old: str, new: str, expected: str) -> None:
    assert expected in _error(P1.replace(old, new, 1))


def test_wrong_number_of_rows() -> None:
    assert "4 rows" in _error("\n".join(P1.splitlines()[:4]))
    assert "4 rows" in _error(P1 + "7C 8C 9C TC JC QC KC --\n")


def test_empty_and_junk_positions() -> None:
    for text in ("", "   \n", "{", "round 1"):
        _error(text)


def test_illegal_action_reasons() -> None:
    state = pos(P1)
    cases = {
        "8H c3": "8H does not fit c3: the left neighbour is 9S and the right neighbour is JS",
        "TH c2": "c2 is not a gap: it holds 9C",
        "AS d1": "AS is not in the posthus deck (7–K)",
        "ZZ d1": "'ZZ' is not a card",
        "TH z9": "'z9' is not a place: columns a–h, rows 1–4",
        "fly": "'fly' is not an action",
        "TH d1 now": "is not an action",
        "QD h4": "QD does not fit h4: nothing goes right of a King (the left neighbour is KS)",
    }
    before = GAME.format_position(state)
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError) as info:
            state.apply(text)
        assert reason in str(info.value), text
        assert "\n" not in str(info.value)
    assert GAME.format_position(state) == before


def test_actions_parse_with_extra_whitespace() -> None:
    assert GAME.parse_action(pos(P1), "  TH   d1 ") == "TH d1"
    for action in pos(P1).legal_actions():
        assert GAME.parse_action(pos(P1), str(action)) == action


def test_view_shows_grid_runs_round_redeals_bonus_and_outcome() -> None:
    state = pos(P1, 2)
    view = state.view(0)
    assert view == state.view(None)  # no hidden cards: the spectator sees the same
    json.dumps(view)
    assert view["grid"][0] == ["7H", "8H", "9H", None, "TS", "JC", "QC", "KC"]
    assert view["gaps"] == ["d1", "g2", "c3", "h4"]
    assert (view["round"], view["redeals_left"], view["bonus"]) == (2, 1, 2)
    assert view["outcome"] is None
    over = state.apply("resign").view(0)
    assert over["outcome"]["reason"] == "resigned"


def test_click_a_card_or_a_gap() -> None:
    state = pos(P1)
    assert GAME.click(state, "TH") == ["TH d1"]  # fits one gap: the page moves it
    assert GAME.click(state, "d1") == ["9S d1", "TH d1"]  # a gap: the cards that fit
    assert GAME.click(state, "h3") == ["TH d1"]  # a place holding a card = that card
    assert GAME.click(state, "7D") == []  # fits nowhere
    assert GAME.click(state, "h4") == []  # a gap right of a King
    assert GAME.click(state, "nonsense") == []
    two = pos(P2)
    assert GAME.click(two, "JH") == ["JH d2", "JH e2"]  # two gaps: the page asks
    assert GAME.click(state.apply("resign"), "TH") == []


def test_legal_list_matches_for_a_parsed_copy_of_a_dealt_game() -> None:
    state = GAME.new(deal=31)
    copy = GAME.parse_position(GAME.format_position(state))
    assert legal(copy) == legal(state)
