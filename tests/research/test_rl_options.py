"""The table envs' RL options (docs/research.md, "Options"): auto-played forced moves,
a start from a position text, flat observations and ``state()`` for centralised critics
— each passing PettingZoo's ``api_test`` and ``seed_test``, with the observations still
free of hidden cards."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from spillebord.core.protocol import State
from spillebord.research.table import TableEnv, jomfru_env, kugler_env

OPTIONS: list[dict[str, Any]] = [{"auto_forced": True}, {"flat": True},
                                 {"auto_forced": True, "flat": True}]


def _quiet_api_test(env: TableEnv, cycles: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # all-zero masks off turn: by design
        api_test(env, num_cycles=cycles)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 5])
def test_jomfru_api_and_seed_with_options(seats: int, options: dict[str, Any]) -> None:
    _quiet_api_test(jomfru_env(seats, **options), 60)
    seed_test(lambda: jomfru_env(seats, **options), num_cycles=40)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_kugler_api_and_seed_with_options(options: dict[str, Any]) -> None:
    _quiet_api_test(kugler_env(4, **options), 10)
    seed_test(lambda: kugler_env(4, **options), num_cycles=8)


@pytest.mark.parametrize("make", [jomfru_env, kugler_env], ids=["jomfru", "kugler"])
def test_parallel_api_with_auto_forced(make: Any) -> None:
    """PettingZoo's parallel_api_test through ``turn_based_aec_to_parallel`` (it samples
    from the observation's mask, so not with ``flat``: docs/research.md)."""
    parallel_api_test(turn_based_aec_to_parallel(make(4, auto_forced=True)), num_cycles=40)


def _play(env: TableEnv, seed: int) -> tuple[dict[str, float], int, State]:
    """A random playout (uniform among the legal indices); the summed rewards per agent,
    the decisions asked of agents and the final state."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    decisions = 0
    for agent in env.agent_iter(50_000):
        obs, rew, term, trunc, info = env.last()
        totals[agent] += float(rew)
        if term or trunc:
            env.step(None)
            continue
        mask = info["action_mask"] if env.flat else obs["action_mask"]
        legal = np.flatnonzero(mask)
        if env.auto_forced:
            assert len(legal) >= 2, "a forced move reached the agent"
        decisions += 1
        env.step(int(legal[rng.randrange(len(legal))]))
    assert env.state_ is not None and env.state_.is_over
    return totals, decisions, env.state_


@pytest.mark.parametrize("seats", [3, 4])
def test_auto_forced_skips_forced_moves_and_keeps_rewards(seats: int) -> None:
    forced_total = decisions_total = 0
    for seed in range(4):
        env = jomfru_env(seats, auto_forced=True)
        totals, decisions, final = _play(env, seed)
        outcome = final.outcome
        assert outcome is not None
        for seat, agent in enumerate(env.possible_agents):
            want = 1.0 if seat in outcome.winners else -1.0 if seat in outcome.losers else 0.0
            assert totals[agent] == want
        forced_total += env.forced_steps
        decisions_total += decisions
    # most Gammel Jomfru steps are forced: they no longer reach the agents
    assert forced_total > 3 * decisions_total > 0


def test_auto_forced_plays_what_the_plain_env_would() -> None:
    """Where the plain env's only choice is the forced one, both envs reach the same
    final position when the agents' choices agree."""
    plain, auto = jomfru_env(4), jomfru_env(4, auto_forced=True)
    plain.reset(seed=11)
    auto.reset(seed=11)
    rng = random.Random(11)
    for _ in range(5_000):
        assert plain.state_ is not None and auto.state_ is not None
        if plain.state_.is_over:
            break
        legal = sorted(plain._legal)
        if len(legal) == 1:
            plain.step(legal[0])
            continue
        assert plain.state_.position() == auto.state_.position()
        choice = legal[rng.randrange(len(legal))]
        plain.step(choice)
        auto.step(choice)
    assert plain.state_ is not None and plain.state_.is_over
    assert auto.state_ is not None and auto.state_.position() == plain.state_.position()
    assert auto.forced_steps > 0


@pytest.mark.parametrize("make", [jomfru_env, kugler_env], ids=["jomfru", "kugler"])
def test_start_from_a_position_text(make: Any) -> None:
    env = make(4)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(25):
        env.step(int(rng.choice(sorted(env._legal))))
    text = env.game.format_position(env.state_)
    other = make(4)
    other.reset(options={"position": text})
    assert other.state_ is not None and other.state_.position() == env.state_.position()
    assert other.agent_selection == env.agent_selection
    for agent in env.possible_agents:
        assert np.array_equal(other.observe(agent)["observation"],
                              env.observe(agent)["observation"])
    with pytest.raises(ValueError, match="seats"):
        make(6).reset(options={"position": text})
    with pytest.raises(ValueError, match="not both"):
        other.reset(options={"position": text, "deal": 1})
    with pytest.raises(ValueError):  # the game's NotationError
        other.reset(options={"position": "{not a position"})
    assert other.state_.position() == env.state_.position(), "refused: changed nothing"


def test_flat_observations_and_the_mask_in_info() -> None:
    env = jomfru_env(3, flat=True)
    env.reset(seed=4)
    assert env.observation_space("player_0").shape == (env.codec.size,)
    for _ in range(30):
        mover = env.agent_selection
        obs, _, _, _, info = env.last()
        assert isinstance(obs, np.ndarray) and env.observation_space(mover).contains(obs)
        mask = info["action_mask"]
        assert np.array_equal(mask, env.action_mask(mover))
        assert sorted(np.flatnonzero(mask)) == sorted(env._legal)
        for other in env.possible_agents:
            if other != mover:
                assert not env.infos[other]["action_mask"].any()
        env.step(int(np.flatnonzero(mask)[0]))


@pytest.mark.parametrize("make", [jomfru_env, kugler_env], ids=["jomfru", "kugler"])
def test_state_is_the_full_state_and_observations_stay_hidden(make: Any) -> None:
    """``state()`` changes when hidden cards are redrawn (it holds them: critics only),
    while every seat's observation does not (the leak test's check)."""
    env = make(4)
    env.reset(seed=6)
    rng = random.Random(6)
    changed = 0
    for step in range(60):
        state = env.state_
        assert state is not None
        full = env.state()
        assert env.state_space.contains(full)
        if step % 10 == 0:
            seat = state.to_move or 0
            other = state.resample(seat, rng)
            if other.position() != state.position():
                changed += not np.array_equal(env.codec.full_state(other), full)
            assert np.array_equal(env.codec.observe(other.view(seat)),
                                  env.codec.observe(state.view(seat)))
        env.step(int(rng.choice(sorted(env._legal))))
    assert changed > 0, "the full state holds the hidden cards"
