"""Kugler og Jokere's batched env (research/kugler_batch.py, kugler_batch_encode.py):
every game's observation and mask are exactly the single-state encoder's
(``KuglerCodec`` on the engine's view, and the PettingZoo env started from the same
position) along many random games at 4, 6 and 8 seats with every rule flag and
``auto_forced``, through the batch's auto-reset; an observation never holds another
seat's hidden cards (the project's leak check: states differing only in hidden cards give
equal arrays); bad actions are refused before any game moves; a seed replays the same
batch (issue 32)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.research.test_observation_leaks import Encode, check_no_leak, walk

from spillebord import games
from spillebord.core.protocol import State
from spillebord.games.kugler.state import KuglerState
from spillebord.research import kugler_kernel as K
from spillebord.research.kugler_batch import KuglerBatch
from spillebord.research.table import kugler_env

GAME = games.load("kugler")
FLAGS: list[dict[str, bool]] = [{}, {"optional_home_entry": True},
                                {"strict_discard": True}, {"finished_helps_partner": False}]


def random_actions(batch: KuglerBatch, rng: np.random.Generator) -> np.ndarray:
    """One legal action index per game, uniform over its legal list."""
    pick = (rng.random(batch.num_envs) * batch.counts).astype(np.int64)
    return batch.actions[np.arange(batch.num_envs), pick]


def check_game(batch: KuglerBatch, b: int, obs: np.ndarray, env_too: bool) -> KuglerState:
    """Game ``b``'s arrays against the codec on the engine's state: the mover's
    observation (``obs``, from ``observe()``), every seat's, the mask and the legal
    list's action indices; with ``env_too``, against the PettingZoo env's too."""
    codec = batch.codec
    state = batch.to_state(b)
    mover = state.turn
    assert int(batch.movers[b]) == mover
    view = state.view(mover)
    assert obs.dtype == np.float32 and obs.shape == (codec.size,)
    assert np.array_equal(obs, codec.observe(view))
    for seat in range(batch.seats):
        assert np.array_equal(batch.observe_seat(b, seat), codec.observe(state.view(seat)))
    legal = state.legal_actions()
    index = codec.actions(view, legal)
    want = np.zeros(codec.n_actions, np.int8)
    want[list(index)] = 1
    assert np.array_equal(batch.masks[b], want)
    k = int(batch.counts[b])
    assert k == len(legal)
    # action index j of the list is the engine's j-th move
    assert [index[int(a)].text for a in batch.actions[b, :k]] == [m.text for m in legal]
    if env_too:
        env = kugler_env(batch.seats, **dict(state.flags))
        env.reset(options={"position": GAME.format_position(state)})
        agent = env.agent_selection
        seen = env.observe(agent)
        assert np.array_equal(seen["observation"], obs)
        assert np.array_equal(seen["action_mask"], batch.masks[b])
    return state


# forced positions (one legal action) come with strict_discard (≈ 2.6 % of positions)
CASES = [(4, FLAGS[0], False), (4, FLAGS[2], True), (6, FLAGS[2], False),
         (6, FLAGS[1], False), (8, FLAGS[3], False), (8, FLAGS[2], True)]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "flags", "auto_forced"), CASES)
def test_observations_and_masks_equal_the_single_state_encoder(
        seats: int, flags: dict[str, bool], auto_forced: bool) -> None:
    """Random batch games through auto-reset: a rotating share of the games is checked
    at every step (and every game right after it was dealt afresh)."""
    envs, every = 6, seats
    batch = KuglerBatch(envs, seats, auto_forced=auto_forced, **flags)
    batch.reset(seed=seats)
    rng = np.random.default_rng(seats)
    steps = batch.limit + 100  # every game ends at least once (at the latest: the limit)
    ended = checked = reshuffled = ties = forced = 0
    fresh = np.ones(envs, np.bool_)
    for t in range(steps):
        obs = batch.observe()
        assert obs.shape == (envs, batch.observation_size)
        for b in range(envs):
            if fresh[b] or (t + b) % every == 0:
                state = check_game(batch, b, obs[b], env_too=checked % 25 == 0)
                checked += 1
                reshuffled += state.reshuffles > 0
                if auto_forced:
                    assert len(state.legal_actions()) != 1
        turns = batch.info[:, K.TURNS].copy()
        _, _, rewards, dones = batch.step(random_actions(batch, rng))
        forced += int((batch.info[~dones, K.TURNS] - turns[~dones] > 1).sum())
        fresh = dones
        for b in dones.nonzero()[0]:
            ended += 1
            half = seats // 2
            w = int(batch.wins[b])
            if w < 0:  # the turn limit with the teams' homes level: a tie
                ties += 1
                assert not rewards[b].any()
            else:
                assert [rewards[b, s] for s in range(seats)] == [
                    1.0 if s % half == w else -1.0 for s in range(seats)]
            assert batch.info[b, K.TURNS] == 0 or auto_forced
        assert not rewards[~dones].any()
    assert ended >= envs and reshuffled > 0 and checked > steps * envs // every
    assert (forced > 0) == auto_forced  # lone moves were played on, and only then


def test_numbered_deals_and_finished_games_load_equal() -> None:
    """Engine positions loaded into the batch (numbered deals with flags, played on a
    while) give the codec's arrays; a finished game has no legal actions, an empty mask
    and the codec's observation for every seat (no seat to move)."""
    rng = random.Random(3)
    for seats, flags in ((4, FLAGS[1]), (6, FLAGS[2]), (8, FLAGS[3])):
        batch = KuglerBatch(2, seats, **flags)
        state = GAME.new(deal=rng.randrange(10**9), seats=seats, **flags)
        assert isinstance(state, KuglerState)
        for _ in range(rng.randrange(40, 120)):
            state = play_one(state, rng)
        batch.load(1, state)
        check_game(batch, 1, batch.observe()[1], env_too=True)
    while state.outcome is None:
        state = play_one(state, rng)
    batch.load(0, state)
    assert batch.counts[0] == 0 and not batch.masks[0].any()
    for seat in range(8):
        assert np.array_equal(batch.observe_seat(0, seat),
                              batch.codec.observe(state.view(seat)))
    with pytest.raises(ValueError, match="not legal in game 0"):
        batch.step([0, -1])


