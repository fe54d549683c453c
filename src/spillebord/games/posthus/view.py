"""What the player (and any spectator) sees of a posthus game: everything — posthus has
no hidden cards (future redeal shuffles are not shown anywhere).

The view holds the grid, the runs (framed in red, rule 3), the round, the redeals left,
the bonus a win in this round would give (shown in the lower right corner in the Danish
text), and the outcome once the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON
from spillebord.games.posthus import grid as g

if TYPE_CHECKING:
    from spillebord.games.posthus.state import PosthusState


def state_view(state: PosthusState) -> JSON:
    grid = state.grid
    runs = state.runs
    outcome = state.outcome
    names = g.PLACE_NAMES
    return {
        "grid": [list(grid[0:8]), list(grid[8:16]), list(grid[16:24]), list(grid[24:32])],
        "runs": list(runs),
        "run_places": [names[r * g.COLUMNS + c] for r, n in enumerate(runs) for c in range(n)],
        "gaps": [names[i] for i in state.gaps()],
        "round": state.round,
        "redeals_left": state.redeals_left,
        "bonus": state.bonus,
        "flags": dict(state.flags),
        "outcome": None if outcome is None else outcome.to_json(),
    }
