"""A sensible player's playouts of one posthus round, for the difficulty score
(docs/analysis.md, "Difficulty").

The player sees the whole grid (posthus hides nothing) and, at each turn:

1. extends a run when a card can go to the place after it (a random one of those);
2. otherwise plays a random card move that takes no card out of a run and leads to a
   grid not seen before in this round (a player does not go round in circles),
   preferring a move that leaves no gap right of a King (such a gap takes no card);
3. stops — the round is lost — when no such move is left, or after ``MAX_MOVES``.

No redeal: the round is the first, as for the solver's verdict.  ``win_share`` is the
share of ``n`` playouts (seeded by ``seed``) that complete all four runs.
"""

from __future__ import annotations

import random

from spillebord.solvers.posthus.search import EXACT, IS_KING, encode, moves, row_run, run_lengths

MAX_MOVES = 400


def playout(start: bytes, open_gaps: bool, rng: random.Random) -> bool:
    """One playout from the grid ``start``; True when all 28 cards end in runs."""
    grid = bytearray(start)
    runs = run_lengths(grid)
    seen = {bytes(grid)}
    for _ in range(MAX_MOVES):
        if sum(runs) == 28:
            return True
        options = moves(bytes(grid), runs, open_gaps, EXACT)
        extend = [m for m in options if m[3]]
        keep = [m for m in options if (m[1] & 7) >= runs[m[1] >> 3]]
        live = [m for m in keep if not (m[1] & 7 and IS_KING[grid[m[1] - 1]])]
        rng.shuffle(extend)
        rng.shuffle(live)
        rng.shuffle(keep)
        for card, src, dst, _ext in extend or live + keep:
            grid[src], grid[dst] = 0, card
            key = bytes(grid)
            if key not in seen:
                seen.add(key)
                runs[src >> 3] = row_run(grid, src & 24)
                runs[dst >> 3] = row_run(grid, dst & 24)
                break
            grid[src], grid[dst] = card, 0
        else:
            return False
    return sum(runs) == 28


def win_share(cells: tuple[str | None, ...] | list[str | None], open_gaps: bool,
              n: int, seed: int) -> float:
    """The share of ``n`` playouts from the grid ``cells`` that win."""
    start = bytes(encode(cells))
    rng = random.Random(seed)
    return sum(playout(start, open_gaps, rng) for _ in range(n)) / n
