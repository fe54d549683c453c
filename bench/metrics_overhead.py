"""The per-action cost of the Prometheus hooks (server/http/metrics.py), measured directly.

An acknowledged action runs, beyond the work it did before metrics existed: two
``perf_counter`` calls (receive, acknowledged), ``Metrics.committed`` (a counter) and
``Metrics.acknowledged`` (a histogram), and its share of one ``Metrics.wrote`` per
group-writer batch (on the writer thread).  This times those calls in a loop — the
server benchmark (bench/server_load.py) cannot resolve a few microseconds on a shared
machine — and, for scale, one ``/metrics`` rendering with four games' series.

    python bench/metrics_overhead.py
"""

from __future__ import annotations

import os
import time
from types import SimpleNamespace
from typing import Any, cast

from spillebord.games import ready_keys
from spillebord.server.http.metrics import Live, Metrics

N = 200_000


def fake_live() -> Live:
    """What the scrape-time gauges read (no live games: the hooks do not touch them)."""
    return Live(sessions=lambda: (), scale=cast(Any, SimpleNamespace(parts=None)),
                parked=lambda: 0, sockets=lambda: 0, draining=lambda: False,
                inflight=dict, writer=lambda: None)


def per_call(fn: Any, n: int = N) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6


def main() -> None:
    metrics = Metrics(fake_live())
    games = ready_keys()
    for g in games:  # warm the label caches as a running server has them
        metrics.committed(g, "act", False)
        metrics.acknowledged(g, 0.001)
    clock = time.perf_counter

    def empty() -> None:
        pass

    def action() -> None:
        start = clock()
        metrics.committed("posthus", "act", False)
        metrics.acknowledged("posthus", clock() - start)

    def batch() -> None:
        metrics.wrote(8, 0.002)

    base = per_call(empty)
    rows = [("per action: 2 clocks + counter + histogram", per_call(action) - base),
            ("per writer batch: 2 histograms", per_call(batch) - base),
            ("one /metrics rendering", per_call(metrics.render, 200) - base)]
    cores = os.cpu_count()
    load = os.getloadavg()[0]
    print(f"metrics hook cost (CPU time, best of 5; {cores} cores, load {load:.1f})")
    print(f"{'what':<46} {'µs':>8}")
    for what, us in rows:
        print(f"{what:<46} {us:8.2f}")


if __name__ == "__main__":
    main()
