"""The posthus solver: an exact verdict for the current round, hints, a winnable-deal
picker and an expected-win estimate with redeals.

- ``solve(state, seconds)``: ``winnable`` with a winning line, ``unwinnable`` when the
  whole reachable space of the current round (no redeal) has been searched, ``unknown``
  when the time ran out.  A portfolio of searches shares the time (``_schedule``):
  pruned depth-first searches that keep runs or let only a run's last card leave (they
  find most wins in milliseconds but prove nothing), a short exact search, an exact
  best-first search, restarts of the pruned searches with random tie-breaks, and the
  exact depth-first search, the only one whose exhaustion proves ``unwinnable``.
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

import random
import time
from collections.abc import Iterator
from typing import Any

from spillebord.core.errors import NotationError
from spillebord.core.protocol import State
from spillebord.games.posthus import GAME
from spillebord.games.posthus.state import REDEAL, PosthusState
from spillebord.solvers import SolveResult, Verdict
from spillebord.solvers.posthus.estimate import estimate
from spillebord.solvers.posthus.fast import Dfs
from spillebord.solvers.posthus.hints import MEMORY
from spillebord.solvers.posthus.search import EXACT, FORCED, KEEP_RUNS, LOOSE, Search, encode

FIRST_EXACT_NODES = 4_000
RESTART_NODES = 1_500
RESTART_GROWTH = 1.4
BEST_FIRST_SHARE = 0.2
RESTART_SHARE = 0.85
MAX_DEALS_SCREENED = 10_000
# Restart rotation; (FORCED, LOOSE) won 6 of 20 hard deals (2 s each) twice, against
# 2-5 for (KEEP_RUNS, LOOSE), (FORCED, KEEP_RUNS, LOOSE) and other mixes.
RESTARTS = (FORCED, LOOSE)

__all__ = ["estimate", "hint", "pick_winnable_deal", "solve"]


def _posthus(state: State) -> PosthusState:
    if not isinstance(state, PosthusState):
        raise NotationError("the posthus solver needs a posthus state")
    return state


def solve(state: State, seconds: float = 2.0) -> SolveResult:
    """The verdict for the current round of ``state`` (no redeal), within ``seconds``."""
    st = _posthus(state)
    if not seconds > 0:
        raise NotationError("the solver needs a positive number of seconds")
    began = time.perf_counter()
    if st.is_won:
        return SolveResult("winnable", (), 0, 0.0, {"best_run_cards": 28, "best_line": []})
    if st.resigned:
        return SolveResult("unwinnable", (), 0, 0.0,
                           {"best_run_cards": sum(st.runs), "best_line": []})
    start = bytes(encode(st.grid))
    rng = random.Random(start)
    searches: list[Search | Dfs] = []
    verdict: Verdict = "unknown"
    exhausted: set[int] = set()
    for prune, end, max_nodes, jitter, best_first in _schedule(began, seconds, exhausted):
        if time.perf_counter() >= end or prune in exhausted:
            continue
        search: Search | Dfs
        if best_first:
            search = Search(start, st.open_gaps, prune, end, max_nodes, None, True)
        else:
            search = Dfs(start, st.open_gaps, prune, end, max_nodes, rng if jitter else None)
        searches.append(search)
        status = search.run()
        if status == "win":
            verdict = "winnable"
            break
        if status == "exhausted":
            if prune == EXACT:  # every reachable grid searched: a proof
                verdict = "unwinnable"
                break
            exhausted.add(prune)
    nodes = sum(s.nodes for s in searches)
    extra: dict[str, Any] = {"best_run_cards": sum(st.runs), "best_line": []}
    line: tuple[str, ...] = ()
    if searches:
        best = searches[-1] if verdict == "winnable" else max(
            searches, key=lambda s: s.best_run_cards)
        line = tuple(best.line)
        extra = {"best_run_cards": best.best_run_cards, "best_line": list(best.best_line)}
    return SolveResult(verdict, line, nodes, time.perf_counter() - began, extra)


Phase = tuple[int, float, int, bool, bool]


def _schedule(began: float, seconds: float, exhausted: set[int]) -> Iterator[Phase]:
    """The searches of one solve: ``(pruning, deadline, node limit, random ties?,
    best-first?)``.

    1. short depth-first pruned searches (``FORCED``, ``KEEP_RUNS``, ``LOOSE``): most
       wins in milliseconds;
    2. a short exact search: small spaces (most lost deals) are proven at once;
    3. an exact greedy best-first search (it finds wins the depth-first orders miss);
    4. restarts of the depth-first pruned searches in turn, with growing node limits
       and random tie-breaks (depth-first search has heavy tails: a fresh order
       often finds at once what one order misses);
    5. the exact depth-first search for the rest of the time (it alone can prove
       ``unwinnable`` when the space is larger than step 2's).
    """
    deadline = began + seconds
    restarts_end = began + seconds * RESTART_SHARE
    yield FORCED, restarts_end, RESTART_NODES, False, False
    yield KEEP_RUNS, restarts_end, RESTART_NODES, False, False
    yield LOOSE, restarts_end, RESTART_NODES, False, False
    yield EXACT, deadline, FIRST_EXACT_NODES, False, False
    yield EXACT, began + seconds * BEST_FIRST_SHARE, 1 << 62, False, True
    budget = float(RESTART_NODES)
    i = 0
    # A pruned space searched to the end holds no win: that pruning is not run again.
    while time.perf_counter() < restarts_end and not set(RESTARTS) <= exhausted:
        if i % len(RESTARTS) == 0:
            budget = min(budget * RESTART_GROWTH, 1e12)
        prune = RESTARTS[i % len(RESTARTS)]
        if prune not in exhausted:
            yield prune, restarts_end, int(budget), True, False
        i += 1
    yield EXACT, deadline, 1 << 62, False, False


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
