"""Kugler og Jokere refusals carry a message key and params the page can translate:
places (t14, h0.3, s0) as written, cards as card codes marked in ``cards``."""

from __future__ import annotations

from typing import Any

import pytest
from tests.reasons import check_reason

from spillebord.core.errors import IllegalActionError

from .helpers import position

FILLER = ["2C", "3C", "4C", "6C"]


def refused(state: Any, text: str) -> IllegalActionError:
    before = state.board
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    assert state.board == before
    return info.value


def test_jumping_your_own_marble() -> None:
    state = position({0: ["t10", "t14"]}, ["5H", *FILLER])
    exc = refused(state, "5H t10-t15")
    check_reason(exc, "kugler.jump_own", {"place": "t14"}, ())
    assert str(exc) == "you cannot jump your own marble on t14"


@pytest.mark.parametrize(("marbles", "hand", "text", "key", "params", "cards"), [
    ({0: ["t10", "t15"]}, ["5H", *FILLER], "5H t10-t15", "kugler.own_marble_on",
     {"place": "t15"}, ()),
    ({0: ["t10"]}, ["5H", *FILLER], "9S t10-t19", "kugler.not_held", {"card": "9S"},
     ("card",)),
    ({0: ["t10"]}, ["5H", *FILLER], "5H t10-t16", "kugler.moves_to",
     {"card": "5H", "place": "t10", "to": "t15", "wrong": "t16"}, ("card",)),
    ({0: ["t10"]}, ["5H", *FILLER], "5H s0-t0", "kugler.cannot_start", {"card": "5H"},
     ("card",)),
    ({0: ["t10"]}, ["5H", *FILLER], "5H t11-t16", "kugler.no_own_marble",
     {"place": "t11"}, ()),
    ({0: ["t10"]}, ["5H", *FILLER], "5H t10-x9", "kugler.not_place", {"text": "x9"}, ()),
    ({0: ["t10"]}, ["5H", *FILLER], "5H", "kugler.which_marble", {"code": "5H"}, ()),
    ({0: ["t66"]}, ["TH", "9H", "6C", "2C", "3C"], "TH t66-h0.5", "kugler.overshoot",
     {"steps": "10", "place": "t66", "last": "h0.5"}, ()),
    ({0: ["t5", "t9"]}, ["JK", *FILLER], "JK t5-t9", "kugler.joker_own", {}, ()),
    ({0: ["t10"]}, ["5H", *FILLER], "discard 5H", "kugler.discard_usable", {"card": "5H"},
     ("card",)),
])
def test_refusals_name_places_and_cards(marbles: dict[int, list[str]], hand: list[str],
                                        text: str, key: str, params: dict[str, str],
                                        cards: tuple[str, ...]) -> None:
    check_reason(refused(position(marbles, hand), text), key, params, cards)
