"""Spillebord's bots and levels as OpenSpiel bots and as env policies
(``spillebord.research.agents``): OpenSpiel's own ``evaluate_bots`` plays them, next to
OpenSpiel's bots, with no glue; PettingZoo and Gymnasium loops call them as policies."""

from __future__ import annotations

import gymnasium
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.bots.uniform_random import UniformRandomBot

import spillebord.research  # noqa: F401  (registers the Gymnasium ids)
from spillebord import games
from spillebord.research import agents
from spillebord.research import openspiel as spiel
from spillebord.research.table import jomfru_env, kugler_env

QUICK_SEARCH = "search:playouts=2:seconds=0.02"


def test_evaluate_bots_plays_spillebord_bots_and_openspiel_bots_together() -> None:
    game = pyspiel.load_game(spiel.PREFIX + "gammel_jomfru", {"players": 4})

    def lineup(third: str) -> list[pyspiel.Bot]:
        ours = [agents.spiel_bot(game, p, spec, seed=p)
                for p, spec in enumerate(["random", "L1", third])]
        return [*ours, UniformRandomBot(3, np.random.RandomState(3))]

    returns = evaluate_bots(game.new_initial_state(), lineup(QUICK_SEARCH),
                            np.random.RandomState(0))
    assert len(returns) == 4 and returns.count(-1.0) == 1  # one gammel jomfru
    # seeded bots without a time budget play the same game again
    one, two = game.new_initial_state(), game.new_initial_state()
    evaluate_bots(one, lineup("random"), np.random.RandomState(1))
    evaluate_bots(two, lineup("random"), np.random.RandomState(1))
    assert one.is_terminal() and one.history() == two.history()


def test_evaluate_bots_plays_kugler_levels() -> None:
    game = pyspiel.load_game(spiel.PREFIX + "kugler", {"players": 4})
    returns = evaluate_bots(game.new_initial_state(),
                            agents.spiel_bots(game, ["L1", "L2", "L1", "L2"]),
                            np.random.RandomState(1))
    assert sorted(returns) in ([-1.0, -1.0, 1.0, 1.0], [0.0] * 4)
    assert returns[0] == returns[2] and returns[1] == returns[3]  # partners share


@pytest.mark.parametrize("key", games.ready_keys())
def test_every_bot_and_level_is_a_pyspiel_bot(key: str) -> None:
    game = pyspiel.load_game(spiel.PREFIX + key)
    assert agents.specs(key)[0] == "random"
    if games.manifest(key).levels:
        assert {"L1", "L2", "L3"} <= set(agents.specs(key))
    for spec in agents.specs(key):
        state = game.new_initial_state()
        state.apply_action(4)
        while len(state.legal_actions()) < 2:  # a forced move is no test of a bot
            state.apply_action(state.legal_actions()[0])
        bot = agents.spiel_bot(game, state.current_player(), spec)
        assert isinstance(bot, pyspiel.Bot)
        assert bot.step(state) in state.legal_actions(), spec


def test_a_bot_refuses_another_players_turn() -> None:
    game = pyspiel.load_game(spiel.PREFIX + "gammel_jomfru", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(1)
    with pytest.raises(ValueError, match="not player 1's turn"):
        agents.spiel_bot(game, 1).step(state)
    with pytest.raises(ValueError, match="bots"):
        agents.spiel_bots(game, ["random"])


@pytest.mark.parametrize(("make", "lineup"), [
    (lambda: jomfru_env(3), ["L1", "random", QUICK_SEARCH]),
    (lambda: kugler_env(4), ["L1", "L2", "random", "L1"]),
], ids=["jomfru", "kugler"])
def test_policies_play_a_pettingzoo_game_to_the_end(make: object, lineup: list[str]) -> None:
    env = make()  # type: ignore[operator]
    env.reset(seed=5)
    policies = {a: agents.policy(env, spec, seed=i)
                for i, (a, spec) in enumerate(zip(env.possible_agents, lineup, strict=True))}
    for agent in env.agent_iter(5_000):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else policies[agent](obs, agent))
    assert not env.agents and env.state_.is_over


def test_a_policy_plays_a_gymnasium_solitaire() -> None:
    env = gymnasium.make("spillebord/Studenter-v0")
    obs, info = env.reset(options={"deal": 3})
    play = agents.policy(env, "random", seed=1)
    for _ in range(50):
        action = play(obs)
        assert info["action_mask"][action] == 1
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    with pytest.raises(TypeError, match="Spillebord env"):
        agents.policy(gymnasium.make("CartPole-v1"))
