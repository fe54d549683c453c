"""The environments' fast paths equal the view-based definitions (docs/research.md,
"Speed"): ``JomfruTracker`` gives ``JomfruCodec.observe(state.view(seat))`` for every
seat along random playouts (also after jumps to unrelated states), and the PettingZoo
env's observations and shared masks equal the view-based encoder's."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spillebord.games  # noqa: F401
from spillebord.core.protocol import State
from spillebord.core.registry import load
from spillebord.research.jomfru import JomfruCodec
from spillebord.research.table import jomfru_env

SEATS = (2, 3, 4, 5, 6, 7, 8)


def playout(seats: int, deal: int, nearest_first: bool = False) -> list[State]:
    rng = random.Random(deal)
    state = load("gammel_jomfru").new(deal=deal, seats=seats, nearest_first=nearest_first)
    states = [state]
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply_legal(legal[rng.randrange(len(legal))])
        states.append(state)
    return states


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("nearest_first", (False, True))
def test_tracker_equals_the_view_encoding(seats: int, nearest_first: bool) -> None:
    codec = JomfruCodec(seats)
    tracker = codec.tracker()
    rng = random.Random(seats)
    states = playout(seats, 100 + seats, nearest_first)
    assert states[-1].is_over
    # in order (the incremental path), then in a shuffled order (every jump rewrites)
    for state in states + rng.sample(states, min(len(states), 150)):
        for seat in range(seats):
            got = tracker.observe(state, seat)
            assert got.dtype == np.float32
            assert np.array_equal(got, codec.observe(state.view(seat))), (seats, seat)
    # an unrelated game and a resampled position (new face-down tuples)
    other = playout(seats, 999, nearest_first)
    for state in (other[len(other) // 2], other[0].resample(0, rng), other[-1]):
        for seat in range(seats):
            assert np.array_equal(tracker.observe(state, seat),
                                  codec.observe(state.view(seat)))


def test_tracker_arrays_are_fresh() -> None:
    """A returned observation is the caller's: later steps never change it."""
    codec = JomfruCodec(4)
    tracker = codec.tracker()
    states = playout(4, 7)
    first = tracker.observe(states[0], 0)
    kept = first.copy()
    for state in states[1:60]:
        tracker.observe(state, 0)
    assert np.array_equal(first, kept)


@pytest.mark.parametrize("seats", (2, 5, 8))
def test_env_observations_and_masks_equal_the_view_encoding(seats: int) -> None:
    env = jomfru_env(seats)
    codec = JomfruCodec(seats)
    rng = random.Random(seats)
    for episode in range(3):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            state = env.state_
            assert state is not None
            seat = env._seat[agent]
            view = state.view(seat)
            assert np.array_equal(obs["observation"], codec.observe(view))
            want = np.zeros(codec.n_actions, dtype=np.int8)
            want[list(codec.actions(view, state.legal_actions()))] = 1
            assert np.array_equal(obs["action_mask"], want)
            assert not obs["action_mask"].flags.writeable
            for other in range(seats):  # a seat not to move sees an all-zero mask
                if other != seat:
                    seen = env.observe(f"player_{other}")
                    assert not seen["action_mask"].any()
                    assert np.array_equal(seen["observation"],
                                          codec.observe(state.view(other)))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
