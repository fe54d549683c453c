"""Posthus refusals carry a message key and params the page can translate: the card,
the gap's place and its neighbours (cards as card codes, marked in ``cards``)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.reasons import check_reason

from spillebord.core.errors import IllegalActionError

from .positions import P1, P2, pos

# Gaps b3 (left 7S, right a gap) and c3 (left a gap, right 9S), e4 (left TD, right QD),
# h4 (right of KD).
M = """round 1
7C 8C 9C TC JC QC KC 8S
7H 8H 9H TH JH QH KH TS
7S -- -- 9S JS KS QS JD
7D 8D 9D TD -- QD KD --
"""
# Gaps a1 (right a gap), b1 (gaps both sides), c1 (left a gap, right 7C), h4 (left QD).
N = """round 1
-- -- -- 7C 8C 9C TC JC
7H 8H 9H TH JH QH KH QC
7S 8S 9S TS JS QS KS KC
7D 8D 9D TD JD KD QD --
"""


def refused(state: Any, text: str) -> IllegalActionError:
    before = state.grid
    with pytest.raises(IllegalActionError) as info:
        state.apply(text)
    assert state.grid == before
    return info.value


@pytest.mark.parametrize(("text", "action", "key", "params"), [
    (P1, "JS d1", "posthus.no_fit.card_card",
     {"card": "JS", "place": "d1", "left": "9H", "right": "TS"}),
    (P1, "7D h4", "posthus.right_of_king", {"card": "7D", "place": "h4", "left": "KS"}),
    (P2, "8H a1", "posthus.no_fit.a7_card", {"card": "8H", "place": "a1", "right": "9C"}),
    (M, "8H b3", "posthus.no_fit.card_gap", {"card": "8H", "place": "b3", "left": "7S"}),
    (M, "8H c3", "posthus.no_fit.gap_card", {"card": "8H", "place": "c3", "right": "9S"}),
    (M, "8H e4", "posthus.no_fit.card_card",
     {"card": "8H", "place": "e4", "left": "TD", "right": "QD"}),
    (N, "8H a1", "posthus.no_fit.a7_gap", {"card": "8H", "place": "a1"}),
    (N, "8H b1", "posthus.no_fit.gap_gap", {"card": "8H", "place": "b1"}),
    (N, "8H c1", "posthus.no_fit.gap_card", {"card": "8H", "place": "c1", "right": "7C"}),
    (N, "8H h4", "posthus.no_fit.card_end", {"card": "8H", "place": "h4", "left": "QD"}),
])
def test_a_card_that_does_not_fit_names_card_place_and_neighbours(
        text: str, action: str, key: str, params: dict[str, str]) -> None:
    exc = refused(pos(text), action)
    cards = tuple(k for k in ("card", "left", "right") if k in params)
    check_reason(exc, key, params, cards)
    assert str(exc).startswith(f"{params['card']} does not fit {params['place']}")


def test_the_english_reason_is_unchanged() -> None:
    exc = refused(pos(P1), "JS d1")
    assert str(exc) == ("JS does not fit d1: the left neighbour is 9H and the right "
                        "neighbour is TS")


@pytest.mark.parametrize(("action", "key", "params", "cards"), [
    ("AH d1", "posthus.not_in_deck", {"card": "AH"}, ("card",)),
    ("XX d1", "posthus.not_card", {"text": "XX"}, ()),
    ("JS z9", "posthus.not_place", {"text": "z9"}, ()),
    ("JS a1", "posthus.not_gap", {"place": "a1", "occupant": "7H"}, ("occupant",)),
    ("fly away now", "posthus.not_action", {"text": "fly away now"}, ()),
])
def test_malformed_and_impossible_moves(action: str, key: str, params: dict[str, str],
                                        cards: tuple[str, ...]) -> None:
    check_reason(refused(pos(P1), action), key, params, cards)


def test_no_redeal_left_and_game_over() -> None:
    check_reason(refused(pos(P1, 3), "redeal"), "posthus.no_redeal", {"redeals": "2"})
    over = pos(P1).apply("resign")
    check_reason(refused(over, "JS d1"), "core.game_over", {})
