"""The bots' compiled half (bots/kugler/fastplay.py) against the engine and the
documented evaluation: the greedy playout policy picks what the greedy bot scores best,
playing in a playout keeps the engine's board and cards, and the evaluation gives the
documented numbers."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spillebord.bots.kugler import fastplay, selfplay
from spillebord.bots.kugler.greedy import score_moves, team_of
from spillebord.games.kugler import GAME, KuglerState, kernel

from .helpers import position


def walk(deal: int, seats: int, flags: dict[str, bool], steps: int,
         seed: int) -> list[KuglerState]:
    """The states of a game played by a random mix of random and greedy moves."""
    rng = random.Random(seed)
    state = GAME.new(deal=deal, seats=seats, **flags)
    out = [state]
    for _ in range(steps):
        if state.to_move is None:
            break
        moves = state.legal_actions()
        if rng.random() < 0.5:
            move = rng.choice(moves)
        else:
            scores = score_moves(state, moves)
            move = moves[scores.index(max(scores))]
        state = state._apply(move)
        out.append(state)
    return out


def value(state: KuglerState, team: int) -> float:
    g = kernel.GEO[state.seats]
    return float(fastplay.value_of(state._arr, g, team, np.zeros(state.seats // 2),
                                   fastplay.GREEDY))


def test_evaluation_gives_the_documented_numbers() -> None:
    # value on the track: 12 + 72 − (fields to the home entry) − 1, less 6% a threat.
    # Seat 0: t10 (12 + 72 − 57 − 1 = 26, no threat) and h0.2 (24 + 72 + 2·2 = 100);
    # seat 1: t20 (12 + 72 − 65 − 1 = 18), t10 is 10 behind it: 18 × 0.94 = 16.92
    state = position({0: ["t10", "h0.2"], 1: ["t20"]}, ["2C", "3C", "4C", "5C", "6C"])
    assert value(state, 0) == pytest.approx(126 - 16.92)
    assert value(state, 1) == pytest.approx(16.92 - 126)
    # seat 1 on t36 (34), seat 2's start field while seat 2 waits, t28 8 behind and t44
    # 8 ahead: 3 threats; seat 0's t28 (44) and t44 (60) have seat 1 8 ahead / 8 behind
    state = position({1: ["t36"], 0: ["t28", "t44"]}, ["2C", "3C", "4C", "5C", "6C"])
    assert value(state, 0) == pytest.approx((44 + 60) * 0.94 - 34 * 0.82)
    # 6 seats: three teams; a team's value minus the mean of the two others
    state = position({0: ["h0.1"], 1: ["h1.5"]}, ["2C", "3C", "4C", "5C", "6C"], seats=6)
    assert value(state, 0) == pytest.approx(24 + 108 + 2 - (24 + 108 + 10) / 2)


def test_weighted_terms_of_the_evaluation() -> None:
    g = kernel.GEO[4]
    vals = np.zeros(2)
    hand = ["2C", "3C", "4C", "5C", "6C"]
    # opp: the other team's value counts with its weight
    state = position({0: ["t10"], 1: ["t20"]}, hand)
    w = fastplay.weights(out=12, opp=0.5)
    assert fastplay.value_of(state._arr, g, 0, vals, w) == pytest.approx(26 - 9)


@pytest.mark.slow
def test_selfplay_pairs_give_each_weight_set_both_seats() -> None:
    # the same weights on both teams play each pair's two games identically: one win
    # each, so the score is exactly the number of pairs
    assert selfplay.duel(fastplay.GREEDY, fastplay.GREEDY, 0, 30) == 30
    wts = np.stack([fastplay.TUNED, fastplay.GREEDY])
    assert selfplay.game(4, wts, 5) in (0, 1)
    assert selfplay.game(4, wts, 5) == selfplay.game(4, wts, 5)


def test_tuned_weights_beat_greedy_in_one_ply_selfplay() -> None:
    # the documented tuning result (docs/benchmarks/kugler.md), on shuffles the tuning
    # never saw
    score = selfplay.duel(fastplay.TUNED, fastplay.GREEDY, 5_000_000, 300)
    assert score / 600 > 0.62


@pytest.mark.slow
@pytest.mark.parametrize("seats", [4, 6, 8])
def test_greedy_playout_policy_picks_what_the_greedy_bot_scores_best(seats: int) -> None:
    checked = 0
    for flags in ({}, {"optional_home_entry": True, "strict_discard": True}):
        for state in walk(3, seats, flags, 300, 6)[::3]:
            if state.to_move is None:
                continue
            moves = state.legal_actions()
            scores = score_moves(state, moves)
            g = kernel.GEO[seats]
            colour = state.colour(state.turn)
            hand = np.bincount([kernel.RANK_OF_CODE[c] for c in state.hands[state.turn]],
                               minlength=kernel.NRANKS)
            opts = np.empty(kernel.CAP, dtype=np.int64)
            roff = np.zeros(kernel.NRANKS + 1, dtype=np.int64)
            alias = np.empty((512, 2), dtype=np.int64)
            rank, key = fastplay.greedy_choice(
                state._arr, g, -1 if colour is None else colour,
                team_of(state, state.turn), hand, flags.get("optional_home_entry", False),
                flags.get("strict_discard", False), opts, roff, alias,
                state._arr.copy(), np.zeros(seats // 2), fastplay.GREEDY)
            chosen = [s for m, s in zip(moves, scores, strict=True)
                      if kernel.RANK_OF_CODE[m.card] == rank and m.key == key]
            assert chosen and chosen[0] == pytest.approx(max(scores), abs=1e-9)
            checked += 1
    assert checked > 60


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_playing_in_a_playout_matches_the_engine_turn_by_turn(seats: int) -> None:
    rng = random.Random(seats)
    state = GAME.new(deal=seats, seats=seats)
    g = kernel.GEO[seats]
    b = state._arr.copy()
    hands = np.zeros((seats, kernel.NRANKS), dtype=np.int64)
    for s in range(seats):
        for c in state.hands[s]:
            hands[s, kernel.RANK_OF_CODE[c]] += 1
    draw = np.array([kernel.RANK_OF_CODE[c] for c in reversed(state.draw)] + [0] * 200,
                    dtype=np.int64)
    disc = np.zeros(400, dtype=np.int64)
    counts = np.array([len(state.draw), 0], dtype=np.int64)
    reshuffled = False
    for _ in range(300):
        assert state.to_move is not None
        move = rng.choice(state.legal_actions())
        colour = state.colour(state.turn)
        fastplay.play(b, g, hands, draw, disc, counts, state.turn,
                      -1 if colour is None else colour, kernel.RANK_OF_CODE[move.card],
                      move.key)
        state = state._apply(move)
        assert tuple(b.tolist()) == state.board
        assert counts[0] == len(state.draw) and counts[1] == len(state.discard)
        if state.reshuffles:  # a playout reshuffles by its own generator: resync
            reshuffled = True
            hands[:] = 0
            for s in range(seats):
                for c in state.hands[s]:
                    hands[s, kernel.RANK_OF_CODE[c]] += 1
            draw[: len(state.draw)] = [kernel.RANK_OF_CODE[c] for c in reversed(state.draw)]
        want = [sorted(kernel.RANK_OF_CODE[c] for c in h) for h in state.hands]
        assert [sorted(np.repeat(np.arange(kernel.NRANKS), row).tolist())
                for row in hands] == want
    assert reshuffled


def test_a_greedy_playout_ends_when_a_team_wins() -> None:
    state = position({0: ["h0.2", "h0.3", "h0.4", "h0.5", "t67"],
                      2: ["h2.1", "h2.2", "h2.3", "h2.4", "h2.5"]},
                     ["AS", "4C", "6C", "2C", "3C"])
    g = kernel.GEO[4]
    b = state._arr.copy()
    hands = np.zeros((4, kernel.NRANKS), dtype=np.int64)
    for s in range(4):
        for c in state.hands[s]:
            hands[s, kernel.RANK_OF_CODE[c]] += 1
    draw = np.array([kernel.RANK_OF_CODE[c] for c in reversed(state.draw)],
                    dtype=np.int64)
    disc = np.zeros(140, dtype=np.int64)
    counts = np.array([len(draw), 0], dtype=np.int64)
    played = fastplay.run_greedy(b, g, hands, draw, disc, counts, 0, 0, 1200, 50,
                                 False, False, True, np.tile(fastplay.GREEDY, (2, 1)))
    assert played == 1 and kernel.finished_mask(b, 4) == 0b0101
