"""The PettingZoo adapters pass PettingZoo's own checks (``api_test``, ``seed_test``) at
every seat count, and their action encoding is one-to-one with the engine's legal list
(docs/research.md).  Bounded: short api cycles, one playout per seat count."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from spillebord.research.table import TableEnv, jomfru_env, kugler_env

JOMFRU_SEATS = (2, 3, 4, 5, 6, 7, 8)
KUGLER_SEATS = (4, 6, 8)


def _quiet_api_test(env: TableEnv, cycles: int) -> None:
    with warnings.catch_warnings():
        # a seat not to move has an all-zero mask: PettingZoo warns, it is by design
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=cycles)


@pytest.mark.parametrize("seats", JOMFRU_SEATS)
def test_jomfru_api_and_seed(seats: int) -> None:
    _quiet_api_test(jomfru_env(seats), 60)
    seed_test(lambda: jomfru_env(seats), num_cycles=40)


@pytest.mark.parametrize("seats", KUGLER_SEATS)
def test_kugler_api_and_seed(seats: int) -> None:
    _quiet_api_test(kugler_env(seats), 15)
    seed_test(lambda: kugler_env(seats), num_cycles=10)


def _playout(env: TableEnv, seed: int, limit: int) -> int:
    """A masked random playout checking mask == engine legal list at every step;
    returns the steps taken."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter(limit):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = env.state_
        assert state is not None and env.possible_agents[state.to_move or 0] == agent
        mask = obs["action_mask"]
        legal = state.legal_actions()
        assert mask.sum() == len(legal) > 0
        decoded = sorted(str(env._legal[i]) for i in np.flatnonzero(mask))
        assert decoded == sorted(str(a) for a in legal)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return steps


@pytest.mark.parametrize("seats", JOMFRU_SEATS)
def test_jomfru_mask_is_the_legal_list(seats: int) -> None:
    env = jomfru_env(seats, nearest_first=seats % 2 == 1)
    _playout(env, seats, 3_000)
    assert not env.agents, "the game ended and every agent was removed"


@pytest.mark.parametrize(("seats", "flags"), [
    (4, {"optional_home_entry": True}),
    (6, {}),
    (8, {"strict_discard": True}),
])
def test_kugler_mask_is_the_legal_list(seats: int, flags: dict[str, bool]) -> None:
    assert _playout(kugler_env(seats, **flags), seats, 1_200) > 0


def test_rewards_come_from_the_outcome() -> None:
    env = kugler_env(4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(20_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = env.state_.outcome if env.state_ else None
    assert outcome is not None
    for seat, agent in enumerate(env.possible_agents):
        want = 1.0 if seat in outcome.winners else -1.0 if seat in outcome.losers else 0.0
        assert totals[agent] == want
    assert totals["player_0"] == totals["player_2"], "partners share the team reward"


def test_bad_input_is_refused_and_changes_nothing() -> None:
    env = jomfru_env(3)
    env.reset(seed=5)
    before = env.state_
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state_ is before
    with pytest.raises(ValueError, match="seats"):
        jomfru_env(9)
    with pytest.raises(ValueError, match="flag"):
        kugler_env(4, no_such_flag=True)


@pytest.mark.parametrize("make", [jomfru_env, kugler_env], ids=["jomfru", "kugler"])
def test_render_test(make: object, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test (it asks for "human" first, then every declared mode):
    "human" prints the position text and returns None, "ansi" returns it."""
    render_test(make)
    printed = capsys.readouterr().out
    assert "deal" in printed  # the position texts, printed by "human"
    env = jomfru_env(3, render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == env.game.format_position(env.state_)


def test_shared_masks_are_read_only() -> None:
    """As documented: a mask may be shared between steps, so it is read-only."""
    env = jomfru_env(4)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="read-only"):
        mask[0] = 1
