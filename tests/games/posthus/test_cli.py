"""``spillebord solve|moves|apply posthus`` through the real command (Typer's runner)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spillebord.cli.main import app
from spillebord.games.posthus import GAME, PosthusState

from .positions import P1, P3, P4

runner = CliRunner()


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line]


@pytest.mark.slow
def test_solve_a_deal_prints_the_verdict_then_a_line_that_wins() -> None:
    result = runner.invoke(app, ["solve", "posthus", "--deal", "1", "--seconds", "2"])
    assert result.exit_code == 0, result.output
    out = lines(result.stdout)
    assert out[0] in ("winnable", "unwinnable", "unknown")
    if out[0] == "winnable":
        state = GAME.new(deal=1)
        for text in out[1:]:
            nxt = state.apply(text)
            assert isinstance(nxt, PosthusState)
            state = nxt
        assert state.outcome is not None and state.outcome.reason == "won"


def test_solve_a_position_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", "posthus", "--position", write(tmp_path, P4)])
    assert result.exit_code == 0
    assert lines(result.stdout) == ["winnable", "KD g4"]
    stuck = runner.invoke(app, ["solve", "posthus", "--position", write(tmp_path, P3),
                                "--json"])
    assert stuck.exit_code == 0
    assert '"verdict": "unwinnable"' in stuck.stdout


def test_moves_lists_the_legal_actions(tmp_path: Path) -> None:
    result = runner.invoke(app, ["moves", "posthus", "--position", write(tmp_path, P1)])
    assert result.exit_code == 0
    assert lines(result.stdout) == [
        "9S d1", "KH g2", "QH g2", "TH d1", "TS c3", "redeal", "resign",
    ]
    dealt = runner.invoke(app, ["moves", "posthus", "--deal", "4"])
    assert lines(dealt.stdout) == [str(a) for a in GAME.new(deal=4).legal_actions()]


def test_apply_prints_the_new_position(tmp_path: Path) -> None:
    result = runner.invoke(app, ["apply", "posthus", "KD g4", "--position", write(tmp_path, P4)])
    assert result.exit_code == 0
    assert result.stdout == GAME.format_position(GAME.parse_position(P4).apply("KD g4")) + "\n"
    flagged = runner.invoke(app, ["apply", "posthus", "QC d2", "--deal", "1",
                                  "--flag", "open_gaps"])
    assert flagged.exit_code == 2  # d2 holds a card in deal 1


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["apply", "posthus", "8H c3"], "8H does not fit c3: the left neighbour is 9S"),
        (["apply", "posthus", "TH c2"], "c2 is not a gap: it holds 9C"),
        (["moves", "posthus", "--flag", "no_such_flag"], "posthus has no flag"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], reason: str) -> None:
    result = runner.invoke(app, [*args, "--position", write(tmp_path, P1)])
    assert result.exit_code == 2
    assert reason in result.stderr
    assert len(lines(result.stderr)) == 1 and "Traceback" not in result.stderr


def test_broken_position_file_exits_2(tmp_path: Path) -> None:
    broken = P1.replace("TS JC", "TS TS", 1)
    result = runner.invoke(app, ["solve", "posthus", "--position", write(tmp_path, broken)])
    assert result.exit_code == 2
    assert "line 2, place f1: TS appears twice (also at e1)" in result.stderr
    missing = runner.invoke(app, ["solve", "posthus", "--position", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
