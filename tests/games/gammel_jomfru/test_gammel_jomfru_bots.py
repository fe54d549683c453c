"""Bots: registered, legal, blind to hidden cards; the search bot's fast rollouts agree
with the engine; the heuristic follows its documented policy; ``simulate`` runs them."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from spillebord import bots
from spillebord.bots.gammel_jomfru.heuristic import HeuristicBot, fit_chance
from spillebord.bots.gammel_jomfru.rollout import Playout
from spillebord.bots.gammel_jomfru.search import SearchBot
from spillebord.cli.main import app
from spillebord.core.errors import NotationError
from spillebord.games.gammel_jomfru import GAME, JomfruState

from .helpers import position


def engine_random_playout(state: JomfruState, rng: random.Random) -> JomfruState:
    """Random choices drawn exactly as Playout(policy="random") draws them."""
    while not state.done:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
        nxt = state.apply(action)
        assert isinstance(nxt, JomfruState)
        state = nxt
    return state


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 8])
@pytest.mark.parametrize("nearest_first", [False, True])
def test_rollout_ends_every_game_like_the_engine(seats: int, nearest_first: bool) -> None:
    for deal in range(12):
        start = GAME.new(deal=deal, seats=seats, nearest_first=nearest_first)
        final = engine_random_playout(start, random.Random(deal))
        playout = Playout(start)
        ranking = playout.run(random.Random(deal), "random")
        outcome = final.outcome
        assert outcome is not None
        assert ranking == [g[0] for g in outcome.ranking]
        assert playout.turns == final.turns
        assert [playout.held(s) for s in range(seats)] == [final.cards_held(s)
                                                            for s in range(seats)]


def test_rollout_respects_the_turn_limit() -> None:
    start = GAME.new(deal=4, seats=3)
    short = JomfruState(GAME, 3, 4, start.flags, 0, start.down, start.up, start.centre,
                        None, (), 0, 6, start.recycled)
    final = engine_random_playout(short, random.Random(1))
    playout = Playout(short)
    assert playout.run(random.Random(1)) == [g[0] for g in final.outcome.ranking]  # type: ignore[union-attr]
    assert final.outcome is not None and final.outcome.reason == "turn_limit"


def test_bots_are_registered_and_take_options() -> None:
    assert bots.names("gammel_jomfru") == ["random", "heuristic", "search"]
    assert isinstance(bots.load("gammel_jomfru", "search", playouts=3), SearchBot)
    assert isinstance(bots.load("gammel_jomfru", "heuristic"), HeuristicBot)
    with pytest.raises(NotationError):
        bots.load("gammel_jomfru", "search", policy="psychic")


def midgame_states(seats: int, deal: int) -> list[JomfruState]:
    """States with a real choice, reached by random play."""
    rng = random.Random(deal)
    state = GAME.new(deal=deal, seats=seats)
    found = []
    while not state.done:
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(state)
        nxt = state.apply(rng.choice(legal))
        assert isinstance(nxt, JomfruState)
        state = nxt
    return found


@pytest.mark.parametrize("make", [HeuristicBot, lambda: SearchBot(playouts=6)])
def test_bot_choice_cannot_depend_on_hidden_cards(make: object) -> None:
    """Two states of one information set (the dealt face-down cards redistributed),
    the same rng seed: the same choice."""
    bot = make()  # type: ignore[operator]
    checked = cheats_differ = 0
    for deal in (1, 2, 3):
        for state in midgame_states(4, deal)[:6]:
            seat = state.turn
            twin = state.resample(seat, random.Random(deal + 100))
            assert twin.view(seat) == state.view(seat)
            if twin.down == state.down:
                continue
            a = bot.choose(bots.Observation(state, seat, random.Random(5)))
            b = bot.choose(bots.Observation(twin, seat, random.Random(5)))
            assert a == b and a in state.legal_actions()
            checked += 1
            cheats_differ += cheat(state) != cheat(twin)
    assert checked >= 10
    assert cheats_differ > 0  # the pairs really differ in what a cheat would read


def cheat(state: JomfruState) -> str:
    """A choice that reads the hidden cards: the control that the test can fail."""
    legal = state.legal_actions()
    return legal[sum(map(ord, "".join(state.down[state.turn][:1]))) % len(legal)]


def test_bots_play_legal_games_to_the_end() -> None:
    table = [bots.load("gammel_jomfru", "search", playouts=4), HeuristicBot(),
             bots.RandomBot()]
    rng = random.Random(3)
    state = GAME.new(deal=9, seats=3)
    while state.to_move is not None:
        obs = bots.Observation(state, state.to_move, rng)
        action = table[state.to_move].choose(obs)
        assert action in state.legal_actions()
        state = state.apply(action)
    assert state.outcome is not None


def test_heuristic_keeps_the_turn_going_then_loads_the_biggest_holder() -> None:
    # seat 0's face-down pile is recycled (public): its next card is known
    def table(next_card: str, filler: int) -> JomfruState:
        return position(seats=4, turn=0, down={0: [next_card]}, recycled=[0],
                        up={1: ["JD"], 2: ["KH"], 3: ["4C"]}, turned="QS",
                        centre=[["AS", "KS"]], filler=filler)

    state = table("TC", filler=1)
    assert state.legal_actions() == ["c1", "p1", "p2"]
    # QS on seat 1's JD would cover the only top the TC fits
    assert [fit_chance(state, a, ["TC"]) for a in ("c1", "p1", "p2")] == [1.0, 0.0, 1.0]
    assert fit_chance(state, "p1", ["TC", "TD", "9S", "AD"]) == 0.25  # an ace always fits
    obs = bots.Observation(state, 0, random.Random(1))
    assert HeuristicBot().choose(obs) == "p2"  # keeps the turn, and a player, not centre
    # 6H fits nowhere whatever happens: load the player holding the most cards
    for filler in (1, 2):
        state = table("6H", filler=filler)
        assert state.cards_held(filler) > 30
        obs = bots.Observation(state, 0, random.Random(1))
        assert HeuristicBot().choose(obs) == f"p{filler}"


def test_simulate_cli_runs_the_bots() -> None:
    result = CliRunner().invoke(app, ["simulate", "gammel_jomfru", "--games", "2",
                                      "--seats", "3", "--bots", "random,heuristic,search",
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert set(data["results"]) == {"random", "heuristic", "search"}
    assert sum(r["loss_rate"] * r["seat_games"] for r in data["results"].values()) == 2


def test_search_avoids_the_placement_that_blocks_going_out() -> None:
    # seat 0 holds QS (turned) and, known to all, TC: QS on seat 1's JD would bury the
    # only top the TC fits; in the centre or on seat 2's KH, seat 0 goes out at once
    state = position(seats=3, turn=0, down={0: ["TC"]}, recycled=[0],
                     up={1: ["JD"], 2: ["KH"]}, turned="QS", centre=[["AS", "KS"]],
                     filler=1)
    assert state.legal_actions() == ["c1", "p1", "p2"]
    bot = SearchBot(playouts=8)
    scores = bot.evaluate(bots.Observation(state, 0, random.Random(2)), state.legal_actions())
    assert scores["c1"] == scores["p2"] == 0.0 < scores["p1"]
    assert bot.choose(bots.Observation(state, 0, random.Random(2))) == "c1"
