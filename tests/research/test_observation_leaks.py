"""Hidden information stays hidden in the adapters' arrays: redrawing every card a seat
cannot see (``State.resample``) never changes that seat's observation array, nor the
mover's action mask — while the hidden cards themselves do change.  A deliberately
leaky encoding is caught by the same check (docs/research.md)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

import spillebord.games  # noqa: F401
from spillebord.core.protocol import State
from spillebord.core.registry import load
from spillebord.games.gammel_jomfru.state import JomfruState
from spillebord.research.codec import Codec, Tracker
from spillebord.research.jomfru import CARD, JomfruCodec, JomfruTracker
from spillebord.research.kugler import KuglerCodec
from spillebord.research.solitaire import StudenterCodec

Encode = Callable[[State, int], np.ndarray]
TRIES = 3


def encoder(codec: Codec) -> Encode:
    """The adapters' observation of ``seat``, plus its mask when it is to move."""
    def encode(state: State, seat: int) -> np.ndarray:
        view = state.view(seat)
        obs = codec.observe(view)
        if state.to_move != seat:
            return obs
        mask = np.zeros(codec.n_actions, dtype=np.float32)
        mask[list(codec.actions(view, state.legal_actions()))] = 1.0
        return np.concatenate([obs, mask])
    return encode


def tracked(codec: Codec) -> Encode:
    """The environments' fast path (``codec.tracker()``), one tracker for every call:
    the incremental updates are checked too."""
    tracker = codec.tracker()
    assert tracker is not None
    return tracked_by(tracker)


def tracked_by(tracker: Tracker) -> Encode:
    def encode(state: State, seat: int) -> np.ndarray:
        return tracker.observe(state, seat)
    return encode


def check_no_leak(encode: Encode, state: State, rng: random.Random) -> bool:
    """Every seat's array survives ``resample(seat)``; returns whether some resample
    changed the position (so there were hidden cards to leak)."""
    changed = False
    for seat in range(state.seats):
        before = encode(state, seat)
        for _ in range(TRIES):
            other = state.resample(seat, rng)
            assert np.array_equal(encode(other, seat), before), \
                f"seat {seat}'s observation leaks hidden cards"
            changed = changed or other.position() != state.position()
    return changed


def walk(game: str, seats: int, deal: int, encode: Encode, steps: int, every: int) -> int:
    """A random playout checking ``check_no_leak`` every ``every`` actions; returns how
    many checked states had hidden cards."""
    rng = random.Random(deal)
    state = load(game).new(deal=deal, seats=seats)
    hidden = 0
    for step in range(steps):
        if state.is_over:
            break
        if step % every == 0:
            hidden += check_no_leak(encode, state, rng)
        legal = state.legal_actions()
        state = state.apply_legal(legal[rng.randrange(len(legal))])
    return hidden


@pytest.mark.parametrize("seats", (2, 3, 4, 5, 6, 7, 8))
def test_jomfru_observations_do_not_leak(seats: int) -> None:
    assert walk("gammel_jomfru", seats, seats, encoder(JomfruCodec(seats)), 400, 25) > 0


@pytest.mark.parametrize("seats", (2, 4, 8))
def test_jomfru_fast_observations_do_not_leak(seats: int) -> None:
    assert walk("gammel_jomfru", seats, seats, tracked(JomfruCodec(seats)), 400, 25) > 0


@pytest.mark.parametrize("seats", (4, 6, 8))
def test_kugler_observations_do_not_leak(seats: int) -> None:
    assert walk("kugler", seats, seats, encoder(KuglerCodec(seats)), 240, 30) > 0


def test_studenter_observations_do_not_leak() -> None:
    assert walk("studenter", 1, 11, encoder(StudenterCodec()), 300, 20) > 0


def test_a_leaky_observation_is_caught() -> None:
    """The check fails for an encoding that peeks at the next face-down card."""
    codec = JomfruCodec(4)

    def leaky(state: State, seat: int) -> np.ndarray:
        assert isinstance(state, JomfruState)
        obs = codec.observe(state.view(seat))
        peek = np.zeros(len(CARD), dtype=np.float32)
        if state.down[seat]:
            peek[CARD[state.down[seat][0]]] = 1.0
        return np.concatenate([obs, peek])

    with pytest.raises(AssertionError, match="leaks hidden cards"):
        walk("gammel_jomfru", 4, 1, leaky, 50, 10)


def test_a_leaky_tracker_is_caught() -> None:
    """The fast path goes through the same check: a tracker that writes the next
    face-down card into the observer's first entry fails it."""

    class Peeking(JomfruTracker):
        def observe(self, state: State, seat: int) -> np.ndarray:
            out = super().observe(state, seat)
            assert isinstance(state, JomfruState)
            if state.down[seat]:
                out[0] = CARD[state.down[seat][0]] / len(CARD)
            return out

    with pytest.raises(AssertionError, match="leaks hidden cards"):
        walk("gammel_jomfru", 4, 1, tracked_by(Peeking(JomfruCodec(4))), 50, 10)
