"""Consistent posthus hints: a winning line is remembered, tightened and followed.

Why: a hint is the first move of a winning line, but a fresh solve from the next grid may
find another line — one that starts by undoing the hinted move (seen: ``JD f3`` ↔
``JD d2``).  Following such hints alternates between two grids forever.

How hints stay consistent:

1. **Tightening.**  A found line is first made *simple and short-cut*: from each grid
   of the line the hint jumps to the *latest* later grid of the line that one move
   reaches (so no grid repeats and no detour through grids a single move skips).
2. **Commitment.**  Every grid of the tightened line is remembered with the move the
   line plays there (``LineMemory``).  A hint from a remembered grid plays the
   remembered move, so following the hints walks the committed line: each hint
   strictly shortens the remaining known winning line and no grid ever repeats, whatever
   the search would find from the next grid.  A grid off every remembered line (the
   player went elsewhere) is solved afresh and its line is committed in turn.

The memory is per process and bounded (``MAX_GRIDS`` grids, oldest lines forgotten
first); a forgotten line only means a fresh solve, which is again a winning line.
"""

from __future__ import annotations

from collections import OrderedDict

from spillebord.games.posthus.state import PosthusState
from spillebord.solvers.posthus.search import EXACT, encode, move_text, moves, run_lengths

MAX_GRIDS = 20_000

Key = tuple[bytes, bool]


def line_grids(state: PosthusState, line: tuple[str, ...] | list[str]) -> list[bytes]:
    """The grids a line passes through, the start grid first (bytes encoding)."""
    out = [bytes(encode(state.grid))]
    for text in line:
        nxt = state.apply(text)
        assert isinstance(nxt, PosthusState)
        state = nxt
        out.append(bytes(encode(state.grid)))
    return out


def tighten(state: PosthusState, line: tuple[str, ...] | list[str]) -> list[str]:
    """``line`` made simple and short-cut: the same end grid, never a repeated grid, and
    from each grid the move to the latest later grid of the line one move reaches."""
    grids = line_grids(state, line)
    latest = {grid: i for i, grid in enumerate(grids)}  # the last visit of each grid
    out: list[str] = []
    i = 0
    end = len(grids) - 1
    while i < end:
        grid = grids[i]
        best_j, best_move = i + 1, ""
        for card, src, dst, _ in moves(grid, run_lengths(grid), state.open_gaps, EXACT):
            child = bytearray(grid)
            child[src] = 0
            child[dst] = card
            j = latest.get(bytes(child), -1)
            if j > i and (j > best_j or not best_move):
                best_j, best_move = j, move_text(card, dst)
        assert best_move, "every step of a line is a legal move"
        out.append(best_move)
        i = best_j
    return out


class LineMemory:
    """Remembered moves of committed winning lines: ``(grid, open_gaps) → move``."""

    def __init__(self, max_grids: int = MAX_GRIDS) -> None:
        self.max_grids = max_grids
        self._next: OrderedDict[Key, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._next)

    def clear(self) -> None:
        self._next.clear()

    def lookup(self, state: PosthusState) -> str | None:
        """The committed move from this grid, if any."""
        return self._next.get((bytes(encode(state.grid)), state.open_gaps))

    def commit(self, state: PosthusState, line: tuple[str, ...] | list[str]) -> list[str]:
        """Tighten a winning line from ``state`` and remember it; the tightened line."""
        tight = tighten(state, line)
        grids = line_grids(state, tight)
        for grid, text in zip(grids, tight, strict=False):
            key = (grid, state.open_gaps)
            self._next.pop(key, None)  # a newer commitment replaces an older one
            self._next[key] = text
        while len(self._next) > self.max_grids:
            self._next.popitem(last=False)
        return tight


MEMORY = LineMemory()
