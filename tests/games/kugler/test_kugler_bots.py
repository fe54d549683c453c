"""The kugler bots: legal choices, the documented greedy evaluation, no peeking at
hidden cards, and ``spillebord simulate`` with them."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from spillebord import bots
from spillebord.bots import Observation
from spillebord.cli.main import app
from spillebord.games.kugler import GAME, KuglerState

from .helpers import position


def midgame(deal: int, steps: int) -> KuglerState:
    rng = random.Random(deal)
    state = GAME.new(deal=deal, seats=4)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "options"), [("greedy", {}), ("ismcts", {"iterations": 40})])
def test_choice_cannot_depend_on_hidden_cards(name: str, options: dict[str, int]) -> None:
    bot = bots.load("kugler", name, **options)
    for deal in (1, 2, 3):
        state = midgame(deal, 60 + deal)
        seat = state.to_move
        assert seat is not None
        twin = state.resample(seat, random.Random(deal + 100))
        assert twin.view(seat) == state.view(seat)
        assert any(twin.hands[s] != state.hands[s] for s in range(4) if s != seat)
        a = bot.choose(Observation(state, seat, random.Random(7)))
        b = bot.choose(Observation(twin, seat, random.Random(7)))
        assert str(a) == str(b) and a in state.legal_actions()


def test_greedy_hits_an_opponent_rather_than_stepping_beside_it() -> None:
    state = position({0: ["t10"], 1: ["t15", "t30"]}, ["5H", "4C", "6C", "2C", "3C"])
    choice = bots.load("kugler", "greedy").choose(Observation(state, 0, random.Random(1)))
    assert str(choice) == "5H t10-t15"


def test_greedy_takes_the_shortcut_home_with_an_eight() -> None:
    state = position({0: ["t2", "t40"]}, ["8D", "5C", "6C", "2C", "3C"])
    choice = bots.load("kugler", "greedy").choose(Observation(state, 0, random.Random(1)))
    assert str(choice) == "8D t2-t66"


def test_greedy_keeps_the_joker_when_a_plain_card_does_as_well() -> None:
    state = position({}, ["JK", "KS", "2C", "3C", "4C"])
    choice = bots.load("kugler", "greedy").choose(Observation(state, 0, random.Random(1)))
    assert str(choice) == "KS s0-t0"


def test_ismcts_plays_legal_moves_to_the_end_of_a_game_stretch() -> None:
    bot = bots.load("kugler", "ismcts", iterations=20)
    state = midgame(4, 20)
    rng = random.Random(2)
    for _ in range(12):
        seat = state.to_move
        assert seat is not None
        action = bot.choose(Observation(state, seat, rng))
        assert action in state.legal_actions()
        state = state.apply(action)


def test_ismcts_refuses_bad_budgets() -> None:
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", iterations=0)
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", seconds=-1.0)


def test_bots_are_registered() -> None:
    assert bots.names("kugler") == ["random", "greedy", "ismcts"]


def test_simulate_cli_with_kugler_bots() -> None:
    result = CliRunner().invoke(app, ["simulate", "kugler", "--games", "2", "--seats", "4",
                                      "--bots", "greedy,random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(data["results"]) == {"greedy", "random"}
    assert data["results"]["greedy"]["seat_games"] == 4
