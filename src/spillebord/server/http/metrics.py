"""Prometheus metrics of one worker at ``GET /metrics`` (docs/metrics.md lists them).

Each worker has its own registry (one process, one port, one scrape target; tests run
several apps in one process).  Counters and histograms are bumped where things happen
(hooks in ws.py, sessions.py, the group writer and the compute pools); gauges are read
when scraped (``_Live``), so an idle worker pays nothing for them.  The per-action cost
is kept small by caching the labelled children (docs/benchmarks.md).

Who may read it: only a request that reached the worker directly, not through the
proxy (nginx always adds ``X-Forwarded-For``), and, when ``SPILLEBORD_METRICS_TOKEN``
is set, only with ``Authorization: Bearer <token>``; anything else gets 404 — the
figures are no secret but say how busy the site is (docs/security.md).
"""

from __future__ import annotations

import functools
import importlib.metadata
import platform
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import Request
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

    from spillebord.server.infra.storage.writer import GroupWriter
    from spillebord.server.room.session import Session
    from spillebord.server.scale.factory import ScaleOut

PROXY_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")
# Seconds: an action is acknowledged in about a millisecond on an idle worker.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                   2.5)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
COMPUTE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass(frozen=True)
class Live:
    """What the scrape-time gauges read (functions: read at each scrape)."""

    sessions: Callable[[], Iterable[Session]]  # the games in memory
    scale: ScaleOut
    parked: Callable[[], int]  # games parked so far (room/parking.py)
    sockets: Callable[[], int]  # open game sockets
    draining: Callable[[], bool]
    inflight: Callable[[], dict[str, int]]  # compute calls by pool
    writer: Callable[[], GroupWriter | None]  # None before the start
    warm: Callable[[], bool]  # the start-up is done (infra/warmup.py)


