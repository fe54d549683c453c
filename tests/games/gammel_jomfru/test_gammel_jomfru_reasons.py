"""Gammel Jomfru refusals carry a message key and params the page can translate."""

from __future__ import annotations

import pytest
from tests.reasons import check_reason

from spillebord.core.errors import IllegalActionError
from spillebord.games.gammel_jomfru import GAME

from .helpers import position


@pytest.mark.parametrize(("text", "key", "params", "cards"), [
    ("p2", "gammel_jomfru.seat_no_fit", {"card": "5C", "seat": "2", "top": "9H"},
     ("card", "top")),
    ("centre", "gammel_jomfru.centre_ace_only", {"card": "5C"}, ("card",)),
    ("p7", "gammel_jomfru.no_seat", {"seat": "7", "seats": "3"}, ()),
    ("p0", "gammel_jomfru.own_pile", {}, ()),
    ("p1", "gammel_jomfru.no_face_up", {"seat": "1"}, ()),
    ("c1", "gammel_jomfru.no_centre_pile", {"pile": "1"}, ()),
    ("turn", "gammel_jomfru.place_first", {"card": "5C", "choices": "keep"}, ("card",)),
    ("fly", "gammel_jomfru.not_action", {"text": "fly", "choices": "keep"}, ()),
])
def test_a_refusal_names_the_card_and_the_place(text: str, key: str, params: dict[str, str],
                                                cards: tuple[str, ...]) -> None:
    state = position(seats=3, turn=0, down={0: ["2C"]}, up={2: ["9H"]}, turned="5C")
    before = GAME.format_position(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    check_reason(info.value, key, params, cards)
    assert GAME.format_position(state) == before


def test_turn_first() -> None:
    state = position(seats=3, turn=0, down={0: ["2C"]}, up={2: ["9H"]})
    with pytest.raises(IllegalActionError) as info:
        state.apply("p2")
    check_reason(info.value, "gammel_jomfru.turn_first", {"seat": "0"})
