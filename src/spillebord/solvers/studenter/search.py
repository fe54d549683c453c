"""The thoughtful Studenterkabalen search: a compact state, exact symmetries, a proven
dominance rule, a transposition table and limited discrepancy search with move ordering.

Compact state (``Node``).  Suits never matter in this game, and ranks matter only
relative to the base, so a card is its *relative rank* 0 … 12 (steps above the base
rank).  Foundations are interchangeable (each takes exactly the cards whose relative
rank equals its height), so they are a sorted multiset of heights; helpers are
interchangeable too (a helper emptied by a move is refilled at once, and after a
turn-over the refill order only decides which slot gets which card), so they are a sorted
multiset.  Row, waste and stock are ``bytes`` of relative ranks, which makes the
transposition key cheap to build and small to store.  These identifications are exact:
two positions with the same node have the same future, up to renaming suits, helpers and
foundations.

Dominance (proved in docs/rules/studenter.md, "Solver").  In pass 3, a card of relative
rank ``k ≥ 1`` at the row's end or the waste's top, with all eight cards of relative rank
``k − 1`` already up, may go up at once: no card can ever be built on it, it can never
re-enter the stock (no turn-over is left), and removing it only frees the pile below.
The same holds for a helper card once the stock is empty (no refill is disturbed).
A search restricted to fewer passes (for the best bonus) applies the rule in its own
last pass, where the same argument holds.
Such a move is taken as the only child.  No other pruning is used, so an ``unwinnable``
verdict is a proof (an exhaustive search of the reachable nodes).

Search: limited discrepancy search over the move ordering of ``moves()`` (see
``Search``): foundation moves first (row, waste, helpers), then building on the row,
the row's end onto the waste, the leftmost card, and last the stock.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

from spillebord.games.studenter.rules import PASSES, relative
from spillebord.games.studenter.state import StudenterState

EMPTY = 13  # an empty helper slot (sorts after every card)
DONE = bytes([13] * 8)
# The clock of the time limit (``Search`` and ``solve``): wall time; batch runs may set
# ``time.thread_time`` so that a deal gets the same CPU time however loaded the machine is.
CLOCK = time.perf_counter

# A move in the compact state: (source, target).  Sources: "row", "waste", or a helper
# card's relative rank (int); targets: "f", "row", "waste"; plus ("draw", ""),
# ("redeal", ""), ("left", "").
Move = tuple[str | int, str]


@dataclass(frozen=True, slots=True)
class Node:
    pass_no: int
    left_used: bool
    row: bytes
    waste: bytes
    stock: bytes
    helpers: bytes
    heights: bytes

    def key(self) -> bytes:
        return (bytes((self.pass_no, self.left_used, len(self.row), len(self.waste)))
                + self.helpers + self.heights + self.row + self.waste + self.stock)


def node_of(state: StudenterState) -> Node:
    b = state.base

    def rel(cards: tuple[str, ...]) -> bytes:
        return bytes(relative(c, b) for c in cards)

    helpers = sorted(EMPTY if c is None else relative(c, b) for c in state.helpers)
    return Node(state.pass_no, state.left_used, rel(state.row), rel(state.waste),
                rel(state.stock), bytes(helpers), bytes(sorted(len(p) for p in state.foundations)))


def _up(heights: bytes, r: int) -> bytes:
    i = heights.rindex(r)
    return heights[:i] + bytes((r + 1,)) + heights[i + 1 :]


def _take_helper(helpers: bytes, stock: bytes, h: int) -> tuple[bytes, bytes]:
    """Remove one helper card ``h``; refill from the stock (rule 7)."""
    i = helpers.index(h)
    rest = helpers[:i] + helpers[i + 1 :]
    if stock:
        return bytes(sorted(rest + stock[:1])), stock[1:]
    return rest + bytes((EMPTY,)), stock


def _refill_all(helpers: bytes, stock: bytes) -> tuple[bytes, bytes]:
    n = helpers.count(EMPTY)
    if not n or not stock:
        return helpers, stock
    take = stock[:n]
    kept = helpers[: 6 - n]
    return bytes(sorted(kept + take + bytes((EMPTY,)) * (n - len(take)))), stock[len(take):]


def _safe(node: Node, last_pass: int) -> Move | None:
    """The dominance rule of the module docstring (in the last pass the search allows)."""
    if node.pass_no != last_pass:
        return None
    low = node.heights[0]
    if node.row and 1 <= node.row[-1] <= low and node.row[-1] in node.heights:
        return ("row", "f")
    if node.waste and 1 <= node.waste[-1] <= low and node.waste[-1] in node.heights:
        return ("waste", "f")
    if not node.stock:
        for h in node.helpers:
            if 1 <= h <= low and h in node.heights:
                return (h, "f")
    return None


ROW_F: Move = ("row", "f")
WASTE_F: Move = ("waste", "f")
WASTE_ROW: Move = ("waste", "row")
ROW_WASTE: Move = ("row", "waste")
LEFT: Move = ("left", "")
DRAW: Move = ("draw", "")
REDEAL: Move = ("redeal", "")
HELPER_F: tuple[Move, ...] = tuple((h, "f") for h in range(13))
HELPER_ROW: tuple[Move, ...] = tuple((h, "row") for h in range(13))


def moves(node: Node, last_pass: int = PASSES) -> list[Move]:
    """Every move, best first (the order the search tries them).  ``last_pass`` < 3
    forbids turning over into a later pass (the search for a higher bonus)."""
    if node.pass_no == last_pass:
        safe = _safe(node, last_pass)
        if safe is not None:
            return [safe]
    out: list[Move] = []
    heights, row, waste = node.heights, node.row, node.waste
    end = row[-1] if row else -1
    top = waste[-1] if waste else -1
    if end >= 0 and end in heights:
        out.append(ROW_F)
    if top >= 0 and top in heights:
        out.append(WASTE_F)
    distinct: list[int] = []
    prev = EMPTY
    for h in node.helpers:  # sorted, empties last
        if h == EMPTY:
            break
        if h != prev:
            distinct.append(h)
            prev = h
            if h in heights:
                out.append(HELPER_F[h])
    if end >= 0:
        if top >= 0 and (end - top) % 13 == 1:
            out.append(WASTE_ROW)
        want = (end - 1) % 13
        if want in distinct:
            out.append(HELPER_ROW[want])
        if top >= 0 and (top - end) % 13 == 1:
            out.append(ROW_WASTE)
        if not node.left_used and len(row) >= 2 and (end - row[0]) % 13 == 1:
            out.append(LEFT)
    if node.stock:
        out.append(DRAW)
    elif waste and node.pass_no < last_pass:
        out.append(REDEAL)
    return out


def play(node: Node, move: Move) -> Node:
    src, dst = move
    p, lu, row, waste, stock, helpers, heights = (
        node.pass_no, node.left_used, node.row, node.waste, node.stock, node.helpers,
        node.heights)
    if src == "draw":
        return Node(p, lu, row, waste + stock[:1], stock[1:], helpers, heights)
    if src == "redeal":
        helpers, stock = _refill_all(helpers, waste)
        return Node(p + 1, lu, row, b"", stock, helpers, heights)
    if src == "left":
        return Node(p, True, row[1:] + row[:1], waste, stock, helpers, heights)
    if src == "row":
        card, row = row[-1], row[:-1]
    elif src == "waste":
        card, waste = waste[-1], waste[:-1]
    else:
        assert isinstance(src, int)
        card = src
        helpers, stock = _take_helper(helpers, stock, card)
    if dst == "f":
        heights = _up(heights, card)
    elif dst == "row":
        row = row + bytes((card,))
    else:
        waste = waste + bytes((card,))
    return Node(p, lu, row, waste, stock, helpers, heights)


class OutOfTime(Exception):
    """The search reached its deadline or node limit."""


class Search:
    """Limited discrepancy search (Harvey and Ginsberg, 1995) over ``moves()``' order.

    Iteration ``k`` follows the move ordering but may spend at most ``k`` deviations
    along a line, where taking the ``i``-th choice of a node (counting from 0) costs
    ``i``; ``k`` grows 0, 1, 2, … .  Within an iteration the
    transposition table maps a node to the most deviations it was searched with, and a
    node met again with no more is skipped.  An iteration that never had to refuse a
    deviation has searched every reachable node, so if it found no win the position is
    proven unwinnable.  Each iteration starts a fresh table, which keeps that proof
    simple and sound (and in practice costs little: most wins need 1 to 5 deviations).
    """

    def __init__(self, seconds: float, node_limit: int | None = None,
                 last_pass: int = PASSES, last_at_root: frozenset[Move] = frozenset()
                 ) -> None:
        self.last_pass = last_pass
        self.last_at_root = last_at_root
        self._root: Node | None = None
        self.deadline = CLOCK() + seconds
        self.node_limit = node_limit
        self.nodes = 0
        self.iterations = 0
        self.line: list[Move] = []
        self._seen: dict[bytes, int] = {}
        self._cut = False

    def solve(self, root: Node) -> bool:
        """True with ``self.line`` a winning line (last move first); False when proven
        unwinnable; raises OutOfTime at the limit."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            k = 0
            self._root = root
            while True:
                self.iterations += 1
                self._seen = {}
                self._cut = False
                if self._dfs(root, k):
                    return True
                if not self._cut:
                    return False
                k += 1
        finally:
            self._seen = {}
            sys.setrecursionlimit(limit)

    def _dfs(self, node: Node, k: int) -> bool:
        if node.heights == DONE:
            return True
        key = node.key()
        if self._seen.get(key, -1) >= k:
            return False
        self._seen[key] = k
        self.nodes += 1
        if not self.nodes & 1023 and (
            CLOCK() > self.deadline
            or (self.node_limit is not None and self.nodes > self.node_limit)
        ):
            raise OutOfTime
        options = moves(node, self.last_pass)
        if node is self._root and self.last_at_root:
            options = ([m for m in options if m not in self.last_at_root]
                       + [m for m in options if m in self.last_at_root])
        for i, move in enumerate(options):
            if i > k:
                self._cut = True
                break
            if self._dfs(play(node, move), k - i):
                self.line.append(move)
                return True
        return False


def iter_line(line: list[Move]) -> Iterator[Move]:
    """The winning line in playing order (the search collects it backwards)."""
    return reversed(line)