def test_a_loaded_position_keeps_its_own_flags() -> None:
    """A position with other rule flags than the batch's plays and encodes by its own."""
    state = GAME.new(deal=7, seats=4, strict_discard=True)
    assert isinstance(state, KuglerState)
    batch = KuglerBatch(1, 4)
    batch.load(0, state)
    assert dict(batch.to_state(0).flags) == dict(state.flags)
    check_game(batch, 0, batch.observe()[0], env_too=True)


def play_one(state: KuglerState, rng: random.Random) -> KuglerState:
    legal = state.legal_actions()
    nxt = state.apply_legal(legal[rng.randrange(len(legal))])
    assert isinstance(nxt, KuglerState)
    return nxt


def batch_encoder(seats: int) -> Encode:
    """The batch's arrays for a seat of an engine state: the state loaded into a batch
    game, that seat's observation, and the mask when it is to move."""
    batch = KuglerBatch(1, seats)

    def encode(state: State, seat: int) -> np.ndarray:
        assert isinstance(state, KuglerState)
        batch.load(0, state)
        obs = batch.observe_seat(0, seat)
        if state.to_move != seat:
            return obs
        return np.concatenate([obs, batch.masks[0].astype(np.float32)])
    return encode


@pytest.mark.parametrize("seats", (4, 6, 8))
def test_batch_observations_do_not_leak(seats: int) -> None:
    """The leak check of test_observation_leaks.py on the batch's arrays: engine
    positions, and the batch's own positions after its reshuffles."""
    assert walk("kugler", seats, seats, batch_encoder(seats), 240, 30) > 0
    batch = KuglerBatch(2, seats)
    batch.reset(seed=seats)
    rng = np.random.default_rng(seats)
    encode, pick = batch_encoder(seats), random.Random(seats)
    hidden = 0
    for t in range(600):
        if t % 100 == 99:
            hidden += check_no_leak(encode, batch.to_state(t % 2), pick)
        batch.step(random_actions(batch, rng))
    assert hidden > 0


def test_a_peeking_batch_encoding_is_caught() -> None:
    """The same check fails for arrays that show the next seat's hand."""
    batch = KuglerBatch(1, 4)

    def peeking(state: State, seat: int) -> np.ndarray:
        assert isinstance(state, KuglerState)
        batch.load(0, state)
        return np.concatenate([batch.observe_seat(0, seat),
                               batch.hands[0, (seat + 1) % 4].astype(np.float32)])

    with pytest.raises(AssertionError, match="leaks hidden cards"):
        walk("kugler", 4, 1, peeking, 60, 20)


def test_bad_actions_are_refused_and_nothing_moves() -> None:
    batch = KuglerBatch(3, 4)
    masks, movers = batch.reset(seed=2)
    assert masks.shape == (3, batch.n_actions) and masks.dtype == np.int8
    before = [a.copy() for a in (batch.board, batch.hands, batch.draw, batch.disc,
                                 batch.info, batch.masks, batch.counts)]
    legal = random_actions(batch, np.random.default_rng(0))
    illegal = int(np.flatnonzero(masks[2] == 0)[0])
    for actions, message in (
            ([legal[0], legal[1], illegal], f"action {illegal} is not legal in game 2"),
            ([legal[0], batch.n_actions, -1], "is not legal in game 1"),
            ([-2, legal[1], legal[2]], "action -2 is not legal in game 0"),
            ([legal[0], legal[1]], "3 integer actions needed"),
            ([0.0, 1.0, 2.0], "integer actions needed")):
        with pytest.raises(ValueError, match=message):
            batch.step(actions)  # type: ignore[arg-type]
        for got, want in zip((batch.board, batch.hands, batch.draw, batch.disc,
                              batch.info, batch.masks, batch.counts), before, strict=True):
            assert np.array_equal(got, want)
    with pytest.raises(ValueError, match="4, 6 or 8 seats"):
        KuglerBatch(2, 5)
    with pytest.raises(ValueError, match="seat 4"):
        batch.observe_seat(0, 4)
    _, movers2, _, _ = batch.step([-1, -1, legal[2]])  # −1: that game waits
    assert movers2[0] == movers[0] and movers2[2] == (movers[2] + 1) % 4


def test_a_seed_replays_the_same_batch() -> None:
    runs = []
    for seed in (11, 11, 12):
        batch = KuglerBatch(4, 6, strict_discard=True)
        masks, _ = batch.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = [batch.observe(), masks.copy()]
        for _ in range(200):
            masks, movers, rewards, dones = batch.step(random_actions(batch, rng))
            trace += [batch.observe(), masks.copy(), movers, rewards, dones]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(runs[0], runs[1], strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(runs[0], runs[2], strict=True))
