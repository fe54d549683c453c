"""The posthus solver: an exact verdict for the current round, hints, a winnable-deal
picker and an expected-win estimate with redeals.

- ``solve(state, seconds)``: ``winnable`` with a winning line, ``unwinnable`` when the
  whole reachable space of the current round (no redeal) has been searched, ``unknown``
  when the time ran out.  A schedule of depth-first searches (``engine.JitDfs``: the
  compiled kernel of ``jit.py``, make/unmake on one grid, exact grid keys; the same
  search as the pure-Python ``fast.Dfs``, about five times faster) shares the time
  (``_schedule``): short pruned searches that find most
  wins in milliseconds, a short exact search that proves small spaces, then long pruned
  searches (``FORCED_LOOSE``, then ``LOOSE``) that keep their transposition table to the
  end, and the exact search, the only one whose exhaustion proves ``unwinnable``.
  ``node_limit`` caps the grids expanded by all searches together (the long searches
  get the same shares of it as of the time): a budget that gives the same verdict on
  any machine and load, when the time limit is generous.
  ``extra`` carries ``best_run_cards`` and ``best_line`` (the line to the grid with the
  most run cards found).
- ``hint(state, seconds)``: the solver's next move when winnable — the next move of a
  committed, tightened winning line (``hints.py``), so following the hints walks one
  winning line and never repeats a grid; otherwise the first move towards the grid with
  the most run cards, or ``redeal`` when no move adds a run card and a redeal is left.
- ``pick_winnable_deal(start, seconds, **flags)``: the first deal number from ``start``
  on whose first round the solver proves winnable (ordinary shuffles, screened).
- ``estimate(state, samples, seconds)``: see ``spillebord.solvers.posthus.estimate``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from spillebord.core.errors import NotationError
from spillebord.core.protocol import State
from spillebord.games.posthus import GAME
from spillebord.games.posthus.state import REDEAL, PosthusState
from spillebord.solvers import SolveResult, Verdict
from spillebord.solvers.posthus.estimate import estimate
from spillebord.solvers.posthus.hints import MEMORY
from spillebord.solvers.posthus.search import (
    EXACT,
    FORCED,
    FORCED_LOOSE,
    LOOSE,
    SUBSUMES,
    encode,
)

if TYPE_CHECKING:
    from spillebord.solvers.posthus.engine import JitDfs

FIRST_NODES = 1_500
FIRST_EXACT_NODES = 2_000
FORCED_LOOSE_SHARE = 0.7
LOOSE_SHARE = 0.95
UNLIMITED = 1 << 62
MAX_DEALS_SCREENED = 10_000

__all__ = ["estimate", "hint", "pick_winnable_deal", "solve"]


def _posthus(state: State) -> PosthusState:
    if not isinstance(state, PosthusState):
        raise NotationError("the posthus solver needs a posthus state")
    return state


def warm_up() -> None:
    """Load the compiled kernel (numba's import and the kernel's loading, or its first
    compile on a fresh checkout, cost a second or more, once per process)."""
    from spillebord.solvers.posthus import engine

    engine.warm_up()


def solve(state: State, seconds: float = 2.0, node_limit: int | None = None) -> SolveResult:
    """The verdict for the current round of ``state`` (no redeal), within ``seconds``
    and, when given, ``node_limit`` grids expanded."""
    st = _posthus(state)
    if not seconds > 0:
        raise NotationError("the solver needs a positive number of seconds")
    if node_limit is not None and node_limit < 1:
        raise NotationError("the node limit must be at least 1")
    # Paid once, by the first solve of a process, before its clock starts.
    warm_up()
    from spillebord.solvers.posthus import engine

    clock = engine.CLOCK
    began = clock()
    if st.is_won:
        return SolveResult("winnable", (), 0, 0.0, {"best_run_cards": 28, "best_line": []})
    if st.resigned:
        return SolveResult("unwinnable", (), 0, 0.0,
                           {"best_run_cards": sum(st.runs), "best_line": []})
    start = bytes(encode(st.grid))
    searches: list[JitDfs] = []
    verdict: Verdict = "unknown"
    exhausted: set[int] = set()
    budget = UNLIMITED if node_limit is None else node_limit
    for prune, end, max_nodes, share in _schedule(began, seconds):
        if node_limit is not None:
            used = sum(s.nodes for s in searches)
            max_nodes = min(max_nodes, int(budget * share) - used)
        if clock() >= end or prune in exhausted or max_nodes <= 0:
            continue
        search = engine.JitDfs(start, st.open_gaps, prune, end, max_nodes)
        searches.append(search)
        status = search.run()
        if status == "win":
            verdict = "winnable"
            break
        if status == "exhausted":
            if prune == EXACT:  # every reachable grid searched: a proof
                verdict = "unwinnable"
                break
            # A pruned space searched to the end holds no win, nor do its subspaces.
            exhausted.update((prune, *SUBSUMES[prune]))
    nodes = sum(s.nodes for s in searches)
    extra: dict[str, Any] = {"best_run_cards": sum(st.runs), "best_line": []}
    line: tuple[str, ...] = ()
    if searches:
        best = searches[-1] if verdict == "winnable" else max(
            searches, key=lambda s: s.best_run_cards)
        line = tuple(best.line)
        extra = {"best_run_cards": best.best_run_cards, "best_line": list(best.best_line)}
    return SolveResult(verdict, line, nodes, clock() - began, extra)


Phase = tuple[int, float, int, float]


def _schedule(began: float, seconds: float) -> Iterator[Phase]:
    """The searches of one solve: ``(pruning, deadline, node limit, share)``; with a
    node budget, a search ends when all searches so far expanded ``share`` of it.

    1. short pruned searches, ``FORCED`` then ``LOOSE``: most wins in milliseconds;
    2. a short exact search: small spaces (most lost deals) are proven at once;
    3. one long ``FORCED_LOOSE`` search up to 70% of the time, then one long ``LOOSE``
       search up to 95%: a single long search keeps its transposition table, and beat
       restarts with random tie-breaks and a greedy best-first search (measured on 40
       hard deals, 2 s each: a long ``LOOSE`` search won 16, the earlier portfolio 7;
       on 132 deals, a ``FORCED_LOOSE`` step first left 21–24 unknown against 28);
    4. the exact search for the rest of the time (it alone can prove ``unwinnable``
       when the space is larger than step 2's).
    """
    deadline = began + seconds
    yield FORCED, deadline, FIRST_NODES, 1.0
    yield LOOSE, deadline, FIRST_NODES, 1.0
    yield EXACT, deadline, FIRST_EXACT_NODES, 1.0
    yield FORCED_LOOSE, began + seconds * FORCED_LOOSE_SHARE, UNLIMITED, FORCED_LOOSE_SHARE
    yield LOOSE, began + seconds * LOOSE_SHARE, UNLIMITED, LOOSE_SHARE
    yield EXACT, deadline, UNLIMITED, 1.0


def hint(state: State, seconds: float = 1.0) -> str | None:
    """An action text: the winning move, else the move towards most run cards, else
    ``redeal`` (when one is left), else any card move; None when the game is over."""
    st = _posthus(state)
    if st.outcome is not None:
        return None
    committed = MEMORY.lookup(st)
    if committed is not None:
        return committed
    result = solve(st, seconds)
    if result.verdict == "winnable" and result.line:
        return MEMORY.commit(st, result.line)[0]
    best_line: list[str] = result.extra["best_line"]
    if best_line and result.extra["best_run_cards"] > sum(st.runs):
        return best_line[0]
    if st.redeals_left > 0:
        return REDEAL
    moves = st.card_moves
    return moves[0] if moves else None


def pick_winnable_deal(start: int, seconds: float = 2.0, **flags: bool) -> int:
    """The first deal number ``start``, ``start + 1`` … whose first round the solver
    proves winnable within ``seconds`` each."""
    GAME.check_deal(start)
    for deal in range(start, start + MAX_DEALS_SCREENED):
        if solve(GAME.new(deal=deal, **flags), seconds).verdict == "winnable":
            return deal
    raise NotationError(f"no winnable deal among {start} … {start + MAX_DEALS_SCREENED - 1}")
