"""No side channel around the observation arrays: nothing a seat can read before the
game ends — observations, masks, infos, OpenSpiel's observation string and tensor —
holds the deal number (which rebuilds every hidden card and the future shuffles).

Checked by a twin: the same position with another deal number (``with_deal``) must
read exactly the same for every seat along random playouts of every interface; the
deal number shows only in the final Gymnasium info. OpenSpiel's information-state
methods raise (the ``GameType`` says they are not provided) instead of answering with
the observation, which is not perfect recall."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from tests.conformance import with_deal

from spillebord.core.protocol import State
from spillebord.research import openspiel as spiel
from spillebord.research.solitaire import SolitaireEnv, posthus_env, studenter_env
from spillebord.research.table import TableEnv, jomfru_env, kugler_env

STEPS = 120


def twin(state: State) -> State:
    """The same position under another deal number."""
    game = state.game
    other = game.parse_position(with_deal(game.format_position(state), state.deal + 1),
                                **state.flags)
    assert other.deal != state.deal
    return other


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and np.array_equal(a, b)
    return bool(a == b)


@pytest.mark.parametrize("make", [lambda: jomfru_env(4), lambda: jomfru_env(2),
                                  lambda: kugler_env(4), lambda: kugler_env(6)],
                         ids=["gj4", "gj2", "kugler4", "kugler6"])
def test_table_envs_show_no_deal_number(make: Any) -> None:
    env: TableEnv = make()
    other: TableEnv = make()
    env.reset(seed=3)
    other.reset(seed=3)
    rng = random.Random(3)
    for _ in range(STEPS):
        assert env.state_ is not None
        if env.state_.is_over:
            break
        other._set(twin(env.state_))
        for agent in env.agents:
            assert same(env.observe(agent), other.observe(agent)), agent
            assert env.infos[agent] == {}
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))


@pytest.mark.parametrize("make", [lambda: jomfru_env(4, flat=True, auto_forced=True),
                                  lambda: kugler_env(4, flat=True)],
                         ids=["gj4-flat-forced", "kugler4-flat"])
def test_flat_envs_infos_hold_only_the_own_mask(make: Any) -> None:
    """With ``flat=True`` the infos carry the mask — the same under another deal number,
    the mover's own legal list, all zeros for everyone else."""
    env: TableEnv = make()
    other: TableEnv = make()
    env.reset(seed=4)
    other.reset(seed=4)
    rng = random.Random(4)
    for _ in range(STEPS):
        assert env.state_ is not None
        if env.state_.is_over:
            break
        other._advance(twin(env.state_))
        for agent in env.agents:
            assert same(env.observe(agent), other.observe(agent)), agent
            assert same(env.infos[agent], other.infos[agent]), agent
            assert set(env.infos[agent]) == {"action_mask"}
            assert env.infos[agent]["action_mask"].any() == (agent == env.agent_selection)
        mask = env.infos[env.agent_selection]["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))


@pytest.mark.parametrize("make", [posthus_env, studenter_env], ids=["posthus", "studenter"])
def test_solitaire_infos_show_the_deal_only_at_the_end(make: Any) -> None:
    env: SolitaireEnv = make()
    other: SolitaireEnv = make()
    obs, info = env.reset(options={"deal": 20})
    rng = random.Random(20)
    for _ in range(800):
        assert env.state_ is not None
        if env.state_.is_over:
            break
        assert set(info) == {"action_mask"}, info
        assert np.array_equal(other._set(twin(env.state_)), obs)
        assert same(other._info(), info)
        legal = [int(i) for i in np.flatnonzero(info["action_mask"])]
        # resigning ends a game at once: rather play on
        choice = rng.choice([i for i in legal if i != 1 or len(legal) == 1]
                            if make is posthus_env else [i for i in legal if i] or legal)
        obs, _, _, _, info = env.step(choice)
    assert env.state_ is not None and env.state_.is_over
    assert info["deal"] == 20  # the game is over: nothing is hidden any more


CASES = [("gammel_jomfru", {"players": 3}), ("kugler", {"players": 4}),
         ("posthus", {}), ("studenter", {})]


@pytest.mark.parametrize(("key", "params"), CASES, ids=[k for k, _ in CASES])
def test_openspiel_observations_show_no_deal_number(key: str,
                                                    params: dict[str, Any]) -> None:
    game = pyspiel.load_game(spiel.PREFIX + key, params)
    state = game.new_initial_state()
    state.apply_action(7)
    other = game.new_initial_state()
    other.apply_action(8)
    rng = random.Random(7)
    for _ in range(STEPS):
        if state.is_terminal():
            break
        assert state.inner is not None
        other._set(twin(state.inner), state.steps)
        for player in range(game.num_players()):
            assert state.observation_string(player) == other.observation_string(player)
            assert state.observation_tensor(player) == other.observation_tensor(player)
        assert state.legal_actions() == other.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("key", "params"), CASES, ids=[k for k, _ in CASES])
def test_openspiel_information_state_is_not_the_observation(
        key: str, params: dict[str, Any]) -> None:
    """Not perfect recall, so not provided: the GameType says so and the methods raise
    (CFR, NFSP or rl_environment's default would otherwise run on the observation)."""
    game = pyspiel.load_game(spiel.PREFIX + key, params)
    kind = game.get_type()
    assert not kind.provides_information_state_string
    assert not kind.provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(2)
    with pytest.raises(NotImplementedError, match="perfect recall"):
        state.information_state_string(0)
    with pytest.raises(NotImplementedError, match="perfect recall"):
        state.information_state_tensor(0)


def test_rl_environment_uses_the_observation() -> None:
    """OpenSpiel's rl_environment reads the GameType and takes the observation tensor
    (no information state is provided)."""
    from open_spiel.python import rl_environment

    game = pyspiel.load_game(spiel.PREFIX + "gammel_jomfru", {"players": 3})
    step = rl_environment.Environment(game).reset()
    assert len(step.observations["info_state"][0]) == game.observation_tensor_size()
