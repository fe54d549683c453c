"""``greedy`` and ``advance``: the one-ply kugler bots.  Every legal action is scored
by the board it leads to (fastplay.py's evaluation: progress, marbles out and home,
safety from being hit, hitting opponents) minus the keep-value of the card it spends;
the best score wins, ties broken by the action text (deterministic).  ``advance`` counts
only its own team's progress (and beats greedy: docs/benchmarks/kugler.md).  Reads the board from a
determinization (the board is public; the hidden cards of the sample are never looked
at)."""

from __future__ import annotations

from typing import Any

import numpy as np

from spillebord.bots import Bot, Observation
from spillebord.bots.kugler.fastplay import ADVANCE, GREEDY, score_keys
from spillebord.games.kugler.kernel import RANK_OF_CODE
from spillebord.games.kugler.moves import Move
from spillebord.games.kugler.state import KuglerState


def team_of(state: KuglerState, seat: int) -> int:
    """The team of ``seat``: seats t and t + n/2 form team t."""
    return seat % (state.seats // 2)


def score_moves(state: KuglerState, moves: list[Move],
                wt: np.ndarray = GREEDY) -> list[float]:
    """The score of each move for the seat to move in ``state`` under the evaluation
    weights ``wt`` (default greedy's)."""
    colour = state.colour(state.turn)
    ranks = np.array([RANK_OF_CODE[m.card] for m in moves], dtype=np.int64)
    keys = np.array([m.key for m in moves], dtype=np.int64)
    scores: list[float] = score_keys(state._arr, state.seats,
                                     -1 if colour is None else colour,
                                     team_of(state, state.turn), ranks, keys,
                                     wt).tolist()
    return scores


def best_move(state: KuglerState, moves: list[Move], wt: np.ndarray = GREEDY) -> Move:
    """The first move (in text order) with the best score under ``wt``."""
    scores = score_moves(state, moves, wt)
    return moves[scores.index(max(scores))]


class GreedyBot(Bot):
    name = "greedy"
    weights = GREEDY

    def __init__(self, **options: Any) -> None:
        if options:
            raise TypeError(f"greedy takes no options, not {sorted(options)}")

    def decide(self, obs: Observation) -> Move:
        sample = obs.sample()
        assert isinstance(sample, KuglerState)
        return best_move(sample, obs.legal_as(Move), self.weights)


class AdvanceBot(GreedyBot):
    """``advance``: the move that brings the own team's marbles furthest (the greedy
    values with no danger), ignoring the other teams and the cards worth keeping."""

    name = "advance"
    weights = ADVANCE
