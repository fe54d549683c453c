"""``spillebord solve`` and ``spillebord analyse solve`` read the shipped table for the
opening of a numbered deal that the search leaves unknown, as the page's live verdict
does, and say so (docs/analysis.md, "The shipped table")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spillebord import games
from spillebord.cli.main import app
from spillebord.solvers import tables

runner = CliRunner()
DEAL = 20  # unwinnable by the table; the search needs far more than 0.2 s to prove it


def test_solve_answers_a_numbered_opening_from_the_table() -> None:
    assert tables.verdict("posthus", DEAL, {}) == "unwinnable"
    result = runner.invoke(app, ["solve", "posthus", "--deal", str(DEAL), "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["unwinnable"]
    assert "shipped table" in result.stderr and f"deal {DEAL}" in result.stderr
    result = runner.invoke(app, ["solve", "posthus", "--deal", str(DEAL), "--seconds", "0.2",
                                 "--json"])
    answer = json.loads(result.stdout)
    assert answer["verdict"] == "unwinnable" and answer["source"] == "table"


def test_a_position_file_is_solved_not_looked_up(tmp_path: Path) -> None:
    """The table covers new games of numbered deals; a position is the search's alone."""
    game = games.load("posthus")
    path = tmp_path / "pos.txt"
    path.write_text(game.format_position(game.new(deal=DEAL)), encoding="utf-8")
    result = runner.invoke(app, ["solve", "posthus", "--position", str(path),
                                 "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["verdict"] == "unknown" and answer["source"] == "solver"


def test_analyse_solve_says_what_the_table_decides(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="analyse writes Parquet: the research extra")
    out = tmp_path / "p.parquet"
    result = runner.invoke(app, ["analyse", "solve", "posthus", "--deals", str(DEAL),
                                 "--seconds", "5", "--nodes", "2000", "--workers", "0",
                                 "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "shipped table decides 1 of the 1 unknown" in text and "1 unwinnable" in text
