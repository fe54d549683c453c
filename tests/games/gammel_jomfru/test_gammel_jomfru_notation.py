"""Position JSON (rule book form + our extra keys), refusals of bad positions and bad
actions, the view (nothing face down is ever shown) and the resample."""

from __future__ import annotations

import json
import random

import pytest

from spillebord.core.cards import one_deck
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.games.gammel_jomfru import GAME
from spillebord.games.gammel_jomfru.rules import TURN_LIMIT

from .helpers import play, position, position_text


def test_rule_book_form_parses_with_defaults() -> None:
    deck = one_deck()
    spades = ["AS", "KS"]
    rest = [c for c in deck if c not in spades and c not in ("5C", "KH")]
    text = json.dumps({
        "seats": 3, "turn": 0,
        "down": {"0": ["KH", *rest[:16]], "1": rest[16:32], "2": rest[32:]},
        "up": {"0": ["5C"], "1": [], "2": []},
        "centre": [spades], "turned": None, "out": [],
    })
    state = GAME.parse_position(text)
    assert state.turns == 0 and state.limit == TURN_LIMIT
    assert state.recycled == (False, False, False)
    assert state.down[0][0] == "KH" and state.up[0] == ("5C",)
    assert play(state, "turn").turned == "KH"  # down is in turning order
    again = GAME.format_position(state)
    assert GAME.format_position(GAME.parse_position(again)) == again
    assert json.loads(again)["limit"] == TURN_LIMIT


def test_new_game_position_round_trips() -> None:
    state = GAME.new(deal=12, seats=5)
    text = GAME.format_position(state)
    again = GAME.parse_position(text)
    assert again.down == state.down and again.limit == state.limit
    assert GAME.format_position(again) == text


@pytest.mark.parametrize(("change", "message"), [
    ({"seats": 9}, "'seats' must be an integer 2..8"),
    ({"seats": True}, "'seats' must be"),
    ({"turn": 3}, "'turn' must be an integer 0..2"),
    ({"colour": 1}, "unknown key 'colour' in the position"),
    ({"down": {"5": []}}, "'down': '5' is not a seat"),
    ({"up": ["5C"]}, "'up' maps seats"),
    ({"centre": [["AS", "QS"]]}, "centre pile 1 out of order: QS on AS"),
    ({"centre": [["KS"]]}, "centre pile 1 must start with an ace"),
    ({"centre": [["AS", "KH"]]}, "centre pile 1 out of order: KH on AS"),
    ({"turned": "ZZ"}, "turned: 'ZZ' is not a card"),
    ({"out": [0, 0]}, "'out' names a seat twice"),
    ({"turns": -1}, "'turns' must be"),
])
def test_bad_positions_are_refused_naming_the_place(change: dict[str, object],
                                                     message: str) -> None:
    data = json.loads(position_text(seats=3, turn=0, up={1: ["9H"]}))
    data.update(change)
    with pytest.raises(NotationError, match=message) as info:
        GAME.parse_position(json.dumps(data))
    assert "\n" not in str(info.value)


def test_cards_must_be_exactly_the_52() -> None:
    data = json.loads(position_text(seats=3, turn=0, up={1: ["9H"]}))
    data["up"]["2"] = ["9H"]
    with pytest.raises(NotationError, match="9H appears twice"):
        GAME.parse_position(json.dumps(data))
    data = json.loads(position_text(seats=3, turn=0, up={1: ["9H"]}))
    data["up"]["1"] = []
    with pytest.raises(NotationError, match="missing 9H"):
        GAME.parse_position(json.dumps(data))


def test_turned_card_only_while_a_turn_is_in_progress() -> None:
    with pytest.raises(NotationError, match="no turn is in progress"):
        GAME.parse_position(position_text(seats=3, turn=0, turned="5C", out=[1, 2],
                                          filler=0))
    with pytest.raises(NotationError, match="no turn is in progress"):
        GAME.parse_position(position_text(seats=3, turn=0, turned="5C", turns=5, limit=5))
    with pytest.raises(NotationError, match="'turn': seat 1 is out"):
        GAME.parse_position(position_text(seats=3, turn=1, out=[1], down={0: ["2C"]},
                                          filler=2))


def test_aces_never_lie_on_a_face_up_pile() -> None:
    with pytest.raises(NotationError, match="up 1: an ace never lies"):
        GAME.parse_position(position_text(seats=3, up={1: ["AH"]}))


