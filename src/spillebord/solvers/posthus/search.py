"""The posthus solver's shared pieces and its reference engine: the card encoding, the
move generator with its prunings, the move-ordering score, and ``Search`` — a
depth-first (or greedy best-first) search that copies the grid for every child.

The solver itself runs ``engine.JitDfs`` (the compiled kernel of ``jit.py``), which
visits the same grids in the same order as ``fast.Dfs`` (make/unmake on one grid,
integer keys) and so as ``Search`` (tests check both); ``Search`` and ``fast.Dfs`` stay
as those cross-checks, and ``Search`` for the greedy best-first mode, which the
schedule no longer uses (a single long pruned depth-first search won more hard deals).

Representation: 32 bytes, row by row; 0 is a gap, a card is ``1 + 7·suit + rank`` with
suit C D H S = 0 … 3 and rank 7 … K = 0 … 6, so a card's successor is ``card + 1``
(unless it is a King) and its predecessor ``card − 1`` (unless it is a 7).  The grid's
bytes are the transposition key: the same grid reached in any order is searched once.

The gap rules are the game package's (rule book posthus, rule 2): a gap takes the
successor of its left neighbour, the predecessor of its right neighbour, any 7 in
column a, nothing right of a King, and under ``open_gaps`` any card when a neighbour is
a gap.  Tests check every generated move against ``GAME`` and replay winning lines.

``prune`` other than ``EXACT`` runs a *pruned* search used only to find wins fast:
``KEEP_RUNS`` never takes a card out of a run, ``LOOSE`` lets only a run's last card (or
a lone 7) leave, ``FORCED`` keeps runs and always extends a run when it can,
``FORCED_LOOSE`` is ``LOOSE`` that always extends a run when it can.  (Strict rule:
inside a run of two or more a middle card can never move — its only accepting place is
its own — so ``LOOSE`` differs from ``EXACT`` only by the moves of a run's 7 to another
column-a gap.)  None is
safe for proofs — deal 40 (strict rule) is winnable, yet its ``KEEP_RUNS`` space holds no
win — so an exhausted pruned search proves nothing; only an exhausted ``EXACT`` search
answers ``unwinnable``.

Row symmetry is *not* used: among 300,000 grids reached from deal 20 only 40 were row
permutations of one another, so a canonical key would cost more than it saves.  Suit
symmetry is not used either (not measured; a search from one deal meets a suit-relabelled
copy of a grid even less often than a row-permuted one, we expect).
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from spillebord.games.posthus import grid as g

SEVENS = (1, 8, 15, 22)
PAIR_WEIGHT = 1
EXACT, LOOSE, KEEP_RUNS, FORCED, FORCED_LOOSE = 0, 1, 2, 3, 4
_KEEPS_RUNS = (False, False, True, True, False)
_LOOSE = (False, True, False, False, True)
_FORCES = (False, False, False, True, True)
# Move sets shrink EXACT ⊇ LOOSE ⊇ KEEP_RUNS ⊇ FORCED and LOOSE ⊇ FORCED_LOOSE ⊇ FORCED
# (an extension never takes a card out of a run), so the grids a pruning reaches include
# those of each pruning listed here: an exhausted search rules those out as well.
SUBSUMES: dict[int, tuple[int, ...]] = {
    EXACT: (LOOSE, KEEP_RUNS, FORCED, FORCED_LOOSE),
    LOOSE: (KEEP_RUNS, FORCED, FORCED_LOOSE),
    KEEP_RUNS: (FORCED,),
    FORCED_LOOSE: (FORCED,),
    FORCED: (),
}
JITTER = 2.0
ALL_CARDS = tuple(range(1, 29))
IS_KING = tuple(v > 0 and (v - 1) % 7 == 6 for v in range(29))
HAS_PRED = tuple(v > 0 and (v - 1) % 7 > 0 for v in range(29))
CODES = ("--", *g.DECK)
CODE_OF = {code: i for i, code in enumerate(CODES) if i}
PLACE_NAMES = tuple(g.place_name(i) for i in range(32))


def encode(cells: Sequence[str | None]) -> bytearray:
    return bytearray(0 if c is None else CODE_OF[c] for c in cells)


def run_lengths(grid: bytes | bytearray) -> list[int]:
    out = []
    for base in (0, 8, 16, 24):
        v = grid[base]
        n = 0
        if v and (v - 1) % 7 == 0:
            n = 1
            while n < 7 and grid[base + n] == v + n:
                n += 1
        out.append(n)
    return out


def row_run(grid: bytes | bytearray, base: int) -> int:
    """The run length of the row starting at ``base``."""
    v = grid[base]
    if not v or (v - 1) % 7:
        return 0
    n = 1
    while n < 7 and grid[base + n] == v + n:
        n += 1
    return n


def evaluate(grid: bytes, run_cards: int) -> int:
    """The best-first score: run cards count most, then pairs (a card right of its
    predecessor), minus gaps right of a King (dead until the King moves)."""
    score = 10 * run_cards
    for i in range(31):
        v = grid[i]
        if v and grid[i + 1] == v + 1 and (i & 7) < 7 and not IS_KING[v]:
            score += 2
    gap = grid.find(0)
    while gap >= 0:
        if gap & 7 and IS_KING[grid[gap - 1]]:
            score -= 1
        gap = grid.find(0, gap + 1)
    return score


def move_text(card: int, place: int) -> str:
    return f"{CODES[card]} {PLACE_NAMES[place]}"


def moves(grid: bytes, runs: Sequence[int], open_gaps: bool,
          prune: int = EXACT) -> list[tuple[int, int, int, bool]]:
    """Moves ``(card, from, to, extends a run?)``; a move may appear twice.

    ``prune``: ``EXACT`` keeps every move, ``KEEP_RUNS`` drops the moves that take a card
    out of a run, ``LOOSE`` only those that take any card but the last out of a run of
    two or more (a run's last card may leave), ``FORCED`` keeps runs and, when a run can
    be extended, offers only the extensions."""
    out: list[tuple[int, int, int, bool]] = []
    extensions: list[tuple[int, int, int, bool]] = []
    index = grid.index
    keeps_runs = _KEEPS_RUNS[prune]
    loose = _LOOSE[prune]
    gap = grid.find(0)
    while gap >= 0:
        gcol = gap & 7
        left = grid[gap - 1] if gcol else 0
        if left and IS_KING[left]:
            gap = grid.find(0, gap + 1)
            continue
        right = grid[gap + 1] if gcol < 7 else 0
        slot = runs[gap >> 3] == gcol
        cards: Sequence[int]
        if open_gaps and ((gcol and not left) or (gcol < 7 and not right)):
            cards = ALL_CARDS
        elif gcol:
            cards = (left + 1, right - 1) if right and HAS_PRED[right] else (left + 1,)
            if not left:
                cards = cards[1:]
        else:
            cards = (right - 1, *SEVENS) if right and HAS_PRED[right] else SEVENS
        for card in cards:
            src = index(card)
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
        gap = grid.find(0, gap + 1)
    if extensions and _FORCES[prune]:
        return extensions
    return out


def score(grid: bytes | bytearray, runs: Sequence[int], card: int, src: int, dst: int,
          extends: bool) -> int:
    """A cheap ordering heuristic (higher first): extend a run, empty a run's next
    place, keep runs, make pairs (a card right of its predecessor), break none."""
    col = src & 7
    src_run = runs[src >> 3]
    value = -20 if col < src_run else (4 if col == src_run else 0)
    if extends:
        value += 10
    dcol = dst & 7
    pred = card - 1 if HAS_PRED[card] else -1
    succ = -1 if IS_KING[card] else card + 1
    if dcol and grid[dst - 1] == pred:
        value += PAIR_WEIGHT
    if dcol < 7 and grid[dst + 1] == succ:
        value += PAIR_WEIGHT
    if col and grid[src - 1] == pred:
        value -= PAIR_WEIGHT
    if col < 7 and grid[src + 1] == succ:
        value -= PAIR_WEIGHT
    return value


@dataclass
class Search:
    """One search from ``start``; ``run()`` says ``win``, ``exhausted`` or ``timeout`` and
    leaves the winning line (or the line to the grid with most run cards) behind.

    Depth-first (the default): the frontier is a stack; a grid's new children are marked
    seen when generated and pushed worst first, so the best child is expanded next.
    ``best_first``: the frontier is a heap ordered by ``evaluate`` (greedy best-first,
    first come first served among equals).  Either way every reachable grid is marked
    once, so an exhausted exact search is a proof.
    """

    start: bytes
    open_gaps: bool
    prune: int
    deadline: float
    max_nodes: int = 1 << 62
    jitter: random.Random | None = None
    best_first: bool = False
    nodes: int = 0
    line: list[str] = field(default_factory=list)
    best_run_cards: int = -1
    best_line: list[str] = field(default_factory=list)

    def run(self) -> str:
        prune = self.prune
        open_gaps = self.open_gaps
        start = self.start
        runs = run_lengths(start)
        self.best_run_cards = sum(runs)
        if self.best_run_cards == 28:
            return "win"
        parents: dict[bytes, tuple[bytes, int, int] | None] = {start: None}
        stack: list[tuple[bytes, list[int]]] = [(start, runs)]
        heap: list[tuple[int, int, bytes, list[int]]] = [(0, 0, start, runs)]
        best_first = self.best_first
        order = 0
        nodes = 0
        deadline = self.deadline
        max_nodes = self.max_nodes
        best = self.best_run_cards
        best_key = start
        rand = self.jitter.random if self.jitter else None
        status = "exhausted"
        while heap if best_first else stack:
            if best_first:
                key, runs = heapq.heappop(heap)[2:]
            else:
                key, runs = stack.pop()
            nodes += 1
            if not nodes & 255 and (time.perf_counter() > deadline or nodes > max_nodes):
                status = "timeout"
                break
            fresh: list[tuple[float, bytes, list[int]]] = []
            for card, src, dst, extends in moves(key, runs, open_gaps, prune):
                child = bytearray(key)
                child[src] = 0
                child[dst] = card
                ckey = bytes(child)
                if ckey in parents:
                    continue
                parents[ckey] = (key, card, dst)
                cruns = list(runs)
                cruns[src >> 3] = row_run(ckey, src & 24)
                cruns[dst >> 3] = row_run(ckey, dst & 24)
                total = sum(cruns)
                if total > best:
                    best = total
                    best_key = ckey
                    if total == 28:
                        status = "win"
                        break
                if best_first:
                    order += 1
                    heapq.heappush(heap, (-evaluate(ckey, total), order, ckey, cruns))
                else:
                    value = score(key, runs, card, src, dst, extends)
                    fresh.append((value + JITTER * rand() if rand else value, ckey, cruns))
            if status == "win":
                break
            # Ties go to the larger grid key: the move that fills the earlier place,
            # which drifts gaps right and down, towards where they end in a win.
            fresh.sort()
            stack.extend((k, r) for _, k, r in fresh)
        self.nodes = nodes
        self.best_run_cards = best
        self.best_line = _line_to(parents, best_key)
        if status == "win":
            self.line = list(self.best_line)
        return status


def _line_to(parents: dict[bytes, tuple[bytes, int, int] | None], key: bytes) -> list[str]:
    out: list[str] = []
    link = parents[key]
    while link is not None:
        parent, card, dst = link
        out.append(move_text(card, dst))
        link = parents[parent]
    out.reverse()
    return out
