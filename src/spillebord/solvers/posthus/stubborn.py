"""Deadlock-preserving partial-order reduction (Valmari's stubborn sets) for the exact
posthus search — strict rule only.  Measured and **not used by** ``solve``: on real
deals it removes almost nothing (see docs/benchmarks/posthus.md, "tried: stubborn
sets"); it stays as the tested record of that measurement (``fast.Dfs(reduce=...)``).

Transitions.  A transition is a label ``(X, h)``: card ``X`` moves (from wherever it
is) into place ``h``.  It is enabled when ``h`` is a gap, the place left of ``h`` (same
row) holds no King, and a *reason* holds: ``h − 1`` holds ``X − 1`` (same suit), or
``h + 1`` holds ``X + 1``, or ``h`` is in column a and ``X`` is a 7 (rule book posthus,
rule 2, judged on the grid before ``X`` leaves: reading the grid as it is does exactly
that).  Its effect writes two places: ``X``'s place ``p`` becomes a gap, ``h`` gets
``X``.  The won grid is a *deadlock* (all four gaps in column h, right of Kings), so it
is enough to preserve every reachable deadlock.

Theorem used (Valmari).  If at every state ``s`` the search expands only the enabled
transitions of a set ``T(s)`` such that
 (D0) ``T`` holds an enabled transition,
 (D1) for ``t ∈ T`` and any sequence ``w`` of transitions outside ``T``:
      ``s –w t→ s'`` implies ``s –t w→ s'``,
 (D2) some enabled ``t ∈ T`` stays enabled after any such ``w``,
then every deadlock reachable from ``s`` is reachable in the reduced graph (induction
on the length of a path to the deadlock: by D2 the path holds a transition of ``T``; by
D1 the first one moves to the front).  No cycle proviso is needed for deadlocks, and as
``T`` depends on the grid only, a transposition table keeps it sound: the depth-first
search explores the whole reduced graph reachable from the start.

How ``T`` is built (a closure from one enabled seed, ``closure``):

* an enabled ``t = (X, g)`` with ``X`` at ``p`` brings its *conflict set*:
  1. every move of ``X`` (``X`` stays at ``p`` during ``w``);
  2. every move into ``g`` (``g`` stays a gap);
  3. one reason of ``t`` is kept: a 7 into column a needs nothing; else every move of
     ``X − 1`` when it is left of ``g``; else every move of ``X + 1`` (right of ``g``)
     and every King into ``g − 1`` (a King arriving there would block ``g``);
  4. if ``X`` is a King: every move into ``g + 1`` (``t`` blocks that place);
  5. ``(X + 1, p + 1)`` and ``(X − 1, p − 1)`` (same row): the moves that could use
     ``X`` at ``p`` as their reason.
* a disabled ``u = (Y, h)`` brings a *necessary enabling set* (one transition of it
  must fire before ``u`` can be enabled), chosen greedily among those that exist:
  every move of the card on ``h`` (occupied); every move of the King left of ``h``
  (blocked); ``{(Y − 1, h − 1), (Y + 1, h + 1)}`` (no reason holds now; either may be
  missing at a row's or suit's end — an empty set: ``u`` is never enabled).

Soundness.  (i) A disabled ``u ∈ T`` stays disabled along any ``w`` outside ``T``: the
first step that enabled it would have to be in its necessary enabling set, which is in
``T``.  (ii) An enabled ``t = (X, g) ∈ T`` stays enabled along ``w`` with the same
effect: ``w`` has no move of ``X`` (1), nothing enters ``g`` (2), the kept reason's card
never moves and no King enters ``g − 1`` (3).  So every enabled transition of ``T`` is
a key transition (D2), and D0 holds by the seed.  (iii) D1 for an enabled ``t``: let
``u = (Y, h)`` (``Y`` at ``q``) be enabled at some state ``s_i`` of ``w``; ``t(s_i)``
differs from ``s_i`` only at ``p`` and ``g``.  ``Y ≠ X`` (1), ``h ≠ g`` (2), ``h ≠ p``
(``X`` is there), ``q ≠ g`` (a gap): so ``u`` moves the same card between the same
places in ``t(s_i)``.  Its reasons survive: a neighbour of ``h`` that is ``g`` was a
gap in ``s_i`` (no reason); a neighbour that is ``p`` was a reason only for
``(X + 1, p + 1)`` or ``(X − 1, p − 1)``, both in ``T`` (5).  No block appears: ``h − 1
= g`` holds ``X`` in ``t(s_i)``, a King only for moves into ``g + 1``, in ``T`` (4).
The two moves write disjoint places, so ``t(s_{i+1})`` follows and ``s –t w→ t(s_n)``.
D1 for a disabled ``t ∈ T`` holds vacuously by (i).  ``T(s)`` is the closure with the
fewest enabled transitions over all enabled seeds — a function of the grid.

Why it removes almost nothing (measured; docs/benchmarks/posthus.md): a card's moves
are only into the place right of its predecessor or left of its successor, and those
places are almost always occupied.  Keeping the move ``(Z, h)`` disabled while ``h`` is
occupied and accepts ``Z`` forces every move of the occupant into ``T`` — a *waits-for*
chain card → occupant of its accepting place → … that ends only at a gap, whose moves
then join ``T`` with their own conflict sets.  From any seed the chain reaches the
other gaps, and ``T`` holds (nearly) every enabled move.
"""

from __future__ import annotations

from spillebord.solvers.posthus.fast import Move