def test_out_seats_hold_nothing_and_holders_hold_something() -> None:
    data = json.loads(position_text(seats=3, turn=0, up={1: ["9H"]}))
    data["out"] = [1]
    with pytest.raises(NotationError, match="seat 1 is out but holds cards"):
        GAME.parse_position(json.dumps(data))


@pytest.mark.parametrize(("kwargs", "text", "message"), [
    ({"up": {2: ["9H"]}, "turned": "5C"}, "p2", "^5C does not fit seat 2's 9H$"),
    ({"up": {2: ["9H"]}, "turned": "5C"}, "p7", "no seat 7"),
    ({"up": {2: ["9H"]}, "turned": "5C"}, "p1", "seat 1 has no face-up card"),
    ({"up": {2: ["9H"]}, "turned": "5C"}, "c2", "no centre pile 2"),
    ({"up": {2: ["9H"]}, "turned": "5C"}, "turn", "5C is turned and must be placed"),
    ({"up": {2: ["9H"]}, "turned": "5C"}, "centre", "only an ace starts"),
    ({"up": {2: ["9H"]}}, "p2", "must turn a card first"),
    ({"up": {2: ["9H"]}}, "fly", "'fly' is not an action"),
])
def test_illegal_actions_give_a_reason_and_change_nothing(
        kwargs: dict[str, object], text: str, message: str) -> None:
    state = position(seats=3, turn=0, down={0: ["2C"]}, **kwargs)  # type: ignore[arg-type]
    before = GAME.format_position(state)
    with pytest.raises(IllegalActionError, match=message) as info:
        state.apply(text)
    assert "\n" not in str(info.value)
    assert GAME.format_position(state) == before


def test_views_show_no_face_down_card_not_even_your_own() -> None:
    state = GAME.new(deal=3, seats=4)
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        text = json.dumps(view)
        assert not any(c in text for c in one_deck())
        assert view["down_counts"] == [13, 13, 13, 13]
    state = play(state, "turn")
    text = json.dumps(state.view(0))
    visible = [c for c in one_deck() if c in text]
    assert visible == [state.turned]  # the turned card is face up on the table


def test_resample_redraws_dealt_piles_and_keeps_recycled_ones() -> None:
    state = position(seats=3, turn=0, up={0: ["5C", "9D", "KH"], 1: ["2S"]},
                     down={1: ["3H", "4H"]}, filler=2)
    state = play(state, "turn", "keep")  # seat 0 turned its face-up pile over
    assert state.recycled == (True, False, False)
    rng = random.Random(5)
    seen = set()
    for _ in range(30):
        sample = state.resample(1, rng)
        assert sample.down[0] == state.down[0]  # public: everyone saw it face up
        assert [len(p) for p in sample.down] == [len(p) for p in state.down]
        assert sorted(sample.down[1] + sample.down[2]) == sorted(state.down[1] + state.down[2])
        assert sample.view(1) == state.view(1)
        seen.add(sample.down[1])
    assert len(seen) > 1
    # the result depends only on public information and the rng
    other = position(seats=3, turn=0, up={0: ["5C", "9D", "KH"], 1: ["2S"]},
                     down={1: ["7H", "4H"]}, filler=2)
    other = play(other, "turn", "keep")
    assert other.view(0) == state.view(0)
    a = state.resample(0, random.Random(9))
    b = other.resample(0, random.Random(9))
    assert GAME.format_position(a) == GAME.format_position(b)


def test_click_to_move() -> None:
    state = position(seats=4, turn=0, down={0: ["2C"]}, up={1: ["QH"], 3: ["QD"]},
                     centre=[["AS"]])
    assert GAME.click(state, "down") == ["turn"]
    assert GAME.click(state, "c1") == []
    state = position(seats=4, turn=0, down={0: ["2C"]}, up={1: ["QH"], 3: ["QD"]},
                     centre=[["AS"]], turned="KS")
    assert GAME.click(state, "turned") == ["c1", "p1", "p3"]
    assert GAME.click(state, "KS") == ["c1", "p1", "p3"]
    assert GAME.click(state, "centre") == ["c1"]
    assert GAME.click(state, "p3") == ["p3"]
    assert GAME.click(state, "up") == [] and GAME.click(state, "down") == []
    state = position(seats=4, turn=0, down={0: ["2C"]}, turned="5C")
    assert GAME.click(state, "up") == ["keep"]
