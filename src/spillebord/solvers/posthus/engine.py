"""``JitDfs``: the compiled depth-first search (``jit.run``) behind ``fast.Dfs``'s
interface — ``run()`` says ``win``, ``exhausted``, ``timeout`` or ``memory``; ``line``
is the winning line, ``best_line`` the line to the grid with most run cards, ``nodes``
the grids expanded and ``seen`` the grids marked (expanded or queued).

The kernel runs in chunks of ``CHUNK`` nodes; between chunks the clock is read and,
when the kernel asks (``GROW``), the hash table, the path and the child stack are
doubled.  ``table_slots`` fixes the table's first size (a power of two; 24 bytes a
slot) and ``max_table_slots`` caps it: a search that would need a larger table stops
with ``memory`` (a long proof run sizes its table once, up to what fits in memory, and
never pays a rehash that needs the old and the new table at once).  The search visits
the same grids in the same order as ``fast.Dfs`` (a test checks it), so an exhausted
``EXACT`` search has marked every grid reachable in the round: a proof that the round
cannot be won.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from spillebord.solvers.posthus import jit
from spillebord.solvers.posthus import table as keys
from spillebord.solvers.posthus.search import move_text, run_lengths

CHUNK = 20_000
TABLE_MIN = 1 << 12
TABLE_MAX = 1 << 23  # 8 M keys, 192 MB (zero pages until used); a larger one grows on demand
REHASH_SECONDS = 2e-7  # per slot, a pessimistic time to double the table
RATE = 2_500_000  # marked grids per second, to size the table (measured: 1–3 M)
PATH0 = 1 << 12
# The clock of deadlines (``solve`` and ``JitDfs``): wall time; the benchmark may set
# ``time.process_time`` to give each deal the same CPU time on a loaded machine.
CLOCK = time.perf_counter


@dataclass
class JitDfs:
    start: bytes
    open_gaps: bool
    prune: int
    deadline: float
    max_nodes: int = 1 << 62
    symmetry: bool = False
    table_slots: int = 0  # 0: sized from the time limit (``_table_size``)
    max_table_slots: int = 0  # 0: no cap
    nodes: int = 0
    seen: int = 0
    line: list[str] = field(default_factory=list)
    best_run_cards: int = -1
    best_line: list[str] = field(default_factory=list)

    def run(self) -> str:
        if self.table_slots & (self.table_slots - 1) or self.table_slots < 0:
            raise ValueError("table_slots is 0 or a power of two")
        grid = np.frombuffer(self.start, dtype=np.uint8).astype(np.int64)
        pos = np.zeros(29, dtype=np.int64)
        for i, v in enumerate(self.start):
            if v:
                pos[v] = i
        gaps = np.array([i for i, v in enumerate(self.start) if not v], dtype=np.int64)
        runs = np.array(run_lengths(self.start), dtype=np.int64)
        self.best_run_cards = int(runs.sum())
        if self.best_run_cards == 28:
            return "win"
        st = np.zeros(jit.S_SIZE, dtype=np.int64)
        st[jit.S_ROWS:jit.S_ROWS + 4] = keys.row_values(self.start)
        st[jit.S_SYM] = int(self.symmetry)
        st[jit.S_OPEN] = int(self.open_gaps)
        st[jit.S_PRUNE] = self.prune
        st[jit.S_BEST] = self.best_run_cards
        table = np.zeros((self.table_slots or self._table_size(), 3), dtype=np.int64)
        keys.insert(table, *keys.start_key(self.start, self.symmetry))
        st[jit.S_COUNT] = 1
        path = np.zeros((PATH0, jit.PATH_COLUMNS), dtype=np.int64)
        best_path = np.zeros((PATH0, jit.PATH_COLUMNS), dtype=np.int64)
        fstart = np.zeros(PATH0 + 1, dtype=np.int64)
        pend = np.zeros((PATH0 * 8, jit.PEND_COLUMNS), dtype=np.int64)
        status = "timeout"
        while True:
            limit = min(CHUNK, self.max_nodes - int(st[jit.S_NODES]))
            if limit <= 0 or CLOCK() > self.deadline:
                break
            code = jit.run(st, grid, pos, gaps, runs, table, path, pend, fstart, best_path,
                           limit)
            if code == jit.WIN:
                status = "win"
                break
            if code == jit.EXHAUSTED:
                status = "exhausted"
                break
            if code == jit.GROW:
                if (int(st[jit.S_COUNT]) + jit.MAX_CHILDREN) * 10 > table.shape[0] * 7:
                    if self.max_table_slots and table.shape[0] * 2 > self.max_table_slots:
                        status = "memory"  # the table may not grow: out of budget
                        break
                    if CLOCK() + table.shape[0] * REHASH_SECONDS > self.deadline:
                        break  # no time left to double the table: a timeout
                    bigger = np.zeros((table.shape[0] * 2, 3), dtype=np.int64)
                    keys.rehash(table, bigger)
                    table = bigger
                if int(st[jit.S_PLEN]) + 2 >= path.shape[0]:
                    path = _doubled(path)
                    best_path = _doubled(best_path)
                    fstart = np.concatenate([fstart, np.zeros(path.shape[0] + 1
                                                              - fstart.shape[0], np.int64)])
                if int(st[jit.S_NPEND]) + jit.MAX_CHILDREN >= pend.shape[0]:
                    pend = _doubled(pend)
        self.nodes = int(st[jit.S_NODES])
        self.seen = int(st[jit.S_COUNT])
        self.best_run_cards = int(st[jit.S_BEST])
        self.best_line = [move_text(int(row[0]), int(row[2]))
                          for row in best_path[:int(st[jit.S_BESTLEN])]]
        if status == "win":
            self.line = list(self.best_line)
        return status


    def _table_size(self) -> int:
        """Room for the grids the search can mark before its limits (the table is
        zero-filled lazily by the OS, so unused room costs little); growing it later
        costs a rehash, about a third of the search time when it starts small."""
        expected = min(self.max_nodes * 4,
                       max(0.0, self.deadline - CLOCK()) * RATE)
        size = TABLE_MIN
        while size < TABLE_MAX and size * 0.7 < expected:
            size *= 2
        return size


_WARM: list[bool] = []


def warm_up() -> None:
    """Compile the kernel, or load it from numba's cache, once per process (seconds on
    the first compile, a fraction of a second from the cache) — callers do this before
    they start their clock."""
    if not _WARM:
        grid = bytes([1, 2, 3, 4, 5, 6, 7, 0, 8, 9, 10, 11, 12, 13, 14, 0,
                      15, 16, 17, 18, 19, 20, 21, 0, 22, 23, 24, 25, 26, 27, 0, 28])
        JitDfs(grid, False, 0, CLOCK() + 60.0).run()
        _WARM.append(True)


def _doubled(a: np.ndarray) -> np.ndarray:
    return np.concatenate([a, np.zeros_like(a)])
