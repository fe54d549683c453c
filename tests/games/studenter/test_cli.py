"""The CLI for studenter: solve by deal and by position file, moves, bad input → exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spillebord.cli.main import app
from spillebord.core.protocol import replay
from spillebord.games.studenter import GAME

from .builder import position_json

runner = CliRunner()


def test_solve_by_deal_prints_a_line_that_wins() -> None:
    result = runner.invoke(app, ["solve", "studenter", "--deal", "1", "--seconds", "10"])
    assert result.exit_code == 0, result.output
    lines = result.output.split()
    assert lines[0] == "winnable"
    final = replay(GAME.new(deal=1), lines[1:])
    assert final.outcome is not None and final.outcome.reason == "won"


def test_solve_json_output() -> None:
    result = runner.invoke(app, ["solve", "studenter", "-d", "2", "--seconds", "10", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "winnable" and data["line"] and data["bonus"] in (1, 2, 3)


def test_solve_by_position_file(tmp_path: Path) -> None:
    # base 8, f8 needs a 5, which lies under the 7 and the 6; the leftmost move is used.
    stuck_soon = json.loads(position_json(row=["5D", "7D", "6D"], stock=[],
                                          heights=[13] * 7 + [10], pass_no=3))
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(stuck_soon), encoding="utf-8")
    result = runner.invoke(app, ["solve", "studenter", "--position", str(path),
                                 "--seconds", "5"])
    assert result.exit_code == 0, result.output
    assert result.output.split() == ["winnable", "left>row", "row>f8", "row>f8", "row>f8"]
    stuck_soon["left_used"] = True
    path.write_text(json.dumps(stuck_soon), encoding="utf-8")
    result = runner.invoke(app, ["solve", "studenter", "-p", str(path), "--seconds", "5"])
    assert result.exit_code == 0 and result.output.split() == ["unwinnable"]


def test_moves_lists_the_legal_actions() -> None:
    result = runner.invoke(app, ["moves", "studenter", "--deal", "1"])
    assert result.exit_code == 0
    assert result.output.splitlines() == [str(a) for a in GAME.new(deal=1).legal_actions()]


def test_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"pass": 1, "base": "X", "row": [], "foundations": [], "helpers": [],'
                   ' "stock": [], "waste": [], "left_used": false}', encoding="utf-8")
    for args in (
        ["solve", "studenter", "--position", str(bad)],
        ["solve", "studenter", "--position", str(tmp_path / "missing.json")],
        ["solve", "studenter", "--deal", "-3"],
        ["solve", "studenter", "--deal", "1", "--seconds", "0"],
        ["moves", "studenter", "--position", str(bad)],
        ["apply", "studenter", "h1>f9", "--deal", "1"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        err = result.stderr if result.stderr_bytes is not None else result.output
        assert err.startswith("error: ") and err.count("\n") == 1, err
