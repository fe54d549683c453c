"""What the player (and a spectator) sees of a Studenterkabalen state.

Ruling 9's bonus is shown as the bonus the current pass would give; ruling 2's base rank
is shown as a rank.  The stock shows only its size: its order is hidden in pass 1, and in
later passes it is the old waste, which the view already showed card by card.  The waste
is shown in full, bottom to top: every card in it was seen face up.  A solitaire has one
seat, and the spectator sees the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON
from spillebord.games.studenter.rules import PASSES, rank_text

if TYPE_CHECKING:
    from spillebord.games.studenter.state import StudenterState


def view(state: StudenterState) -> JSON:
    outcome = state.outcome
    return {
        "pass": state.pass_no,
        "bonus": PASSES + 1 - state.pass_no,
        "turn_overs_left": PASSES - state.pass_no,
        "base": rank_text(state.base),
        "row": list(state.row),
        "foundations": [list(p) for p in state.foundations],
        "helpers": list(state.helpers),
        "stock_size": len(state.stock),
        "waste": list(state.waste),
        "left_used": state.left_used,
        "to_move": state.to_move,
        "outcome": None if outcome is None else outcome.to_json(),
    }
