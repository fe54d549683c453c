"""The spillebord command over every registered game: moves, apply, simulate, refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spillebord import games
from spillebord.cli.main import app
from spillebord.cli.simulate import parse_bot_spec

runner = CliRunner()


@pytest.mark.parametrize("key", games.keys())
def test_moves_and_apply_round_trip_through_position_files(key: str, tmp_path: Path) -> None:
    game = games.load(key)
    state = game.new(deal=3)
    path = tmp_path / "pos.txt"
    path.write_text(game.format_position(state), encoding="utf-8")
    result = runner.invoke(app, ["moves", key, "--position", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [str(a) for a in state.legal_actions()]
    first = str(state.legal_actions()[0])
    result = runner.invoke(app, ["apply", key, "--position", str(path), first])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == game.format_position(state.apply(first)).strip()


@pytest.mark.parametrize("key", games.keys())
def test_moves_reads_stdin(key: str) -> None:
    game = games.load(key)
    text = game.format_position(game.new(deal=4))
    result = runner.invoke(app, ["moves", key, "--position", "-"], input=text)
    assert result.exit_code == 0
    assert result.output.splitlines() == [str(a) for a in game.new(deal=4).legal_actions()]


@pytest.mark.parametrize(
    "args",
    [
        ["moves", "no_such_game", "--deal", "1"],
        ["moves", "posthus", "--position", "/no/such/file"],
        ["apply", "posthus", "--deal", "1", "this is not an action"],
        ["simulate", "kugler", "--games", "1", "--bots", "nobody"],
        ["simulate", "kugler", "--games", "1", "--bots", "greedy:x"],
        ["solve", "gammel_jomfru", "--deal", "1"],
        ["moves", "posthus"],
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(args: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "spillebord.cli.main", *args],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in proc.stderr


def test_broken_position_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.txt"
    path.write_text("7H 8H\n--", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "spillebord.cli.main", "moves", "posthus", "--position",
         str(path)], capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_bot_specs_parse_options() -> None:
    assert parse_bot_spec("ismcts:iterations=30:seconds=0.5") == (
        "ismcts", {"iterations": 30, "seconds": 0.5})
    assert parse_bot_spec("greedy") == ("greedy", {})
    with pytest.raises(ValueError):
        parse_bot_spec("greedy:oops")


def test_simulate_reports_every_bot_as_json() -> None:
    result = runner.invoke(app, ["simulate", "gammel_jomfru", "--games", "6", "--seats", "3",
                                 "--bots", "heuristic,random", "--json"])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output.strip().splitlines()[-1])
    assert set(data["results"]) == {"heuristic", "random"}
    assert sum(r["games"] for r in data["results"].values()) == 12
