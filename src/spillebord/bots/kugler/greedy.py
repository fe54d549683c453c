"""``greedy``: the one-ply kugler bot.  Every legal action is scored by the board it
leads to (evaluate.py: progress, marbles out and home, safety from being hit, hitting
opponents) minus the keep-value of the card it spends; the best score wins, ties broken
by the action text (deterministic).  Reads the board from a determinization (the board
is public; the hidden cards of the sample are never looked at)."""

from __future__ import annotations

from typing import Any

from spillebord.bots import Bot, Observation
from spillebord.bots.kugler.evaluate import keep_value, relative, team_of, team_scores
from spillebord.games.kugler.moves import Move, apply_steps, fields_of
from spillebord.games.kugler.state import KuglerState


def score_moves(state: KuglerState, moves: list[Move]) -> list[float]:
    """The greedy score of each move for the seat to move in ``state``."""
    seat = state.turn
    geo = state.geo
    colour = state.colour(seat)
    team = team_of(geo, seat)
    waiting = colour is not None and len(fields_of(state.board, colour)) < 5
    base: float | None = None
    out: list[float] = []
    for m in moves:
        if m.steps and colour is not None:
            board = apply_steps(state.board, geo, colour, m.steps)
            value = relative(team_scores(board, geo), team)
        else:
            if base is None:
                base = relative(team_scores(state.board, geo), team)
            value = base
        out.append(value - keep_value(m.card, waiting))
    return out


def best_move(state: KuglerState, moves: list[Move]) -> Move:
    scores = score_moves(state, moves)
    best = max(range(len(moves)), key=lambda i: (scores[i], -i))
    return moves[best]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, **options: Any) -> None:
        if options:
            raise TypeError(f"greedy takes no options, not {sorted(options)}")

    def decide(self, obs: Observation) -> Move:
        sample = obs.sample()
        assert isinstance(sample, KuglerState)
        return best_move(sample, obs.legal_as(Move))
