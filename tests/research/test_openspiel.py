"""The four games as OpenSpiel Python games pass OpenSpiel's own random-simulation check
(``pyspiel.random_sim_test``) at every seat count; the observation tensor is the
adapters' array of the player's view, and ``resample_from_infostate`` keeps it."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pyspiel
import pytest

from spillebord.research import openspiel as spiel

CASES = [
    *(("gammel_jomfru", {"players": n}, 2) for n in range(2, 9)),
    ("gammel_jomfru", {"players": 4, "nearest_first": True}, 2),
    *(("kugler", {"players": n}, 1) for n in (4, 6, 8)),
    ("kugler", {"players": 4, "optional_home_entry": True, "strict_discard": True}, 1),
    ("posthus", {}, 3),
    ("posthus", {"open_gaps": True}, 3),
    ("studenter", {}, 3),
]


@pytest.mark.parametrize(("key", "params", "sims"), CASES,
                         ids=[f"{k}-{p}" for k, p, _ in CASES])
def test_random_sim(key: str, params: dict[str, object], sims: int) -> None:
    game = pyspiel.load_game(spiel.PREFIX + key, params)
    assert game.num_players() == params.get("players", 1)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize(("key", "params", "sims"), CASES,
                         ids=[f"{k}-{p}" for k, p, _ in CASES])
def test_random_sim_serialized(key: str, params: dict[str, object], sims: int) -> None:
    """OpenSpiel's check with ``serialize=True``: every state goes through
    ``serialize_game_and_state`` (a pickle of the Python state) and back, and play goes
    on from the copy; needs a state to survive pickle with its game."""
    game = pyspiel.load_game(spiel.PREFIX + key, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("key", spiel.codec_keys())
def test_states_survive_pickle_and_deepcopy(key: str) -> None:
    """A pickled or deep-copied state (OpenSpiel's and the engine's) plays on like the
    original: same position text, same legal actions, same game object."""
    game = pyspiel.load_game(spiel.PREFIX + key)
    state = game.new_initial_state()
    state.apply_action(5)
    rng = random.Random(5)
    for _ in range(3):
        state.apply_action(rng.choice(state.legal_actions()))
    inner = state.inner
    assert inner is not None
    for copy_of in (lambda x: pickle.loads(pickle.dumps(x)), copy.deepcopy):
        engine = copy_of(inner)
        assert engine.game is inner.game
        assert engine.position() == inner.position()
        assert [str(a) for a in engine.legal_actions()] == [str(a) for a in inner.legal_actions()]
        spiel_copy = copy_of(state)
        assert str(spiel_copy) == str(state)
        assert spiel_copy.legal_actions() == state.legal_actions()
        action = state.legal_actions()[0]
        assert str(spiel_copy.child(action)) == str(state.child(action))


@pytest.mark.parametrize("key", ["gammel_jomfru", "kugler"])
def test_game_type_and_hidden_information(key: str) -> None:
    game = pyspiel.load_game(spiel.PREFIX + key, {"players": 4, "deals": 10})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 10
    state.apply_action(3)
    rng = random.Random(1)
    for _ in range(60):
        player = state.current_player()
        inner = state.inner
        assert inner is not None and inner.deal == 3
        ours = np.array(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(ours, state.g.codec.observe(inner.view(player)))
        for _ in range(2):
            other = state.resample_from_infostate(player, rng.random)
            assert np.array_equal(np.array(other.observation_tensor(player)), ours)
            assert other.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="seats"):
        pyspiel.load_game(spiel.PREFIX + "kugler", {"players": 5})
