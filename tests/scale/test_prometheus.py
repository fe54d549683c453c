"""Issue 31, finding 7: the shipped alert rules and dashboard, checked by the real tools.

- ``promtool check rules`` and ``promtool test rules`` (Debian's ``prometheus``
  package) on ops/prometheus/alerts.yml and its unit tests;
- a real Prometheus scrapes two real workers (PostgreSQL + Redis of their own) every
  second with those rules: every query of the Grafana dashboard
  (ops/grafana/spillebord.json) answers and names only metrics the workers serve; when
  PostgreSQL stops and a player's moves cannot be written, ``SpillebordWritesFailing``
  and ``SpillebordDatabaseDown`` fire."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.scale.cluster import cluster, opened, post
from tests.services import PG_BIN, Postgres, Redis, free_port, wait_port

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "ops" / "prometheus"
DASHBOARD = ROOT / "ops" / "grafana" / "spillebord.json"
PROMTOOL = shutil.which("promtool")
PROMETHEUS = shutil.which("prometheus")


def _need(binary: str | None) -> str:
    if binary is None:
        pytest.skip("Prometheus is not installed (scripts/system-deps.sh installs it)")
    return binary


def test_alert_rules_pass_promtool() -> None:
    promtool = _need(PROMTOOL)
    for args in (["check", "rules", "alerts.yml"], ["test", "rules", "alerts_test.yml"]):
        done = subprocess.run([promtool, *args], cwd=RULES, capture_output=True, text=True,
                              timeout=60, check=False)
        assert done.returncode == 0, done.stdout + done.stderr


def dashboard_queries() -> list[str]:
    board = json.loads(DASHBOARD.read_text())
    return [t["expr"] for p in board["panels"] for t in p["targets"]]


def metric_names(expr: str) -> set[str]:
    return {m for m in re.findall(r"\b(spillebord_[a-z_]+)", expr)}


async def query(http: httpx.AsyncClient, base: str, expr: str) -> list[dict[str, Any]]:
    r = await http.get(f"{base}/api/v1/query", params={"query": expr})
    body = r.json()
    assert body["status"] == "success", (expr, body)
    out: list[dict[str, Any]] = body["data"]["result"]
    return out


async def firing(http: httpx.AsyncClient, base: str) -> set[str]:
    alerts = (await http.get(f"{base}/api/v1/alerts")).json()["data"]["alerts"]
    return {a["labels"]["alertname"] for a in alerts if a["state"] == "firing"}


@pytest.mark.services
@pytest.mark.slow
async def test_a_real_prometheus_scrapes_two_workers_and_alerts(redis_server: Redis
                                                                ) -> None:
    del redis_server
    prometheus = _need(PROMETHEUS)
    if not PG_BIN:
        pytest.skip("PostgreSQL is not installed")
    pg, redis = Postgres.start(), Redis.start()
    data = Path(tempfile.mkdtemp(prefix="spillebord-prom-"))
    try:
        with cluster(pg, redis, pg.url(), n=2) as w:
            port = free_port()
            targets = json.dumps([f"127.0.0.1:{x.port}" for x in w.items])
            (data / "prometheus.yml").write_text(
                "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                f"rule_files: [{RULES / 'alerts.yml'}]\n"
                "scrape_configs:\n- job_name: spillebord\n"
                f"  static_configs: [{{targets: {targets}}}]\n")
            proc = subprocess.Popen(
                [prometheus, f"--config.file={data / 'prometheus.yml'}",
                 f"--storage.tsdb.path={data / 'tsdb'}",
                 f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            base = f"http://127.0.0.1:{port}"
            halted = False
            try:
                wait_port(port, 60, proc)
                made = await post(w[0].http, "/api/matches",
                                  {"game": "posthus", "seats": ["me"], "deal": 9})
                c = await opened(w[0].ws, made["match_id"], made["token"])
                assert c.state is not None
                await c.send("act", v=0, action=c.state["legal"][0])
                await c.until(lambda s: c.version >= 1)
                await c.send("act", v=0, action=c.state["legal"][0])  # a refusal: stale
                assert (await c.recv())["d"]["code"] == "stale"
                async with httpx.AsyncClient(timeout=10) as http:
                    deadline = time.monotonic() + 60
                    while len(await query(http, base, 'up{job="spillebord"} == 1')) < 2:
                        assert time.monotonic() < deadline, "Prometheus never scraped both"
                        await asyncio.sleep(0.5)
                    await asyncio.sleep(3)  # a few scrapes for the rate() panels
                    served = {s["__name__"] for s in (await http.get(
                        f"{base}/api/v1/series",
                        params={"match[]": '{__name__=~"spillebord_.+"}'})).json()["data"]}
                    for expr in dashboard_queries():
                        await query(http, base, expr)  # answers, without an error
                        for name in metric_names(expr):
                            assert name in served, f"the dashboard asks for {name}"
                    assert await firing(http, base) == set(), "alerts with all well"

                    pg.halt()
                    halted = True
                    for _ in range(3):  # moves that cannot be written
                        await c.send("act", v=c.version, action=c.state["legal"][0])
                        msg = await c.recv(15)
                        assert msg["t"] == "error" and msg["d"]["code"] == "unavailable"
                    deadline = time.monotonic() + 60
                    want = {"SpillebordWritesFailing", "SpillebordDatabaseDown"}
                    while not want <= (now := await firing(http, base)):
                        assert time.monotonic() < deadline, f"firing: {now}"
                        await asyncio.sleep(0.5)
                await c.close()
            finally:
                proc.terminate()
                proc.wait(20)
                if halted:
                    pg.resume()
    finally:
        redis.stop()
        pg.stop()
        shutil.rmtree(data, ignore_errors=True)
