"""Bad input to ``spillebord analyse`` is refused with one clear line (status 2) before
anything is written; the result file keeps rows unique by key through kills."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from spillebord.analysis import jobs, schema
from spillebord.analysis.store import ResultFile, ResultFileError, read_table
from spillebord.cli.main import app

SOLVE = ["analyse", "solve", "posthus", "--deals", "1-3", "--seconds", "1", "--workers", "0"]
PLAY = ["analyse", "tournament", "gammel_jomfru", "--games", "2", "--workers", "0"]


@pytest.mark.parametrize(("args", "message"), [
    (["analyse", "solve", "posthus", "--deals", "5-2", "--seconds", "1"], "0 <= A <= B"),
    (["analyse", "solve", "posthus", "--deals", "x-3", "--seconds", "1"], "A-B or N"),
    (["analyse", "solve", "posthus", "--deals", "-4", "--seconds", "1"], "A-B or N"),
    (["analyse", "solve", "nosuch", "--deals", "1", "--seconds", "1"], "nosuch"),
    ([*SOLVE, "--flag", "nope"], "no flag 'nope'"),
    ([*SOLVE, "--flag", "open_gaps=maybe"], "not true or false"),
    (["analyse", "solve", "kugler", "--deals", "1", "--seconds", "1"], "no solver"),
    (["analyse", "solve", "posthus", "--deals", "1", "--seconds", "0"], "--seconds"),
    ([*SOLVE, "--clock", "sundial"], "cpu or wall"),
    ([*SOLVE, "--nodes", "-1"], "--nodes"),
    ([*SOLVE, "--chunk", "0"], "--chunk"),
    (["analyse", "solve", "posthus", "--deals", "1", "--seconds", "1", "--workers", "-1"],
     "--workers"),
    ([*SOLVE[:-1], "999"], "CPUs"),
    ([*PLAY, "--bots", "random,nosuch"], "no bot 'nosuch'"),
    ([*PLAY, "--bots", "L7"], "no level 7"),
    ([*PLAY, "--bots", "search:foo=1"], "no option 'foo'"),
    ([*PLAY, "--bots", "random,"], "--bots"),
    ([*PLAY, "--bots", "random", "--seats", "9"], "not 9"),
    ([*PLAY, "--bots", "random", "--ladder", "x.txt"], ".svg or .png"),
    (["analyse", "tournament", "posthus", "--bots", "random"], "solitaire"),
    ([*SOLVE[:-2], "--address", "127.0.0.1:1"], "no Ray cluster answers at 127.0.0.1:1"),
    ([*SOLVE[:-2], "--address", "ray://127.0.0.1:1"], "no Ray cluster answers"),
    ([*SOLVE[:-2], "--address", "somewhere"], "HOST:PORT"),
    ([*PLAY[:-2], "--bots", "random", "--address", "localhost:1"], "no Ray cluster answers"),
])
def test_bad_input_is_refused_and_nothing_is_written(
        args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "r.parquet")])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_dead_address_errors_at_once_instead_of_hanging(tmp_path: Path) -> None:
    """Ray retries a dead address for minutes (2 min and still waiting before the
    check); the command refuses it within seconds, writing nothing."""
    proc = subprocess.run(
        [sys.executable, "-m", "spillebord.cli.main", *SOLVE[:-2], "--address",
         "127.0.0.1:1", "--out", str(tmp_path / "r.parquet")],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: no Ray cluster answers at 127.0.0.1:1 (Connection refused)"]
    assert list(tmp_path.iterdir()) == []


def test_an_unreadable_or_foreign_result_file_is_refused_and_kept(tmp_path: Path) -> None:
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"not parquet at all")
    result = CliRunner().invoke(app, [*SOLVE, "--out", str(junk)])
    assert result.exit_code == 2 and "not a readable Parquet file" in result.stderr
    assert junk.read_bytes() == b"not parquet at all"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.parquet"]

    played = tmp_path / "played.parquet"
    store = ResultFile(played, schema.TOURNAMENT)
    job = jobs.TournamentJob.make("gammel_jomfru", {}, 3, ["random"])
    store.append(jobs.play_chunk(job, [0]))
    store.merge()
    before = played.read_bytes()
    result = CliRunner().invoke(app, [*SOLVE, "--out", str(played)])
    assert result.exit_code == 2 and "holds tournament results" in result.stderr
    result = CliRunner().invoke(app, ["analyse", "ladder", str(junk), "--out",
                                      str(tmp_path / "l.svg")])
    assert result.exit_code == 2 and "not a readable Parquet file" in result.stderr
    assert played.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.parquet", "played.parquet"]


def test_parts_merge_into_one_sorted_file_without_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    job = jobs.SolveJob.make("posthus", {}, 5.0, node_limit=5_000)
    store = ResultFile(path, schema.SOLVE)
    store.append(jobs.solve_chunk(job, [3, 4]))
    store.append(jobs.solve_chunk(job, [1, 2]))
    assert store.done(job.run()) == {1, 2, 3, 4} and not path.exists()
    assert store.merge() == 4
    # A part merged just before a kill removed it comes back: its rows are dropped.
    store.append(jobs.solve_chunk(job, [2, 5]))
    other = jobs.SolveJob.make("posthus", {"open_gaps": True}, 5.0, node_limit=5_000)
    store.append(jobs.solve_chunk(other, [1]))
    assert store.done(job.run()) == {1, 2, 3, 4, 5} and store.done(other.run()) == {1}
    assert store.merge() == 6
    rows = pq.read_table(path).to_pylist()
    assert [(r["flags"], r["deal"]) for r in rows] == [
        ("", 1), ("", 2), ("", 3), ("", 4), ("", 5), ("open_gaps", 1)]
    assert read_table(path).num_rows == 6
    with pytest.raises(ResultFileError):
        ResultFile(path, schema.TOURNAMENT)


def test_without_the_extra_the_cli_works_and_analyse_says_what_to_install(
        tmp_path: Path) -> None:
    # Ray and pyarrow made unimportable, as on a base install.
    code = ("import sys; sys.modules['ray'] = sys.modules['pyarrow'] = None; "
            "from spillebord.cli.main import app; app()")
    base = [sys.executable, "-c", code]
    moves = subprocess.run([*base, "moves", "posthus", "--deal", "1"], capture_output=True,
                           text=True, cwd=tmp_path)
    assert moves.returncode == 0 and moves.stdout.strip(), moves.stderr
    solve = subprocess.run([*base, "analyse", "solve", "posthus", "--deals", "1-2",
                            "--seconds", "1"], capture_output=True, text=True, cwd=tmp_path)
    assert solve.returncode == 2, solve.stderr
    assert solve.stderr.startswith("error: analyse needs the research extra")
    assert "pip install -e '.[research]'" in solve.stderr
    assert list(tmp_path.iterdir()) == []
