"""The fast playout engine of the ismcts bot (bots/kugler/rollout.py) against the real
game: the same legal (card, resulting board) sets, the same turn bookkeeping, the same
greedy choices and evaluation as the greedy bot."""

from __future__ import annotations

import random

import pytest

from spillebord.bots.kugler.evaluate import relative, team_of, team_scores
from spillebord.bots.kugler.fasteval import Evaluator
from spillebord.bots.kugler.greedy import score_moves
from spillebord.bots.kugler.rollout import Sim, rank_of
from spillebord.games.kugler import GAME, KuglerState
from spillebord.games.kugler.moves import apply_steps

from .helpers import position


def walk(deal: int, seats: int, flags: dict[str, bool], steps: int,
         seed: int) -> list[KuglerState]:
    """The states of a game played by a random mix of random and greedy-ish moves."""
    rng = random.Random(seed)
    state = GAME.new(deal=deal, seats=seats, **flags)
    out = [state]
    for _ in range(steps):
        if state.to_move is None:
            break
        moves = state.legal_actions()
        if rng.random() < 0.5:
            move = rng.choice(moves)
        else:  # move marbles forward: more crowded, later positions
            scores = score_moves(state, moves)
            move = moves[max(range(len(moves)), key=scores.__getitem__)]
        after = state.apply(move)
        assert isinstance(after, KuglerState)
        state = after
        out.append(state)
    return out


def engine_results(state: KuglerState) -> set[tuple[str, tuple[int, ...]]]:
    colour = state.colour(state.turn)
    out = set()
    for m in state.legal_actions():
        board = state.board
        if m.steps:  # the engine's own board update, as state.apply does it
            assert colour is not None
            board = apply_steps(board, state.geo, colour, m.steps)
        out.add((rank_of(m.card), board))
    return out


def sim_results(state: KuglerState) -> set[tuple[str, tuple[int, ...]]]:
    sim = Sim(state, random.Random(0))
    colour = sim.colour(sim.turn)
    out = set()
    for rank, steps in sim.options(colour, sim.hands[sim.turn]):
        board = tuple(sim.board)
        if steps:
            assert colour is not None
            board = tuple(sim.result(colour, steps))
        out.add((rank, board))
    return out


FLAGS = [{}, {"optional_home_entry": True}, {"strict_discard": True},
         {"finished_helps_partner": False}]


@pytest.mark.parametrize("seats", [4, 6, 8])
@pytest.mark.parametrize("flags", FLAGS)
def test_options_give_the_engines_result_set(seats: int, flags: dict[str, bool]) -> None:
    checked = 0
    for deal in range(3):
        for state in walk(deal, seats, flags, 400 if seats == 4 else 250, deal + seats)[::3]:
            if state.to_move is None:
                continue
            assert sim_results(state) == engine_results(state)
            checked += 1
    assert checked > 150


def test_options_on_crowded_boards_with_sevens_and_jokers() -> None:
    rng = random.Random(5)
    places = [f"t{i}" for i in range(72)]
    for _ in range(300):
        fields = rng.sample(places, 14)
        marbles = {s: fields[3 * s : 3 * s + 3] for s in range(4)}
        marbles[0] += rng.sample(["h0.1", "h0.2", "h0.3", "h0.4", "h0.5"], 2)
        marbles[2] += rng.sample(["h2.3", "h2.5"], rng.randrange(3))
        hand = rng.sample(["7C", "7H", "JK", "8D", "AS", "KS", "4C", "5S", "TC", "JK"], 5)
        for turn in (0, 1):
            state = position(marbles, hand, turn=turn)
            assert sim_results(state) == engine_results(state)


def test_a_finished_seat_moves_the_partners_marbles_in_the_sim() -> None:
    state = position({0: ["h0.1", "h0.2", "h0.3", "h0.4", "h0.5"], 2: ["t40"]},
                     ["5H", "4C", "6C", "2C", "3C"])
    sim = Sim(state, random.Random(0))
    assert sim.colour(0) == 2
    assert sim_results(state) == engine_results(state)


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_playing_in_the_sim_matches_the_engine_turn_by_turn(seats: int) -> None:
    rng = random.Random(seats)
    reshuffled = False
    state = GAME.new(deal=seats, seats=seats)
    sim = Sim(state, random.Random(1))
    for _ in range(300):
        if state.to_move is None:
            break
        move = rng.choice(state.legal_actions())
        sim.play(rank_of(move.card), move.steps)
        after = state.apply(move)
        assert isinstance(after, KuglerState)
        state = after
        assert tuple(sim.board) == state.board
        assert sim.turn == state.turn and sim.turns == state.turns
        if state.reshuffles == 0:  # the sim reshuffles by its own rng (a chance event)
            assert [sorted(h) for h in sim.hands] == [sorted(rank_of(c) for c in h)
                                                      for h in state.hands]
        else:
            assert [len(h) for h in sim.hands] == [len(h) for h in state.hands]
            sim.hands = [[rank_of(c) for c in h] for h in state.hands]
            reshuffled = True
        assert sim.over == (state.outcome is not None)
    assert reshuffled or state.outcome is not None


def test_a_game_won_in_the_sim_is_over_with_the_right_team() -> None:
    state = position({0: ["h0.2", "h0.3", "h0.4", "h0.5", "t67"],
                      2: ["h2.1", "h2.2", "h2.3", "h2.4", "h2.5"]},
                     ["AS", "4C", "6C", "2C", "3C"])
    sim = Sim(state, random.Random(0))
    sim.play("A", ((67, state.geo.home_base[0]),))
    assert sim.over and sim.winner_team() == 0
    after = state.apply("AS t67-h0.1")
    assert after.outcome is not None and after.outcome.winners == (0, 2)


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_fast_evaluation_equals_the_documented_one(seats: int) -> None:
    ev = Evaluator.of(seats)
    for state in walk(1, seats, {}, 300, 3)[::2]:
        for seat in range(seats):
            team = team_of(state.geo, seat)
            want = relative(team_scores(state.board, state.geo), team)
            assert ev.relative(state.board, team) == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_incremental_option_values_equal_full_evaluation(seats: int) -> None:
    checked = 0
    for state in walk(2, seats, {}, 300, 4)[::2]:
        if state.to_move is None:
            continue
        sim = Sim(state, random.Random(0))
        colour = sim.colour(sim.turn)
        if colour is None:
            continue
        opts = sim.options(colour, sim.hands[sim.turn])
        team = sim.ev.team[sim.turn]
        values = sim.ev.after(sim.board, team, colour, opts)
        for (_, steps), value in zip(opts, values, strict=True):
            board = sim.result(colour, steps) if steps else sim.board
            assert value == pytest.approx(sim.ev.relative(board, team), abs=1e-9)
            checked += 1
    assert checked > 500


def test_sim_greedy_picks_what_the_greedy_bot_scores_best() -> None:
    for state in walk(3, 4, {}, 400, 6)[::2]:
        if state.to_move is None:
            continue
        moves = state.legal_actions()
        scores = score_moves(state, moves)
        sim = Sim(state, random.Random(0))
        rank, steps = sim.greedy_option()
        colour = sim.colour(sim.turn)
        board = tuple(sim.result(colour, steps)) if steps and colour is not None \
            else state.board
        mine = [s for m, s in zip(moves, scores, strict=True)
                if rank_of(m.card) == rank and (tuple(sim.result(colour, m.steps))
                                                if m.steps and colour is not None
                                                else state.board) == board]
        assert mine and max(mine) == pytest.approx(max(scores), abs=1e-9)
