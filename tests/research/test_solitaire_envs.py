"""The Gymnasium solitaire environments pass Gymnasium's ``check_env``, are made by
their registered ids with flags as keyword arguments, and mask exactly the engine's
legal actions (docs/research.md)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import spillebord.research  # noqa: F401  (registers the ids)
from spillebord.research.solitaire import SolitaireEnv

IDS = ("spillebord/Posthus-v0", "spillebord/Studenter-v0")


@pytest.mark.parametrize("render_mode", [None, "ansi"])
@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str, render_mode: str | None) -> None:
    env = gymnasium.make(env_id, render_mode=render_mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every Gymnasium warning fails the test
        check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize(("env_id", "flags"), [
    ("spillebord/Posthus-v0", {"open_gaps": True}),
    ("spillebord/Posthus-v0", {}),
    ("spillebord/Studenter-v0", {}),
])
def test_mask_is_the_legal_list(env_id: str, flags: dict[str, bool]) -> None:
    env = gymnasium.make(env_id, **flags)
    inner = env.unwrapped
    assert isinstance(inner, SolitaireEnv) and dict(inner.flags) == {
        **{f.name: f.default for f in inner.game.flag_specs}, **flags}
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=7)
    for _ in range(400):
        assert env.observation_space.contains(obs)
        state = inner.state_
        assert state is not None
        mask = info["action_mask"]
        assert sorted(str(inner._legal[i]) for i in np.flatnonzero(mask)) == \
            sorted(str(a) for a in state.legal_actions())
        legal = [i for i in np.flatnonzero(mask) if str(inner._legal[i]) != "resign"]
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal or np.flatnonzero(mask))))
        if term or trunc:
            outcome = inner.state_.outcome if inner.state_ else None
            assert term and outcome is not None and reward == outcome.bonus
            break


def test_an_illegal_index_changes_nothing() -> None:
    env = gymnasium.make("spillebord/Posthus-v0")
    obs, info = env.reset(options={"deal": 1})
    assert "deal" not in info  # only at the end (test_side_channels.py)
    assert env.unwrapped.state_.deal == 1  # type: ignore[attr-defined]
    before = env.unwrapped.state_  # type: ignore[attr-defined]
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, term, _, info2 = env.step(bad)
    assert info2["illegal_action"] and reward == 0.0 and not term
    assert env.unwrapped.state_ is before  # type: ignore[attr-defined]
    assert np.array_equal(obs, again)
    with pytest.raises(ValueError, match="flag"):
        gymnasium.make("spillebord/Studenter-v0", no_such_flag=True)
