"""Kugler og Jokere's env on the compiled turn loop (research/kugler_env.py) against the
engine and the view codec (issue 32): along random games at 4, 6 and 8 seats with every
flag, every position (reshuffles included — drawn from the deal number as the engine
does), every seat's observation (research/kugler_encode.py's compiled encoder), the
mover's mask and the index → move map equal ``KuglerState`` and ``KuglerCodec`` on its
views; rewards at the end equal the engine's outcome."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spillebord.core.registry import load
from spillebord.games.kugler.state import KuglerState
from spillebord.research.codec import reward
from spillebord.research.kugler import KuglerCodec
from spillebord.research.kugler_env import KuglerEnv
from spillebord.research.table import kugler_env

GAME = load("kugler")
FLAGS = [{}, {"optional_home_entry": True}, {"strict_discard": True},
         {"finished_helps_partner": False}]


def check_equal(env: KuglerEnv, state: KuglerState, codec: KuglerCodec) -> dict[int, str]:
    """Everything the env shows at ``state``; its index → move text map."""
    made = env.state_
    assert made is not None
    assert GAME.format_position(made) == GAME.format_position(state)
    assert made.reshuffles == state.reshuffles and made.deal == state.deal
    for seat in range(state.seats):
        obs = env._observe(f"player_{seat}")["observation"]
        assert np.array_equal(obs, codec.observe(state.view(seat))), seat
    if state.to_move is None:
        assert env._to_move is None
        return {}
    assert env._to_move == state.to_move
    want = codec.actions(state.view(state.to_move), state.legal_actions())
    mask = env.action_mask(env.agent_selection)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(want)
    assert not mask.flags.writeable
    got = {i: str(m) for i, m in env._legal.items()}
    assert got == {i: str(m) for i, m in want.items()}
    return got


@pytest.mark.parametrize("seats", (4, 6, pytest.param(8, marks=pytest.mark.slow)))
@pytest.mark.parametrize("flags", FLAGS, ids=["plain", "optional", "strict", "no-help"])
def test_random_games_equal_the_engine_and_the_view_codec(seats: int,
                                                          flags: dict[str, bool]) -> None:
    codec = KuglerCodec(seats)
    env = kugler_env(seats, **flags)
    assert isinstance(env, KuglerEnv)
    rng = random.Random(seats * 10 + len(flags))
    reshuffles = 0
    for episode in range(2):
        deal = rng.randrange(10**6)
        env.reset(options={"deal": deal})
        state = GAME.new(deal=deal, seats=seats, **flags)
        for _ in range(260 if episode else 2000):
            legal = check_equal(env, state, codec)
            if not legal:
                for s in range(seats):
                    assert env.rewards[f"player_{s}"] == reward(state.outcome, s)
                    assert env.terminations[f"player_{s}"]
                break
            i = rng.choice(sorted(legal))
            state = state.apply(legal[i])
            env.step(i)
        reshuffles += state.reshuffles
    assert reshuffles >= 1  # a reshuffle was checked


def test_loading_a_position_and_going_on() -> None:
    """``_set`` loads any engine position (here one reached by the engine, written and
    read back as text); the env then plays on equal to the engine."""
    codec = KuglerCodec(4)
    env = kugler_env(4)
    rng = random.Random(7)
    state = GAME.new(deal=77, seats=4)
    for _ in range(150):
        state = state.apply(rng.choice(state.legal_actions()))
    state = GAME.parse_position(GAME.format_position(state))
    env.reset(options={"position": GAME.format_position(state)})
    for _ in range(150):
        legal = check_equal(env, state, codec)
        if not legal:
            break
        i = rng.choice(sorted(legal))
        state = state.apply(legal[i])
        env.step(i)


def test_auto_forced_and_flat_follow_the_engine() -> None:
    env = kugler_env(4, auto_forced=True, flat=True)
    codec = KuglerCodec(4)
    env.reset(options={"deal": 5})
    state = GAME.new(deal=5, seats=4)
    rng = random.Random(5)
    forced = 0
    for _ in range(300):
        while state.to_move is not None and len(state.legal_actions()) == 1:
            state = state.apply(state.legal_actions()[0])
            forced += 1
        if state.to_move is None:
            break
        legal = check_equal(env, state, codec)
        info = env.infos[env.agent_selection]["action_mask"]
        assert sorted(np.flatnonzero(info).tolist()) == sorted(legal)
        i = rng.choice(sorted(legal))
        state = state.apply(legal[i])
        env.step(i)
    assert env.forced_steps == forced


def test_an_illegal_index_changes_nothing() -> None:
    env = kugler_env(4)
    env.reset(seed=1)
    before = GAME.format_position(env.state_)  # type: ignore[arg-type]
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    for action in (bad, -1, env.codec.n_actions, None):
        with pytest.raises(ValueError, match="not legal"):
            env.step(action)
    assert GAME.format_position(env.state_) == before  # type: ignore[arg-type]
