"""The four games as OpenSpiel Python games pass OpenSpiel's own random-simulation check
(``pyspiel.random_sim_test``) at every seat count; the observation tensor is the
adapters' array of the player's view, and ``resample_from_infostate`` keeps it."""

from __future__ import annotations

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