KINGS = (7, 14, 21, 28)
_KING = tuple(c > 0 and (c - 1) % 7 == 6 for c in range(29))
_SEVEN = tuple(c > 0 and (c - 1) % 7 == 0 for c in range(29))


def _has_reason(grid: bytes | bytearray, h: int, y: int) -> bool:
    col = h & 7
    if col and not _SEVEN[y] and grid[h - 1] == y - 1:
        return True
    if col < 7 and not _KING[y] and grid[h + 1] == y + 1:
        return True
    return col == 0 and _SEVEN[y]


def _blocked(grid: bytes | bytearray, h: int) -> bool:
    return bool(h & 7) and _KING[grid[h - 1]]


def enabled(grid: bytes | bytearray, y: int, h: int) -> bool:
    """Whether card ``y`` may move into place ``h`` (strict rule)."""
    return grid[h] == 0 and not _blocked(grid, h) and _has_reason(grid, h, y)


def enabled_labels(grid: bytes | bytearray) -> list[int]:
    """Every enabled transition as a label ``32 · card + place``."""
    out = []
    for h in range(32):
        if grid[h] == 0 and not _blocked(grid, h):
            for y in range(1, 29):
                if _has_reason(grid, h, y):
                    out.append(32 * y + h)
    return out


def closure(grid: bytes | bytearray, pos: list[int], seed: int,
            bound: int = 1 << 30) -> tuple[list[int], bytearray] | None:
    """The stubborn closure of the enabled transition ``seed``: its enabled transitions
    and the membership of every label in it (``in_t[32 · card + place]``); None once it
    holds ``bound`` enabled transitions (no better than the best so far)."""
    in_t = bytearray(29 * 32)
    pinned = bytearray(29)
    work = [seed]
    found: list[int] = []

    def pin(card: int) -> None:  # every move of ``card``
        pinned[card] = 1
        work.extend(range(32 * card, 32 * card + 32))

    while work:
        u = work.pop()
        if in_t[u]:
            continue
        in_t[u] = 1
        y, h = u >> 5, u & 31
        col = h & 7
        if enabled(grid, y, h):
            found.append(u)
            if len(found) >= bound:
                return None
            x, g, p = y, h, pos[y]
            pin(x)  # 1
            work.extend(32 * c + g for c in range(1, 29))  # 2
            if col == 0 and _SEVEN[x]:  # 3
                pass
            elif col and not _SEVEN[x] and grid[g - 1] == x - 1:
                pin(x - 1)
            else:
                pin(x + 1)
                if col:
                    work.extend(32 * k + g - 1 for k in KINGS)
            if _KING[x] and col < 7:  # 4
                work.extend(32 * c + g + 1 for c in range(1, 29))
            if not _KING[x] and p & 7 < 7:  # 5
                work.append(32 * (x + 1) + p + 1)
            if not _SEVEN[x] and p & 7:
                work.append(32 * (x - 1) + p - 1)
            continue
        # Disabled: the cheapest necessary enabling set (fewest enabled transitions
        # not yet in T, then fewest transitions not yet in T).
        best_cost = (99, 99)
        best_pin = -1
        best_set: list[int] = []
        pins = []
        if grid[h]:
            pins.append(grid[h])
        if col and _KING[grid[h - 1]]:
            pins.append(grid[h - 1])
        for card in pins:
            if pinned[card]:
                cost = (0, 0)
            else:
                cost = (sum(1 for k in range(32) if not in_t[32 * card + k]
                            and enabled(grid, card, k)), 32)
            if cost < best_cost:
                best_cost, best_pin = cost, card
        if not _has_reason(grid, h, y):
            labels = []
            if col and not _SEVEN[y]:
                labels.append(32 * (y - 1) + h - 1)
            if col < 7 and not _KING[y]:
                labels.append(32 * (y + 1) + h + 1)
            new = [v for v in labels if not in_t[v]]
            cost = (sum(1 for v in new if enabled(grid, v >> 5, v & 31)), len(new))
            if cost < best_cost:
                best_cost, best_pin, best_set = cost, -1, new
        if best_pin >= 0:
            if not pinned[best_pin]:
                pin(best_pin)
        else:
            work.extend(best_set)
    return found, in_t


def stubborn_set(grid: bytes | bytearray, pos: list[int]) -> tuple[list[int], bytearray]:
    """The stubborn set with the fewest enabled transitions: its enabled transitions
    (sorted) and its membership.  The closure of each enabled seed is tried in label
    order (ties: the first); when none leaves an enabled transition out, ``T`` is every
    transition (trivially stubborn)."""
    labels = enabled_labels(grid)
    best: tuple[list[int], bytearray] = (sorted(labels), bytearray(b"\x01" * (29 * 32)))
    for seed in sorted(labels):
        result = closure(grid, pos, seed, len(best[0]))
        if result is not None and len(result[0]) < len(best[0]):
            best = (sorted(result[0]), result[1])
            if len(best[0]) == 1:
                break
    return best


def stubborn_labels(grid: bytes | bytearray, pos: list[int]) -> list[int]:
    """The enabled transitions of ``stubborn_set`` (sorted labels)."""
    return stubborn_set(grid, pos)[0]


def reduce_moves(grid: bytes | bytearray, pos: list[int], moves: list[Move]) -> list[Move]:
    """``moves`` (the exact moves of the grid, strict rule) restricted to a stubborn
    set: a hook for ``fast.Dfs(reduce=...)``."""
    keep = set(stubborn_labels(grid, pos))
    return [m for m in moves if 32 * m[0] + m[2] in keep]
