"""The learned baselines without torch (docs/research.md, "Learned baselines"): the
numpy policy file, the shipped agents as bots, the training env ``SeatEnv`` and the
match code of the published table.  Training itself (torch) is tested in tests/learned,
in the learning environment (``make learn-smoke``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from spillebord import bots, games
from spillebord.research.codec import codec_for, reward
from spillebord.research.learned import (
    LearnedBot,
    MlpPolicy,
    agent_path,
    load_bot,
    pettingzoo_policy,
    shipped,
)
from spillebord.research.learned_env import POTENTIALS, SeatEnv, jomfru_cards, kugler_progress
from spillebord.research.learned_eval import match, side_score, wilson
from spillebord.research.table import jomfru_env

GAMES = ["gammel_jomfru", "kugler"]


def _tiny(n_in: int, n_out: int, seed: int = 0) -> MlpPolicy:
    rng = np.random.default_rng(seed)
    return MlpPolicy([(rng.normal(size=(n_in, 8)).astype(np.float32), rng.normal(size=8)),
                      (rng.normal(size=(8, n_out)).astype(np.float32), rng.normal(size=n_out))],
                     {"game": "gammel_jomfru", "seats": 4})


def test_policy_file_round_trip(tmp_path: Path) -> None:
    policy = _tiny(5, 3)
    policy.save(tmp_path / "p.npz")
    back = MlpPolicy.load(tmp_path / "p.npz")
    x = np.random.default_rng(1).random((4, 5), dtype=np.float32)
    assert np.array_equal(back.logits(x), policy.logits(x))
    assert back.meta["game"] == "gammel_jomfru" and back.meta["layers"] == 2
    # by hand: tanh between the layers, linear at the end
    (w0, b0), (w1, b1) = policy.layers
    assert np.allclose(policy.logits(x[0]), np.tanh(x[0] @ w0 + b0) @ w1 + b1, atol=1e-6)


def test_policy_file_of_another_format_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, meta=np.frombuffer(json.dumps({"format": 99}).encode(), np.uint8))
    with pytest.raises(ValueError, match="not a learned policy"):
        MlpPolicy.load(bad)


def test_act_is_the_best_legal_action() -> None:
    policy = MlpPolicy([(np.eye(3, dtype=np.float32), np.zeros(3, np.float32))])
    obs = np.array([0.9, 0.1, 0.5], np.float32)
    assert policy.act(obs, np.array([1, 1, 1])) == 0
    assert policy.act(obs, np.array([0, 1, 1])) == 2  # the best logit is not legal
    with pytest.raises(ValueError):
        policy.act(obs, np.zeros(3))


@pytest.mark.parametrize("game", GAMES)
def test_shipped_agent_records_how_it_was_made(game: str) -> None:
    meta = shipped(game).meta
    assert meta["game"] == game and meta["seats"] == 4
    for key in ("seed", "steps", "games", "cpu_seconds", "versions", "recipe"):
        assert key in meta, key
    assert meta["steps"] > 0 and meta["checked_samples"] > 0
    assert agent_path(game).stat().st_size < 2_000_000  # a small file


@pytest.mark.parametrize("game", GAMES)
def test_shipped_agent_plays_legal_moves_to_the_end(game: str) -> None:
    bot = load_bot(game)
    state = games.load(game).new(deal=11, seats=4)
    rng = random.Random(0)
    opponent = bots.RandomBot()
    decided = 0
    while (seat := state.to_move) is not None:
        obs = bots.Observation(state, seat, rng)
        if seat % 2 == 0:
            action = bot.choose(obs)
            assert action in state.legal_actions()
            decided += len(state.legal_actions()) > 1
        else:
            action = opponent.choose(obs)
        state = state.apply(action)
    assert decided > 0 and state.outcome is not None


def test_load_bot_refuses_another_games_file() -> None:
    with pytest.raises(ValueError, match="for gammel_jomfru"):
        load_bot("kugler", path=agent_path("gammel_jomfru"))
    with pytest.raises(ValueError, match="inputs"):
        LearnedBot(shipped("gammel_jomfru"), codec_for("gammel_jomfru", 3))


def test_pettingzoo_policy_plays_the_table_env() -> None:
    act = pettingzoo_policy(shipped("gammel_jomfru"))
    env = jomfru_env(4)
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        index = act(obs, agent)
        assert obs["action_mask"][index] == 1
        env.step(index)


@pytest.mark.parametrize("game", GAMES)
def test_seat_env_asks_only_the_learner_where_it_decides(game: str) -> None:
    env = SeatEnv(game, 4, ("random", "L1"))
    codec = codec_for(game, 4)
    for episode in range(2):
        obs, _ = env.reset(seed=episode)
        partners = games.load(game).teams(4)
        assert env.learner in partners
        done, steps = False, 0
        while not done and steps < 400:
            state = env.state
            assert state is not None and state.to_move in env.learner
            assert len(state.legal_actions()) > 1  # forced moves are played for it
            view = state.view(state.to_move)
            assert np.array_equal(obs, codec.observe(view))  # the view only
            mask = env.action_masks()
            assert sorted(np.flatnonzero(mask)) == sorted(
                codec.actions(view, state.legal_actions()))
            obs, r, done, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
            assert not truncated
            steps += 1
        if done:
            assert state is not None
            final = env.state
            assert final is not None and final.outcome is not None
            assert r == info["result"] == reward(final.outcome, env.learner[0])
            assert env.results[-1] == r


def test_seat_env_is_seeded_and_refuses_illegal_actions() -> None:
    a, b = SeatEnv("gammel_jomfru", 4), SeatEnv("gammel_jomfru", 4)
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    assert np.array_equal(oa, ob) and a.learner == b.learner
    illegal = int(np.flatnonzero(~a.action_masks())[0])
    before = a.state
    with pytest.raises(ValueError, match="not legal"):
        a.step(illegal)
    assert a.state is before


@pytest.mark.parametrize("game", GAMES)
def test_shaping_is_potential_based(game: str) -> None:
    """Between the learner's decisions the shaping is Φ(next) − Φ(now), Φ = 0 at the end,
    so an episode's shaped rewards add up to the result − Φ(start)."""
    env = SeatEnv(game, 4, ("L1",), shaping=1.0)
    potential = POTENTIALS[game]
    for seed in range(3):
        env.reset(seed=seed)
        assert env.state is not None
        start = potential(env.state, env.learner[0])
        rng = random.Random(seed)
        total, done, info = 0.0, False, {}
        while not done:
            legal = np.flatnonzero(env.action_masks()).tolist()
            _, r, done, _, info = env.step(rng.choice(legal))
            total += r
        assert total == pytest.approx(info["result"] - start, abs=1e-9)
        assert -1 < start < 1


