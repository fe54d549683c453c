"""The posthus solver's pure-Python depth-first engine: make/unmake on one mutable grid.
It is the reference for the compiled kernel (``jit.py``, driven by ``engine.JitDfs``),
which runs the same search about five times faster and is the one ``solve`` uses.

State: a ``bytearray`` of 32 places (0 = gap, card = ``1 + 7·suit + rank`` as in
``search.py``), a card → place index ``pos``, the 4 gap places and the run length of
each row, all updated incrementally when a move is made and unmade — no grid is copied
per node.

Transposition key: the grid as one exact integer, place ``i`` holding its card in the
5 bits of weight ``32 ** (31 − i)``; a move changes it by ``card · (W[dst] − W[src])``,
so a child's key costs two multiplications and no copy.  The key is the grid itself
(no hashing collisions: an exhausted exact search is still a proof), and comparing keys
compares grids place by place from a1, like the byte keys of ``search.py``.  A win is
one of the 24 grids that ``WINS`` lists (a suit per row, 7–K in columns a–g).

Moves per gap (rule book posthus, rule 2): the successor of the left neighbour, the
predecessor of the right neighbour, the four 7s in column a, nothing right of a King;
under ``open_gaps`` every card when a neighbour is a gap.  ``node_moves`` is the one
generator, checked against ``GAME`` by the tests.  Pruning modes and the ordering score
are ``search.py``'s (``EXACT``, ``LOOSE``, ``KEEP_RUNS``, ``FORCED``; only an exhausted
``EXACT`` search proves anything).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from spillebord.solvers.posthus.search import (
    _FORCES,
    _KEEPS_RUNS,
    _LOOSE,
    ALL_CARDS,
    HAS_PRED,
    IS_KING,
    JITTER,
    SEVENS,
    move_text,
    row_run,
    run_lengths,
    score,
)

W = tuple(1 << (5 * (31 - i)) for i in range(32))
WINS = frozenset(
    sum((1 + 7 * suit + rank) * W[8 * row + rank] for row, suit in enumerate(order)
        for rank in range(7))
    for order in itertools.permutations(range(4))
)

Move = tuple[int, int, int, bool]
# A move filter ``(grid, pos, moves) -> moves`` (``stubborn.reduce_moves``): applied to
# each grid's moves when given (``Dfs.reduce``); ``solve`` uses none.
Reduce = Callable[[bytearray, list[int], list[Move]], list[Move]]


def grid_key(grid: bytes | bytearray) -> int:
    return sum(v * W[i] for i, v in enumerate(grid))


def node_moves(grid: bytearray | bytes, pos: list[int], gaps: list[int],
               runs: list[int], open_gaps: bool, prune: int) -> list[Move]:
    """Moves ``(card, from, to, extends a run?)`` of the grid; a move may appear twice.
    ``pos[card]`` is the card's place, ``gaps`` the gap places, ``runs`` the run
    lengths; pruning as ``search.moves``."""
    out: list[Move] = []
    extensions: list[Move] = []
    keeps_runs = _KEEPS_RUNS[prune]
    loose = _LOOSE[prune]
    for gap in gaps:
        gcol = gap & 7
        left = grid[gap - 1] if gcol else 0
        if left and IS_KING[left]:
            continue
        right = grid[gap + 1] if gcol < 7 else 0
        cards: tuple[int, ...]
        if open_gaps and ((gcol and not left) or (gcol < 7 and not right)):
            cards = ALL_CARDS
        elif gcol:
            if left:
                cards = (left + 1, right - 1) if right and HAS_PRED[right] else (left + 1,)
            else:
                cards = (right - 1,) if right and HAS_PRED[right] else ()
        else:
            cards = (right - 1, *SEVENS) if right and HAS_PRED[right] else SEVENS
        slot = runs[gap >> 3] == gcol
        for card in cards:
            src = pos[card]
            if prune:
                col = src & 7
                src_run = runs[src >> 3]
                if col < src_run and (keeps_runs or (loose and src_run > 1
                                                     and col < src_run - 1)):
                    continue
            if slot and (card == left + 1 if gcol else not HAS_PRED[card]):
                out.append((card, src, gap, True))
                extensions.append((card, src, gap, True))
            else:
                out.append((card, src, gap, False))
    if extensions and _FORCES[prune]:
        return extensions
    return out


@dataclass
class Dfs:
    """One depth-first search from ``start`` (same interface as ``search.Search``):
    ``run()`` says ``win``, ``exhausted`` or ``timeout``; ``line`` is the winning line,
    ``best_line`` the line to the grid with most run cards.  Children are marked seen
    when generated and tried best score first (``search.score``, random tie-breaks
    with ``jitter``); every reachable grid is marked once, so an exhausted ``EXACT``
    search has seen the whole reachable space of the round.  ``reduce`` (None in
    ``solve``) filters each grid's moves, e.g. to a stubborn set (``stubborn.py``,
    measured only)."""

    start: bytes
    open_gaps: bool
    prune: int
    deadline: float
    max_nodes: int = 1 << 62
    jitter: random.Random | None = None
    reduce: Reduce | None = None
    nodes: int = 0
    line: list[str] = field(default_factory=list)
    best_run_cards: int = -1
    best_line: list[str] = field(default_factory=list)

    def run(self) -> str:
        grid = bytearray(self.start)
        pos = [0] * 29
        for i, v in enumerate(grid):
            if v:
                pos[v] = i
        gaps = [i for i, v in enumerate(grid) if not v]
        runs = run_lengths(grid)
        best = sum(runs)
        self.best_run_cards = best
        if best == 28:
            return "win"
        open_gaps, prune = self.open_gaps, self.prune
        rand = self.jitter.random if self.jitter else None
        deadline, max_nodes = self.deadline, self.max_nodes
        key = grid_key(grid)
        seen = {key}
        wins = WINS
        path: list[tuple[int, int, int, int, int, int]] = []
        frames: list[list[tuple[float, int, int, int, int]]] = []
        nodes = 0
        status = "exhausted"
        while True:
            # Expand the current grid: its unseen children, best last.
            nodes += 1
            if not nodes & 255 and (time.perf_counter() > deadline or nodes > max_nodes):
                status = "timeout"
                break
            fresh: list[tuple[float, int, int, int, int]] = []
            won = False
            children = node_moves(grid, pos, gaps, runs, open_gaps, prune)
            if self.reduce is not None:
                children = self.reduce(grid, pos, children)
            for card, src, dst, extends in children:
                ckey = key + card * (W[dst] - W[src])
                if ckey in seen:
                    continue
                seen.add(ckey)
                if ckey in wins:
                    path.append((card, src, dst, key, 0, 0))
                    won = True
                    break
                value: float = score(grid, runs, card, src, dst, extends)
                if rand:
                    value += JITTER * rand()
                fresh.append((value, ckey, card, src, dst))
            if won:
                status = "win"
                best = 28
                self.best_line = [move_text(c, d) for c, _, d, *_ in path]
                break
            fresh.sort()
            frames.append(fresh)
            # Undo moves until some frame has a child left, then make that move.
            while frames and not frames[-1]:
                frames.pop()
                if path:
                    card, src, dst, key, rs, rd = path.pop()
                    grid[dst] = 0
                    grid[src] = card
                    pos[card] = src
                    gaps[gaps.index(src)] = dst
                    runs[src >> 3] = rs
                    runs[dst >> 3] = rd
            if not frames:
                break
            _, ckey, card, src, dst = frames[-1].pop()
            srow, drow = src >> 3, dst >> 3
            path.append((card, src, dst, key, runs[srow], runs[drow]))
            key = ckey
            grid[src] = 0
            grid[dst] = card
            pos[card] = dst
            gaps[gaps.index(dst)] = src
            if src & 7 < runs[srow]:
                runs[srow] = src & 7
            if dst & 7 == runs[drow]:
                runs[drow] = row_run(grid, dst & 24)
            total = runs[0] + runs[1] + runs[2] + runs[3]
            if total > best:
                best = total
                self.best_line = [move_text(c, d) for c, _, d, *_ in path]
        self.nodes = nodes
        self.best_run_cards = best
        if status == "win":
            self.line = list(self.best_line)
        return status
