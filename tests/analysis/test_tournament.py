"""``spillebord analyse tournament`` and ``ladder``: games on Ray are the games played in
this process, the OpenSkill ladder rates every bot with an interval, the chart is drawn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from typer.testing import CliRunner

from spillebord.analysis import ratings
from spillebord.cli.main import app

from .helpers import finish, ray_head, start

TIMING = ("decision_cpu", "cpu_seconds", "wall_seconds")


def _games(path: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING}
            for r in pq.read_table(path).to_pylist()]


def test_a_tournament_on_ray_plays_the_in_process_games_and_rates_every_bot(
        tmp_path: Path) -> None:
    # On a cluster started by `ray start` (--address); the other tests use the local
    # cluster the command starts itself.
    args = ["tournament", "gammel_jomfru", "--seats", "4", "--bots", "random,L1",
            "--games", "12"]
    with ray_head() as address:
        out, _ = finish(start(*args, "--address", address, "--out", "ray.parquet",
                              "--ladder", "ladder.svg", cwd=tmp_path))
    assert "on Ray, 2 CPUs" in _
    games = _games(tmp_path / "ray.parquet")
    assert [g["game_no"] for g in games] == list(range(12))
    for g in games:  # deal seed + g // 2, seat s plays bots[(s + g) mod 2]
        assert g["deal"] == 1 + g["game_no"] // 2
        assert g["seat_bots"] == [("random", "L1")[(s + g["game_no"]) % 2] for s in range(4)]
        assert sorted(g["ranks"]) == [1, 2, 3, 4] and len(g["losers"]) == 1
    local = CliRunner().invoke(app, ["analyse", *args, "--workers", "0", "--quiet", "--out",
                                     str(tmp_path / "local.parquet")])
    assert local.exit_code == 0, local.output
    assert _games(tmp_path / "local.parquet") == games
    assert "random" in out and "L1" in out and "95% interval" in out
    svg = (tmp_path / "ladder.svg").read_text()
    assert svg.startswith("<?xml") and "random" in svg and "L1" in svg

    result = CliRunner().invoke(app, ["analyse", "ladder", str(tmp_path / "local.parquet"),
                                      "--out", str(tmp_path / "again.svg"), "--json"])
    assert result.exit_code == 0, result.output
    ladder = json.loads(result.stdout.splitlines()[0])[0]
    assert {r["bot"] for r in ladder["ratings"]} == {"random", "L1"}
    for r in ladder["ratings"]:
        lo, hi = r["ci95"]
        assert lo < r["mu"] < hi and r["seat_games"] == 24
    # Drawn from the same games, the chart is the same file.
    assert (tmp_path / "again.svg").read_bytes() == (tmp_path / "ladder.svg").read_bytes()


def test_kugler_teams_in_process(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["analyse", "tournament", "kugler", "--seats", "4",
                                      "--bots", "L1,L2", "--games", "2", "--workers", "0",
                                      "--quiet", "--out", str(tmp_path / "k.parquet")])
    assert result.exit_code == 0, result.output
    for g in pq.read_table(tmp_path / "k.parquet").to_pylist():
        bots = g["seat_bots"]
        assert bots[0] == bots[2] and bots[1] == bots[3] and bots[0] != bots[1]
        assert sum(g["decisions"]) > 0 and len(g["winners"]) in (0, 2)


def _row(lineup: list[str], ranks: list[int], game_no: int) -> dict[str, Any]:
    return {"game": "gammel_jomfru", "flags": "", "seats": 3, "bots": "a,b,c", "seed": 1,
            "game_no": game_no, "seat_bots": lineup, "ranks": ranks,
            "winners": [s for s, r in enumerate(ranks) if r < 3]}


def test_ratings_order_bots_by_results_and_skip_one_bot_tables() -> None:
    rows = [_row(["a", "b", "c"][g % 3:] + ["a", "b", "c"][:g % 3], [0, 0, 0], g)
            for g in range(30)]
    for row in rows:  # a always first, c always last, wherever they sit
        row["ranks"] = [{"a": 1, "b": 2, "c": 3}[b] for b in row["seat_bots"]]
    ladder = ratings.rate("gammel_jomfru", "", 3, rows)
    assert [r.bot for r in ladder.ratings] == ["a", "b", "c"]
    assert ladder.ratings[0].interval[0] > ladder.ratings[2].interval[1]
    same = ratings.rate("gammel_jomfru", "", 3, [_row(["a", "a", "a"], [1, 2, 3], 0)])
    assert same.ratings[0].mu == ratings.rating.default()[0]