def test_potentials_read_the_public_table() -> None:
    jomfru = games.load("gammel_jomfru").new(deal=1, seats=4)
    assert jomfru_cards(jomfru, 0) == pytest.approx(0.0, abs=1 / 52)  # 13 cards each
    kugler = games.load("kugler").new(deal=1, seats=4)
    assert kugler_progress(kugler, 0) == 0.0  # every marble in its start area
    for state in (jomfru, kugler):  # a resample (other hidden cards) changes nothing
        other = state.resample(0, random.Random(5))
        for seat in range(4):
            assert POTENTIALS[state.game.key](other, seat) == \
                POTENTIALS[state.game.key](state, seat)


def test_side_score_and_wilson() -> None:
    assert side_score((1,), (0, 2, 3), (0, 2)) == 1.0  # gammel jomfru on the other side
    assert side_score((2,), (0, 1, 3), (0, 2)) == 0.0
    assert side_score((1, 3), (0, 2), (0, 2)) == 1.0  # kugler: the team won
    assert side_score((0, 2), (1, 3), (0, 2)) == 0.0
    assert side_score((), (), (0, 2)) == 0.5  # kugler's turn limit, teams tied
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)


def test_match_plays_each_deal_both_ways() -> None:
    seen: list[float] = []
    result = match("gammel_jomfru", agent_path("gammel_jomfru"), "random", 4, seed=3,
                   advance=seen.append)
    assert result.games == 4 and len(seen) == 4
    assert result.score == sum(seen) and 0 <= result.rate <= 1
    lo, hi = result.interval
    assert lo <= result.rate <= hi
    with pytest.raises(ValueError, match="even"):
        match("gammel_jomfru", agent_path("gammel_jomfru"), "random", 3)
