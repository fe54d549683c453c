"""Expected-win estimate with redeals (Monte Carlo over the redeal shuffles).

Real redeal shuffles come from the deal number, so the future of one game is fixed; an
*estimate* instead asks how often a player wins from this position over all the ways the
redeals could fall.  Each sample plays the rest of the game with the solver choosing:

1. solve the current round; if it is winnable the sample is a win;
2. otherwise, if a redeal is left, play the line to the grid with the most run cards the
   solver found, then redeal with the gathered cards shuffled by a ``random.Random``
   (seeded, so the estimate is reproducible) and go to 1; with no redeal left the sample
   is a loss.

The result is the share of won samples in percent.  ``seconds`` is the total budget,
split evenly over the samples (the first round's solve is shared by all of them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from spillebord.core.errors import NotationError
from spillebord.core.protocol import State
from spillebord.games.posthus import GAME
from spillebord.games.posthus import grid as g
from spillebord.games.posthus.state import PosthusState

if TYPE_CHECKING:
    from spillebord.solvers import SolveResult

SEED = 20_261_130


def _random_redeal(state: PosthusState, rng: random.Random) -> PosthusState:
    cards = g.gathered_cards(state.grid)
    rng.shuffle(cards)
    return PosthusState(GAME, g.redeal_grid(state.grid, cards), state.round + 1,
                        state.deal, state.flags)


def _play_line(state: PosthusState, line: list[str]) -> PosthusState:
    for text in line:
        nxt = state.apply(text)
        assert isinstance(nxt, PosthusState)
        state = nxt
    return state


def estimate(state: State, samples: int, seconds: float) -> float:
    """The expected win percentage from ``state`` with the redeals still left."""
    from spillebord.solvers.posthus import solve

    if not isinstance(state, PosthusState):
        raise NotationError("the posthus estimate needs a posthus state")
    if samples <= 0 or seconds <= 0:
        raise NotationError("samples and seconds must be positive")
    if state.outcome is not None:
        return 100.0 if state.is_won else 0.0
    per_solve = seconds / samples / max(1, state.redeals_left + 1)
    first: SolveResult = solve(state, per_solve * samples)
    if first.verdict == "winnable":
        return 100.0
    if state.redeals_left == 0:
        return 0.0
    after_first = _play_line(state, first.extra["best_line"])
    rng = random.Random(SEED)
    wins = 0
    for _ in range(samples):
        current = _random_redeal(after_first, rng)
        while True:
            result = solve(current, per_solve)
            if result.verdict == "winnable":
                wins += 1
                break
            if current.redeals_left == 0:
                break
            current = _random_redeal(_play_line(current, result.extra["best_line"]), rng)
    return 100.0 * wins / samples
