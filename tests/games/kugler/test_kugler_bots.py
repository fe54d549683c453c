"""The kugler bots: legal choices, the documented greedy evaluation, no peeking at
hidden cards, and ``spillebord simulate`` with them."""

from __future__ import annotations

import json
import random
from typing import Any

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
        after = state.apply(rng.choice(state.legal_actions()))
        assert isinstance(after, KuglerState)
        state = after
    return state


def level_bot(level: int) -> tuple[str, dict[str, Any]]:
    """Level ``level``'s bot and options without the wall-clock cap (a loaded machine
    must not change a decision inside a test)."""
    lv = bots.levels("kugler")[level]
    return lv.bot, {k: v for k, v in lv.options.items() if k != "seconds"}


@pytest.mark.parametrize(("name", "options"), [
    level_bot(1), level_bot(2), level_bot(3), ("ismcts", {"iterations": 6, "horizon": 3}),
    ("ismcts", {"iterations": 6, "value": "advance"}),
], ids=["level1", "level2", "level3", "ismcts-short", "ismcts-advance"])
@pytest.mark.slow
def test_choice_cannot_depend_on_hidden_cards(name: str, options: dict[str, Any]) -> None:
    bot = bots.load("kugler", name, **options)
    for deal in (1, 2, 3, 5, 8, 13):
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
    bot = bots.load("kugler", "ismcts", iterations=6, horizon=4)
    state = midgame(4, 20)
    rng = random.Random(2)
    for _ in range(12):
        seat = state.to_move
        assert seat is not None
        action = bot.choose(Observation(state, seat, rng))
        assert action in state.legal_actions()
        after = state.apply(action)
        assert isinstance(after, KuglerState)
        state = after


def test_ismcts_plays_the_winning_move() -> None:
    # seat 2 is finished; seat 0's last marble waits on its home entry t67 and the ace
    # brings it to h0.1: the team wins.  Every other card is usable too.
    state = position({0: ["h0.2", "h0.3", "h0.4", "h0.5", "t67"],
                      1: ["t3", "t30"], 3: ["t60"],
                      2: ["h2.1", "h2.2", "h2.3", "h2.4", "h2.5"]},
                     ["AS", "8C", "JK", "3C", "9D"])
    assert len(state.legal_actions()) > 4
    for seed in range(3):
        bot = bots.load("kugler", "ismcts", iterations=8)
        choice = bot.choose(Observation(state, 0, random.Random(seed)))
        assert str(choice) == "AS t67-h0.1"


def test_ismcts_hits_the_marble_about_to_win() -> None:
    # seat 3 is finished and seat 1's last marble stands on t11, two fields before its
    # home entry t13 (a 3 takes it to h1.1 and wins the game for seats 1 and 3): seat 0
    # sends it back to its start area with the 4
    state = position({0: ["t7"], 1: ["h1.2", "h1.3", "h1.4", "h1.5", "t11"],
                      3: ["h3.1", "h3.2", "h3.3", "h3.4", "h3.5"]},
                     ["4C", "TD", "2C", "3H", "5S"])
    bot = bots.load("kugler", "ismcts", iterations=40)
    choice = bot.choose(Observation(state, 0, random.Random(3)))
    assert str(choice) == "4C t7-t11"


@pytest.mark.parametrize("options", [{"iterations": 30, "screen": 3, "confidence": 2.0},
                                     {"iterations": 4, "screen": 0, "horizon": 2}])
def test_ismcts_options_play_legal_moves_and_keep_the_winning_one(
        options: dict[str, float]) -> None:
    state = position({0: ["h0.2", "h0.3", "h0.4", "h0.5", "t67"],
                      1: ["t3", "t30"], 3: ["t60"],
                      2: ["h2.1", "h2.2", "h2.3", "h2.4", "h2.5"]},
                     ["AS", "8C", "JK", "3C", "9D"])
    bot = bots.load("kugler", "ismcts", **options)
    assert str(bot.choose(Observation(state, 0, random.Random(1)))) == "AS t67-h0.1"
    state = midgame(9, 70)
    seat = state.to_move
    assert seat is not None
    assert bot.choose(Observation(state, seat, random.Random(1))) in state.legal_actions()


def test_ismcts_time_budget_gives_a_legal_move() -> None:
    state = midgame(6, 40)
    seat = state.to_move
    assert seat is not None
    bot = bots.load("kugler", "ismcts", seconds=0.01)
    assert bot.choose(Observation(state, seat, random.Random(1))) in state.legal_actions()


def test_ismcts_refuses_bad_budgets() -> None:
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", iterations=0)
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", seconds=-1.0)
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", width=0)
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", screen=-1)
    with pytest.raises(ValueError):
        bots.load("kugler", "ismcts", value="strongest")


def test_three_levels_greedy_advance_search() -> None:
    levels = bots.levels("kugler")
    assert sorted(levels) == [1, 2, 3] and bots.default_level("kugler") == 2
    assert [levels[n].bot for n in (1, 2, 3)] == ["greedy", "advance", "ismcts"]
    assert levels[3].options["seconds"] <= 1.0


def test_advance_runs_furthest_where_greedy_hits() -> None:
    state = position({0: ["t10"], 1: ["t15", "t30"]}, ["5H", "TD", "6C", "2C", "3C"])
    advance = bots.load("kugler", "advance").choose(Observation(state, 0, random.Random(1)))
    greedy = bots.load("kugler", "greedy").choose(Observation(state, 0, random.Random(1)))
    assert str(advance) == "TD t10-t20" and str(greedy) == "5H t10-t15"


def test_bots_are_registered() -> None:
    assert bots.names("kugler") == ["random", "advance", "greedy", "ismcts"]


def test_simulate_cli_with_kugler_bots() -> None:
    result = CliRunner().invoke(app, ["simulate", "kugler", "--games", "2", "--seats", "4",
                                      "--bots", "greedy,random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(data["results"]) == {"greedy", "random"}
    assert data["results"]["greedy"]["seat_games"] == 4


def test_values_for_the_analysis_cover_the_played_move_and_the_bots_choice() -> None:
    """Level 3's ``values`` (the post-game analysis, issue #33): the played move is
    valued even when the bot's pruning would not look at it, the best of the values is
    the move the bot chooses from the same random draws, the answer is the same from
    the same generator, and it cannot depend on the other seats' hidden cards (a true
    state with the same public board and own hand, other hands redrawn, gives the same
    values)."""
    name, options = level_bot(3)
    bot = bots.load("kugler", name, **options)
    checked = 0
    for deal in (3, 8, 21):
        state = midgame(deal, 40)
        legal = [str(m) for m in state.legal_actions()]
        if len(legal) < 7:  # the pruning keeps 5: the last legal move is outside it
            continue
        seat = state.turn
        played = legal[-1]
        values = bot.values(Observation(state, seat, random.Random(5)), legal, played)
        assert played in values and set(values) <= set(legal)
        choice = str(bot.choose(Observation(state, seat, random.Random(5))))
        assert max(values, key=lambda a: (values[a], a)) in (choice, played)
        assert choice in values
        again = bot.values(Observation(state, seat, random.Random(5)), legal, played)
        assert again == values
        other = state.resample(seat, random.Random(deal + 100))
        assert other.hands != state.hands
        assert bot.values(Observation(other, seat, random.Random(5)), legal, played) == values
        checked += 1
    assert checked
