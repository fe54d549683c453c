"""Vector envs (docs/research.md, "Vector envs"): ``TableVecEnv`` steps a batch of table
envs and equals the same envs stepped one by one; Gymnasium's ``make_vec`` batches the
solitaires, masks included; the solitaires start from a position text."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest

import spillebord.research  # noqa: F401  (registers the ids)
from spillebord.research.table import TableEnv, jomfru_env, kugler_env
from spillebord.research.vector import TableVecEnv


def _random_actions(masks: np.ndarray, rng: random.Random) -> list[int]:
    return [int(rng.choice(np.flatnonzero(row))) for row in masks]


@pytest.mark.parametrize(("make", "steps", "ends"), [
    (lambda: jomfru_env(3, auto_forced=True), 400, True),
    (lambda: kugler_env(4), 60, False),
], ids=["jomfru", "kugler"])
def test_batch_equals_single_envs(make: object, steps: int, ends: bool) -> None:
    vec = TableVecEnv(make, 3)  # type: ignore[arg-type]
    singles: list[TableEnv] = [make() for _ in range(3)]  # type: ignore[operator]
    for i, env in enumerate(singles):
        env.reset(seed=20 + i)
    obs, masks, movers = vec.reset(seed=20)
    rng = random.Random(0)
    finished = 0
    for _ in range(steps):
        for i, env in enumerate(singles):
            assert movers[i] == env._to_move
            assert np.array_equal(obs[i], env.observe(env.agent_selection)["observation"])
            assert np.array_equal(masks[i], env.observe(env.agent_selection)["action_mask"])
        actions = _random_actions(masks, rng)
        obs, masks, movers, rewards, dones = vec.step(actions)
        for i, env in enumerate(singles):
            env.step(actions[i])
            if env.agents and env.terminations[env.agent_selection]:
                want = [env.rewards[a] for a in env.possible_agents]
                assert dones[i] and list(rewards[i]) == want and sum(map(abs, want)) > 0
                finished += 1
                env.reset()
            else:
                assert not dones[i] and not rewards[i].any()
    if ends:
        assert finished > 0, "auto-reset was exercised"


def test_an_illegal_action_moves_no_env() -> None:
    vec = TableVecEnv(lambda: jomfru_env(4), 2)
    _, masks, _ = vec.reset(seed=1)
    before = [e.state_ for e in vec.envs]
    bad = int(np.flatnonzero(masks[1] == 0)[0])
    good = int(np.flatnonzero(masks[0])[0])
    with pytest.raises(ValueError, match="env 1"):
        vec.step([good, bad])
    assert [e.state_ for e in vec.envs] == before
    with pytest.raises(ValueError, match="2 actions"):
        vec.step([good])
    with pytest.raises(ValueError, match="num_envs"):
        TableVecEnv(lambda: jomfru_env(4), 0)


@pytest.mark.parametrize("env_id", ["spillebord/Posthus-v0", "spillebord/Studenter-v0"])
def test_gymnasium_make_vec_with_masks(env_id: str) -> None:
    vec = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="sync")
    obs, info = vec.reset(seed=4)
    n = vec.single_action_space.n  # type: ignore[attr-defined]
    assert obs.shape == (3, *vec.single_observation_space.shape)  # type: ignore[misc]
    rng = random.Random(4)
    ended = np.zeros(3, dtype=bool)
    resets = 0
    for _ in range(60):
        masks = info["action_mask"]
        assert masks.shape == (3, n)
        # a finished env's mask is empty; Gymnasium's next-step autoreset ignores its
        # action and resets it
        actions = np.array([int(rng.choice(np.flatnonzero(row))) if row.any() else 0
                            for row in masks])
        obs, _, term, trunc, info = vec.step(actions)
        assert not info.get("illegal_action", np.zeros(3, dtype=bool)).any()
        if ended.any():  # reset by this step: a fresh game with legal actions
            assert info["action_mask"][ended].any(axis=1).all()
            resets += int(ended.sum())
        ended = term | trunc
    assert resets > 0, "autoreset was exercised (random play resigns now and then)"
    vec.close()


@pytest.mark.parametrize("env_id", ["spillebord/Posthus-v0", "spillebord/Studenter-v0"])
def test_solitaire_starts_from_a_position_text(env_id: str) -> None:
    env = gymnasium.make(env_id)
    inner = env.unwrapped
    obs, info = env.reset(seed=8)
    rng = random.Random(8)
    for _ in range(10):
        legal = [i for i in np.flatnonzero(info["action_mask"])
                 if str(inner._legal[i]) != "resign"]  # type: ignore[attr-defined]
        obs, _, term, _, info = env.step(int(rng.choice(legal)))
        assert not term
    text = inner.game.format_position(inner.state_)  # type: ignore[attr-defined]
    again, info2 = gymnasium.make(env_id).reset(options={"position": text})
    assert np.array_equal(again, obs)
    assert np.array_equal(info2["action_mask"], info["action_mask"])
    with pytest.raises(ValueError, match="not both"):
        env.reset(options={"position": text, "deal": 2})
