"""Positions in the rule book's position text, shared by the posthus tests."""

from __future__ import annotations

from spillebord.games.posthus import GAME, PosthusState

# Gaps d1 (left 9H, right TS), g2 (left QH, right KH), c3 (left 9S, right JS), h4 (right
# of KS).  Runs: 7H 8H 9H (3), 7C 8C 9C TC (4), none (row 3 starts with 8S), 7S (1).
P1 = """round 1
7H 8H 9H -- TS JC QC KC
7C 8C 9C TC JH QH -- KH
8S 9S -- JS 7D KD QS TH
7S 8D 9D TD JD QD KS --
"""

# Gaps a1 (column a, right 9C), f1 (right of KS, right neighbour 9D), d2 (left TH,
# right a gap) and e2 (left a gap, right QH).
P2 = """round 1
-- 9C JS QS KS -- 9D TD
7C 8C TH -- -- QH 7D KD
7H 8H 9H JH KH 8S 9S TS
7S JC QC KC 8D JD QD TC
"""

# No card move under the strict rule: three gaps right of Kings, one right of a gap.
P3 = """round 1
7C 8C 9C TC JC QC KC --
7H 8H 9H TH JH QH KH --
7S 8S 9S TS JS KS -- --
7D 8D 9D TD JD QD QS KD
"""

# One move from a win: KD g4.
P4 = """round 1
7C 8C 9C TC JC QC KC --
7H 8H 9H TH JH QH KH --
7S 8S 9S TS JS QS KS --
7D 8D 9D TD JD QD -- KD
"""


def pos(text: str, round_: int | None = None, **flags: bool) -> PosthusState:
    if round_ is not None:
        text = text.replace("round 1", f"round {round_}", 1)
    return GAME.parse_position(text, **flags)


def legal(state: PosthusState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def into(state: PosthusState, place: str) -> set[str]:
    """The cards the legal moves put into ``place``."""
    return {a.split()[0] for a in legal(state) if a.endswith(" " + place)}
