"""Golden tests for the deal-number algorithm v1: these values must never change."""

from __future__ import annotations

import pytest

from spillebord.core.cards import kugler_deck, one_deck, stripped_deck, two_decks
from spillebord.core.rng import DealRng, deal_rng, shuffled, stream_key


def test_stream_key_is_documented_text() -> None:
    assert stream_key("posthus", 1, 7) == "spillebord/deal/v1|posthus||1|7|deal"
    assert stream_key("kugler", 4, 0, "reshuffle/2") == "spillebord/deal/v1|kugler||4|0|reshuffle/2"


def test_xoshiro_matches_the_reference_vector() -> None:
    rng = DealRng("any")
    rng._s = [1, 2, 3, 4]  # the reference implementation's test seed
    assert [rng.next64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_xoshiro_outputs_are_pinned() -> None:
    rng = DealRng("spillebord/deal/v1|test")
    assert [rng.next64() for _ in range(3)] == GOLDEN_XOSHIRO


def test_below_is_uniform_and_in_range() -> None:
    rng = deal_rng("t", 1, 1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(800 < c < 1200 for c in counts)
    with pytest.raises(ValueError):
        rng.below(0)


def test_negative_deal_numbers_are_refused() -> None:
    with pytest.raises(ValueError):
        deal_rng("posthus", 1, -1)


DECKS = {"one": one_deck, "two": two_decks, "stripped": stripped_deck, "kugler": kugler_deck}


@pytest.mark.parametrize(
    ("deck", "game", "seats", "deal", "first"),
    [
        ("one", "gammel_jomfru", 4, 0, ["4D", "QD", "5D", "4H", "JD", "AH", "3H", "8D"]),
        ("one", "gammel_jomfru", 4, 1, ["7S", "TH", "8S", "7H", "3H", "QH", "JD", "QS"]),
        ("two", "studenter", 1, 1, ["7C", "3D", "7S", "6H", "QC", "9H", "6C", "TH"]),
        ("two", "studenter", 1, 2, ["AH", "6D", "5C", "QH", "AS", "2D", "9D", "6H"]),
        ("stripped", "posthus", 1, 0, ["QC", "8D", "JC", "8S", "9S", "JD", "KC", "JS"]),
        ("stripped", "posthus", 1, 1, ["7D", "QH", "9H", "8S", "KD", "KS", "TD", "QS"]),
        ("kugler", "kugler", 4, 1, ["7S", "2C", "QS", "JC", "8S", "5D", "QD", "2C"]),
        ("kugler", "kugler", 4, 2, ["3S", "QS", "AH", "TC", "JH", "6D", "JH", "8S"]),
    ],
)
def test_golden_first_cards(deck: str, game: str, seats: int, deal: int,
                            first: list[str]) -> None:
    cards = DECKS[deck]()
    out = shuffled(cards, game, seats, deal)
    assert sorted(out) == sorted(cards)
    assert out[:8] == first


GOLDEN_XOSHIRO = [16109199116916263748, 15703175099469957545, 3892189298481281893]


def test_the_compiled_shuffle_draws_what_below_draws() -> None:
    """``DealRng.shuffle`` (from 16 items on the compiled kernel, core/rng_kernel.py;
    issue 32) gives what Fisher–Yates on ``below`` gives, for many keys and sizes on
    both sides of 16, and leaves the generator in the same state."""
    for k in range(300):
        for size in (2, 3, 15, 16, 53, 104, 134, 2**k % 200 + 2):
            key = f"test|{k}|{size}"
            fast, slow = DealRng(key), DealRng(key)
            items = list(range(size))
            want = list(items)
            for i in range(size - 1, 0, -1):
                j = slow.below(i + 1)
                want[i], want[j] = want[j], want[i]
            assert fast.shuffle(items) == want
            assert fast.next64() == slow.next64()
