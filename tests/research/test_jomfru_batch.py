"""Gammel Jomfru's vector engine (research/jomfru_batch.py, jomfru_kernel.py) equals
the single-state engine: random batches replayed through both agree on every legal list,
position and outcome, from numbered deals, from the compiled dealer, through the batch's
auto-reset, and for the compiled random playouts themselves (issue 32)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spillebord import games
from spillebord.games.gammel_jomfru.rules import DECK
from spillebord.games.gammel_jomfru.state import JomfruState
from spillebord.research import jomfru_kernel as K
from spillebord.research.jomfru import JomfruCodec
from spillebord.research.jomfru_batch import (
    ACTION_ID,
    TEXTS,
    JomfruBatch,
    engine_position,
    random_playouts,
)

GAME = games.load("gammel_jomfru")
CODEC = {n: JomfruCodec(n) for n in range(2, 9)}


def engine_state(batch: JomfruBatch, i: int, nearest: bool) -> JomfruState:
    """The engine state of a freshly dealt batch game (no card played yet)."""
    p = batch.position(i)
    assert p["turns"] == 0 and not p["centre_tops"] and p["turned"] is None
    n = batch.seats
    down = p["down"]
    assert isinstance(down, tuple)
    assert sorted(c for pile in down for c in pile) == sorted(DECK)
    return JomfruState(GAME, n, 0, {"nearest_first": nearest}, 0, down,
                       tuple(() for _ in range(n)), (), None, (), 0, batch.limit,
                       (False,) * n)


@pytest.mark.parametrize(("seats", "nearest"), [(2, False), (3, True), (4, False),
                                                (5, False), (8, False), (8, True)])
def test_numbered_deals_replay_equal(seats: int, nearest: bool) -> None:
    rng = random.Random(seats * 10 + nearest)
    batch = JomfruBatch(6, seats, nearest_first=nearest)
    states = [GAME.new(deal=rng.randrange(10**9), seats=seats, nearest_first=nearest)
              for _ in range(6)]
    for i, s in enumerate(states):
        batch.load(i, s)
    for i, state in enumerate(states):
        assert isinstance(state, JomfruState)
        while True:
            assert batch.legal_texts(i) == state.legal_actions()
            assert batch.position(i) == engine_position(state)
            if state.done:
                break
            action = rng.choice(state.legal_actions())
            batch.apply(i, action)
            state = state.apply(action)
            assert isinstance(state, JomfruState)
        assert state.outcome is not None and batch.loser(i) == state.outcome.losers[0]


@pytest.mark.parametrize(("seats", "auto_forced"), [(2, False), (4, True), (7, False)])
def test_batched_steps_with_auto_reset_replay_equal(seats: int, auto_forced: bool) -> None:
    rng = random.Random(seats)
    batch = JomfruBatch(5, seats, auto_forced=auto_forced)
    masks, movers = batch.reset(seed=seats)
    if not auto_forced:  # a fresh compiled deal is a whole deck dealt
        for i in range(5):
            engine_state(batch, i, False)
    states = [_restart(batch, i) for i in range(5)]

    def forced(state: JomfruState) -> JomfruState:
        while auto_forced and not state.done and len(state.legal_actions()) == 1:
            nxt = state.apply(state.legal_actions()[0])
            assert isinstance(nxt, JomfruState)
            state = nxt
        return state

    states = [forced(s) for s in states]
    finished = 0
    while finished < 12:
        actions = []
        for i, state in enumerate(states):
            legal = state.legal_actions()
            assert [TEXTS[a] for a in np.flatnonzero(masks[i])] == sorted(
                legal, key=lambda t: ACTION_ID[t])
            assert movers[i] == state.turn
            actions.append(ACTION_ID[rng.choice(legal)])
        masks, movers, rewards, dones = batch.step(actions)
        for i, state in enumerate(states):
            after = state.apply(TEXTS[actions[i]])
            assert isinstance(after, JomfruState)
            after = forced(after)
            if after.done:
                assert dones[i]
                assert after.outcome is not None
                loser = after.outcome.losers[0]
                assert rewards[i, loser] == -1 and rewards[i].sum() == seats - 2
                states[i] = _restart(batch, i)
                finished += 1
            else:
                assert not dones[i] and not rewards[i].any()
                assert batch.position(i) == engine_position(after)
                states[i] = after
        # the compiled observations are the table env's codec's, for every seat
        obs = batch.observe()
        for i, state in enumerate(states):
            assert np.array_equal(obs[i], CODEC[seats].observe(state.view(state.turn)))
            other = (state.turn + 1) % seats
            assert np.array_equal(batch.observe_seat(i, other),
                                  CODEC[seats].observe(state.view(other)))
            legal = state.legal_actions()
            want = np.zeros(6 + seats, np.int8)
            want[list(CODEC[seats].actions(state.view(state.turn), legal))] = 1
            assert np.array_equal(batch.codec_mask(i), want)


def _restart(batch: JomfruBatch, i: int) -> JomfruState:
    """The engine state of the batch's game ``i`` (after a reset with ``auto_forced`` the
    new game has moved on already); centre piles are rebuilt from their tops, all the
    rules read of them."""
    p = batch.position(i)
    n = batch.seats
    return JomfruState(GAME, n, 0, {}, p["turn"], p["down"], p["up"],  # type: ignore[arg-type]
                       tuple((c,) for c in p["centre_tops"]),  # type: ignore[union-attr]
                       p["turned"], p["out"], p["turns"], batch.limit,  # type: ignore[arg-type]
                       p["recycled"])  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [2, 4, 8])
def test_compiled_random_playouts_are_engine_games(seats: int) -> None:
    """The compiled playout's first game, replayed draw by draw from the same generator
    through the engine, has the same loser and length."""
    for s in range(3):
        losers, lengths, total = random_playouts(seats, 1, seed=s)
        assert total == lengths[0]
        K.seed(s)
        batch = JomfruBatch(1, seats)
        batch.reset()
        state = engine_state(batch, 0, False)
        steps = 0
        while not state.done:
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else legal[K.draw(len(legal))]
            nxt = state.apply(action)
            assert isinstance(nxt, JomfruState)
            state, steps = nxt, steps + 1
        assert state.outcome is not None
        assert (int(losers[0]), int(lengths[0])) == (state.outcome.losers[0], steps)


def test_bad_input_is_refused() -> None:
    batch = JomfruBatch(2, 3)
    masks, _ = batch.reset(seed=1)
    with pytest.raises(ValueError, match="not legal in game 1"):
        batch.step([0, 2])  # game 1 must turn first
    with pytest.raises(ValueError, match="actions needed"):
        batch.step([0])
    before = batch.position(0), batch.position(1)
    with pytest.raises(ValueError, match="action -2 is not legal in game 1"):
        batch.step([0, -2])  # only −1 means "none" (KuglerBatch alike)
    with pytest.raises(ValueError, match="integer actions needed"):
        batch.step([0.0, 0.4])  # a float is not cast to an id
    assert (batch.position(0), batch.position(1)) == before
    with pytest.raises(ValueError, match="2–8 seats"):
        JomfruBatch(1, 9)
    assert masks[:, 0].all()
