"""A long proof run for one posthus round: the verdict with a budget of time and memory
far beyond the live solver's (used to decide every numbered deal for the shipped table,
``bench/posthus_deep.py``; docs/analysis.md has the figures).

Every pruned search of the live schedule (``solve``) is a subset of the exact game, and
for the hard deals the ``LOOSE`` space is searched to its end without a win in about a
second, so the long run is the live schedule first (``seconds`` of ``FIRST_SECONDS``),
then one exact depth-first search whose transposition table is allocated once at the
size the memory budget allows (24 bytes a slot, filled to 70%): it wins, or exhausts
the round (a proof of ``unwinnable``), or stops at the time limit or a full table
(``unknown``, with the reason in ``stopped``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from spillebord.core.errors import NotationError
from spillebord.core.protocol import State
from spillebord.solvers import Verdict
from spillebord.solvers.posthus import _posthus, engine, solve
from spillebord.solvers.posthus.search import EXACT, encode

FIRST_SECONDS = 2.0
SLOT_BYTES = 24


@dataclass(frozen=True)
class DeepResult:
    verdict: Verdict
    line: tuple[str, ...]
    nodes: int  # grids expanded by the exact search (or by the live schedule)
    seen: int  # grids marked in the exact search's table
    cpu_seconds: float  # CPU time of this process for the whole run
    wall_seconds: float
    table_slots: int  # 0 when the live schedule decided
    stopped: str  # "win", "exhausted", "schedule", "timeout" or "memory"


def table_slots_for(memory_bytes: int) -> int:
    """The largest power-of-two table that fits in ``memory_bytes``."""
    if memory_bytes < SLOT_BYTES * engine.TABLE_MIN:
        raise NotationError("the memory budget is too small for a table")
    slots = engine.TABLE_MIN
    while slots * 2 * SLOT_BYTES <= memory_bytes:
        slots *= 2
    return slots


def prove(state: State, seconds: float, memory_bytes: int,
          first_seconds: float = FIRST_SECONDS) -> DeepResult:
    """The verdict of the current round within ``seconds`` (wall) and a table of at
    most ``memory_bytes``; the live schedule gets the first ``first_seconds``."""
    st = _posthus(state)
    slots = table_slots_for(memory_bytes)
    began, cpu0 = time.perf_counter(), time.process_time()
    first = solve(st, min(first_seconds, seconds))
    if first.verdict != "unknown":
        return DeepResult(first.verdict, first.line, first.nodes, 0,
                          time.process_time() - cpu0, time.perf_counter() - began, 0,
                          "schedule")
    search = engine.JitDfs(bytes(encode(st.grid)), st.open_gaps, EXACT,
                           engine.CLOCK() + seconds, table_slots=slots,
                           max_table_slots=slots)
    status = search.run()
    verdict: Verdict = ("winnable" if status == "win"
                        else "unwinnable" if status == "exhausted" else "unknown")
    return DeepResult(verdict, tuple(search.line), search.nodes, search.seen,
                      time.process_time() - cpu0, time.perf_counter() - began, slots,
                      status)
