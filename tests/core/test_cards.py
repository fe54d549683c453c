from __future__ import annotations

import pytest

from spillebord.core.cards import (
    Card,
    kugler_deck,
    one_deck,
    piquet_deck,
    stripped_deck,
    two_decks,
)
from spillebord.core.errors import NotationError


def test_card_codes_round_trip() -> None:
    for code in [*one_deck(), "JK"]:
        card = Card.parse(code)
        assert str(card) == code
        assert eval(repr(card)) == card


@pytest.mark.parametrize("bad", ["", "1H", "TX", "th", "10H", "J", "KHS", "JKX"])
def test_bad_card_codes_are_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(bad)


def test_deck_sizes() -> None:
    assert len(one_deck()) == len(set(one_deck())) == 52
    assert len(two_decks()) == 104 and len(set(two_decks())) == 52
    assert len(piquet_deck()) == 32 and "AS" in piquet_deck()
    assert len(stripped_deck()) == 28 and not any(c[0] in "A23456" for c in stripped_deck())
    deck = kugler_deck()
    assert len(deck) == 134
    assert deck.count("JK") == 6
    assert deck.count("AS") == 3 and deck.count("7H") == 3 and deck.count("2C") == 2


def test_danish_names() -> None:
    assert Card.parse("8H").name() == "hjerter otte"
    assert Card.parse("QS").name("en") == "queen of spades"