class Metrics:
    def __init__(self, live: Live) -> None:
        r = self.registry = CollectorRegistry()
        self.actions = Counter(
            "spillebord_actions", "Events committed by this worker (act, undo, redo), "
            "by game, kind and who made them (human or bot)", ["game", "kind", "by"],
            registry=r)
        self.refusals = Counter(
            "spillebord_refusals", "Requests refused, by refusal code and way in "
            "(ws: a socket message; http: an API call)", ["code", "via"], registry=r)
        self.latency = Histogram(
            "spillebord_action_seconds", "From a socket's action message received to "
            "its acknowledgement sent (committed, applied, new state on the socket)",
            ["game"], buckets=LATENCY_BUCKETS, registry=r)
        self.batch = Histogram(
            "spillebord_writer_batch_size", "Requests committed together by the group "
            "writer in one transaction", buckets=BATCH_BUCKETS, registry=r)
        self.commit = Histogram(
            "spillebord_writer_commit_seconds", "Time of one group-writer transaction",
            buckets=COMMIT_BUCKETS, registry=r)
        self.compute = Histogram(
            "spillebord_compute_seconds", "Bot decisions and solver calls, queued to "
            "answered, by pool (bots, solver)", ["pool"], buckets=COMPUTE_BUCKETS,
            registry=r)
        self.http_errors = Counter(
            "spillebord_http_errors", "HTTP responses with a 5xx status, by status (503: "
            "draining, unavailable; 500: the server failed)", ["status"], registry=r)
        for status in ("500", "503"):  # shown from the start, at 0
            self.http_errors.labels(status)
        self.database_up = True  # set by each scrape's check (``metrics`` below)
        r.register(_Live(self, live))
        ProcessCollector(registry=r)
        self._committed: dict[tuple[str, str, bool], Counter] = {}
        self._acked: dict[str, Histogram] = {}
        self._refused: dict[tuple[str, str], Counter] = {}

    # -- hooks (hot path: cached children, no label lookups) ---------------------------
    def committed(self, game: str, kind: str, by_bot: bool) -> None:
        key = (game, kind, by_bot)
        child = self._committed.get(key)
        if child is None:
            child = self._committed[key] = self.actions.labels(
                game, kind, "bot" if by_bot else "human")
        child.inc()

    def acknowledged(self, game: str, seconds: float) -> None:
        child = self._acked.get(game)
        if child is None:
            child = self._acked[game] = self.latency.labels(game)
        child.observe(seconds)

    def refused(self, code: str, via: str = "ws") -> None:
        key = (code, via)
        child = self._refused.get(key)
        if child is None:
            child = self._refused[key] = self.refusals.labels(code, via)
        child.inc()

    def wrote(self, requests: int, seconds: float) -> None:
        """The group writer committed a batch (called on the writer's thread)."""
        self.batch.observe(requests)
        self.commit.observe(seconds)

    def computed(self, pool: str, seconds: float) -> None:
        self.compute.labels(pool).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Live(Collector):
    """Gauges read at scrape time."""

    def __init__(self, metrics: Metrics, live: Live) -> None:
        self.metrics = metrics
        self.live = live

    def collect(self) -> Iterator[Metric]:
        live = self.live
        games = GaugeMetricFamily("spillebord_live_games", "Unfinished games in memory "
                                  "that this worker runs (shared mode: owns), so the sum "
                                  "over the workers counts each game once", labels=["game"])
        replicas = GaugeMetricFamily("spillebord_game_replicas", "Unfinished games in "
                                     "memory that another worker owns or nobody does yet "
                                     "(shared mode: copies for the sockets here)")
        held = None if live.scale.parts is None else live.scale.parts.owners.held
        by_game: dict[str, int] = {}
        copies = 0
        for session in list(live.sessions()):
            if not session.running:
                continue
            if held is not None and session.id not in held:
                copies += 1
                continue
            by_game[session.row.game] = by_game.get(session.row.game, 0) + 1
        for game, n in sorted(by_game.items()):
            games.add_metric([game], n)
        yield games
        replicas.add_metric([], copies)
        yield replicas
        yield GaugeMetricFamily("spillebord_database_up", "1 when the database answered "
                                "the check made for this scrape (within 2 s)",
                                value=1 if self.metrics.database_up else 0)
        info = GaugeMetricFamily("spillebord_build", "The running release (always 1)",
                                 labels=["version", "python"])
        info.add_metric([_version(), platform.python_version()], 1)
        yield info
        yield CounterMetricFamily("spillebord_games_parked", "Idle games this worker let "
                                  "go from memory (no socket, no move for the idle "
                                  "time; reloaded on demand)", value=live.parked())
        yield GaugeMetricFamily("spillebord_sockets", "Open game sockets on this worker",
                                value=live.sockets())
        queue = GaugeMetricFamily("spillebord_compute_queue", "Bot decisions and solver "
                                  "calls waiting or running, by pool", labels=["pool"])
        for pool in ("bots", "solver"):
            queue.add_metric([pool], live.inflight().get(pool, 0))
        yield queue
        yield GaugeMetricFamily("spillebord_draining", "1 while the worker drains",
                                value=1 if live.draining() else 0)
        yield GaugeMetricFamily("spillebord_warming", "1 while the worker starts up "
                                "(kernels, games, worker processes: infra/warmup.py)",
                                value=0 if live.warm() else 1)
        yield from _write_health(live.writer())
        parts = live.scale.parts
        if parts is not None:
            owners = parts.owners
            yield GaugeMetricFamily("spillebord_game_leases_held", "Live games this worker "
                                    "owns (runs their events and bots; shared mode)",
                                    value=len(owners.held))
            yield CounterMetricFamily("spillebord_game_leases_taken", "Game leases this "
                                      "worker took: games nobody owned (new, released "
                                      "by a draining worker or given away) and games "
                                      "taken over", value=owners.acquired)
            yield CounterMetricFamily("spillebord_game_leases_taken_over", "Of those, games "
                                      "taken from an owner whose lease had expired (it "
                                      "died or stalled)", value=owners.taken_over)
            yield CounterMetricFamily("spillebord_game_leases_lost", "Leases this worker "
                                      "found taken by another (it stalled past the "
                                      "lease)", value=owners.lost)
            yield CounterMetricFamily("spillebord_events_forwarded", "Events of sockets "
                                      "here sent to the game's owner on another worker",
                                      value=parts.forwarder.sent)
            yield CounterMetricFamily("spillebord_events_served", "Events this owner ran "
                                      "for sockets on other workers",
                                      value=parts.forwarder.served)
            stats = parts.bus.stats
            yield GaugeMetricFamily("spillebord_redis_connected", "1 while the Redis bus "
                                    "is subscribed", value=1 if stats.connected else 0)
            for name, value, text in (
                    ("published", stats.published, "Announcements sent to Redis"),
                    ("received", stats.received, "Announcements received from Redis"),
                    ("publish_failures", stats.publish_failures,
                     "Announcements Redis refused (retried)"),
                    ("disconnects", stats.disconnects, "Redis connections lost")):
                yield CounterMetricFamily(f"spillebord_redis_{name}", text, value=value)
            yield CounterMetricFamily("spillebord_replica_event_reads", "Reads of a game's "
                                      "newest events from the database by this worker's "
                                      "copy of it (a gap, a reconnect, a take-over, a "
                                      "socket's hello)", value=parts.replica.event_reads)
            yield CounterMetricFamily("spillebord_replica_events_applied", "Events another "
                                      "worker committed that this worker's copy of the "
                                      "game applied from the message that shipped them "
                                      "(the bus, a forwarded move's answer)",
                                      value=parts.replica.events_applied)


def _write_health(writer: GroupWriter | None) -> Iterator[Metric]:
    """The group writer's failed writes by reason (storage/health.py) and whether they
    keep failing (then ``/readyz`` says not ready: ``writes``)."""
    if writer is None:  # not started
        return
    health = writer.health
    failures = CounterMetricFamily(
        "spillebord_write_failures", "Writes of game events and chat lines the database "
        "did not take, by reason: unavailable (cannot be reached), conflict (refused "
        "the rows: this worker's copy of a game is wrong), other", labels=["reason"])
    for reason, n in health.failures.items():
        failures.add_metric([reason], n)
    yield failures
    yield GaugeMetricFamily("spillebord_writes_failing", "1 while conflicts or other "
                            "write failures keep coming (5 within 60 s): /readyz says "
                            "not ready", value=1 if health.keeps_failing() else 0)


@functools.cache
def _version() -> str:
    try:
        return importlib.metadata.version("spillebord")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a bare checkout
        return "unknown"


class CountServerErrors:
    """Counts every HTTP response with a 5xx status (an exception on its way out
    counts as the 500 it becomes)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def watching(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 500:
                self.metrics.http_errors.labels(str(message["status"])).inc()
            await send(message)

        try:
            await self.app(scope, receive, watching)
        except Exception:
            self.metrics.http_errors.labels("500").inc()
            raise


def allowed(request: Request, token: str | None) -> bool:
    """Direct requests only (not through the proxy), with the token when one is set."""
    if any(h in request.headers for h in PROXY_HEADERS):
        return False
    if token:
        given = request.headers.get("authorization", "")
        return secrets.compare_digest(given.encode(), f"Bearer {token}".encode())
    return True
