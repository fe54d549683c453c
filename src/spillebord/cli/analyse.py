"""``spillebord analyse``: batch solving and bot tournaments on Ray, results in Parquet
(docs/analysis.md, "Running the analysis").

Ray, pyarrow and matplotlib come with the ``research`` extra; they are imported only
when an ``analyse`` command runs, so the rest of the command line works without them.
Bad input (range, game, flag, bot, result file) exits with status 2 and one line on
stderr before anything is written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from spillebord.cli.common import FlagOpt, GameArg, clean_errors, parse_flags

app = typer.Typer(help="Batch analysis on Ray: solve deals, play bot tournaments, rate "
                       "bots (results in Parquet; needs the research extra).",
                  no_args_is_help=True)

MAX_UNITS = 10_000_000
AddressOpt = Annotated[str | None, typer.Option(
    help="an existing Ray cluster (ray://… or host:port); default: start a local one")]
WorkersOpt = Annotated[int | None, typer.Option(
    help="CPUs of the local Ray cluster (default 2, or 1 on a one-CPU machine); 0 runs "
         "in this process without Ray")]
ChunkOpt = Annotated[int | None, typer.Option(help="deals or games per Ray task")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]


def parse_range(text: str) -> list[int]:
    """``A-B`` (inclusive) or ``N`` → the deal numbers; ValueError when it is not one."""
    lo, sep, hi = text.strip().partition("-")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise ValueError(f"--deals must be A-B or N (deal numbers), not {text!r}") from None
    if a < 0 or b < a:
        raise ValueError(f"--deals {text}: need 0 <= A <= B")
    if b - a + 1 > MAX_UNITS:
        raise ValueError(f"--deals {text}: at most {MAX_UNITS:,} deals a run")
    return list(range(a, b + 1))


def _modules() -> Any:
    """The analysis package (needs the research extra)."""
    try:
        from spillebord import analysis
        from spillebord.analysis import jobs, ratings, runner, schema, store
    except ImportError as exc:
        raise ValueError(f"analyse needs the research extra ({exc.name} is missing): "
                         "pip install -e '.[research]'") from None
    del jobs, ratings, runner, schema, store
    return analysis


def _check_workers(workers: int | None, address: str | None) -> int:
    if address:
        from spillebord.analysis.runner import check_address

        check_address(address)
    if workers is None:
        return min(2, os.cpu_count() or 1)
    if workers < 0:
        raise ValueError("--workers must be 0 (this process) or more")
    if workers == 0 and address:
        raise ValueError("--workers 0 runs without Ray; leave out --address")
    cores = os.cpu_count() or 1
    if not address and workers > max(2, cores):
        raise ValueError(f"--workers {workers}: this machine has {cores} CPUs")
    return workers


def _open_store(out: Path, kind: Any) -> Any:
    from spillebord.analysis.store import ResultFile

    return ResultFile(out, kind)


@app.command()
@clean_errors
def solve(game: GameArg,
          deals: Annotated[str, typer.Option(help="deal numbers A-B (inclusive) or N")],
          seconds: Annotated[float, typer.Option(help="time limit per deal")],
          flag: FlagOpt = None,
          clock: Annotated[str, typer.Option(
              help="cpu: the time limit is CPU time of the solving thread; wall")] = "cpu",
          nodes: Annotated[int, typer.Option(
              help="also stop at this many search states (0: no limit); the verdict "
                   "then does not depend on the machine")] = 0,
          out: Annotated[Path | None, typer.Option(
              help="Parquet result file (default GAME-solve.parquet)")] = None,
          address: AddressOpt = None, workers: WorkersOpt = None, chunk: ChunkOpt = None,
          quiet: QuietOpt = False) -> None:
    """Solve every deal of a range; a rerun skips the deals already in the file."""
    from spillebord import games

    g = games.load(game)
    flags = parse_flags(g, flag)
    numbers = parse_range(deals)
    workers = _check_workers(workers, address)
    _modules()
    from spillebord.analysis import jobs, runner, schema

    job = jobs.SolveJob.make(game, flags, seconds, clock, nodes)
    path = out or Path(f"{game}-solve.parquet")
    store = _open_store(path, schema.SOLVE)
    size = chunk if chunk is not None else max(1, min(50, len(numbers) // (8 * max(1, workers))))
    _check_chunk(size)
    console = Console(stderr=True)
    try:
        report = runner.run(jobs.solve_chunk, job, numbers, store, chunk=size,
                            workers=workers, address=address, unit="deals", console=console,
                            quiet=quiet)
    except runner.ChunkLostError as exc:
        raise ValueError(f"{exc} (what is stored stays; run again to resume)") from None
    _print_report(console, report, path)
    _print_verdicts(path, job.run(), numbers, console)


@app.command()
@clean_errors
def tournament(game: GameArg,
               bots: Annotated[str, typer.Option(
                   help="bot specs, comma-separated: L1-L3 (levels) or "
                        "NAME[:OPTION=VALUE…]; seat s of game g plays bots[(s+g) mod k]")],
               n_games: Annotated[int, typer.Option("--games", "-n",
                                                    help="games to play")] = 100,
               seats: Annotated[int | None, typer.Option(help="seats at the table")] = None,
               seed: Annotated[int, typer.Option(help="first deal number")] = 1,
               flag: FlagOpt = None,
               out: Annotated[Path | None, typer.Option(
                   help="Parquet result file (default GAME-tournament.parquet)")] = None,
               ladder: Annotated[Path | None, typer.Option(
                   help="also draw the ladder chart (.svg or .png)")] = None,
               address: AddressOpt = None, workers: WorkersOpt = None,
               chunk: ChunkOpt = None, quiet: QuietOpt = False) -> None:
    """Play bots against each other; OpenSkill ratings of every bot at the end."""
    from spillebord import games

    g = games.load(game)
    flags = parse_flags(g, flag)
    if not 0 < n_games <= MAX_UNITS:
        raise ValueError(f"--games must be 1 … {MAX_UNITS:,}")
    workers = _check_workers(workers, address)
    if ladder is not None:
        _check_chart_path(ladder)
    _modules()
    from spillebord.analysis import jobs, ratings, runner, schema

    job = jobs.TournamentJob.make(game, flags, seats, bots.split(","), seed)
    path = out or Path(f"{game}-tournament.parquet")
    store = _open_store(path, schema.TOURNAMENT)
    size = chunk if chunk is not None else max(1, min(10, n_games // (8 * max(1, workers))))
    _check_chunk(size)
    console = Console(stderr=True)
    try:
        report = runner.run(jobs.play_chunk, job, list(range(n_games)), store, chunk=size,
                            workers=workers, address=address, unit="games",
                            console=console, quiet=quiet)
    except runner.ChunkLostError as exc:
        raise ValueError(f"{exc} (what is stored stays; run again to resume)") from None
    _print_report(console, report, path)
    table = ratings.from_file(path, job.run())
    Console().print(ratings.rich_table(table))
    if ladder is not None:
        ratings.draw_ladders([table], ladder)
        console.print(f"ladder chart: {ladder}")


@app.command()
@clean_errors
def ladder(results: Annotated[Path, typer.Argument(help="a tournament Parquet file")],
           out: Annotated[Path, typer.Option(help="chart file (.svg or .png)")],
           as_json: Annotated[bool, typer.Option("--json", help="ratings as JSON")] = False
           ) -> None:
    """OpenSkill ratings (95% intervals) and a ladder chart from a tournament file —
    one ladder per game and table size in it."""
    _check_chart_path(out)
    _modules()
    from spillebord.analysis import ratings

    tables = ratings.from_file_all(results)
    ratings.draw_ladders(tables, out)
    if as_json:
        typer.echo(json.dumps([t.to_json() for t in tables]))
    else:
        for t in tables:
            Console().print(ratings.rich_table(t))
    Console(stderr=True).print(f"ladder chart: {out}")


def _check_chunk(size: int) -> None:
    if size < 1:
        raise ValueError("--chunk must be at least 1")


def _check_chart_path(path: Path) -> None:
    if path.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"the chart file must end in .svg or .png, not {path.name}")
    if not path.parent.is_dir():
        raise ValueError(f"no such directory: {path.parent}")


def _print_report(console: Console, report: Any, path: Path) -> None:
    where = "this process" if report.workers == 0 else f"Ray, {report.workers} CPUs"
    console.print(f"{report.done_before} already in {path}, {report.rows} new "
                  f"({report.chunks} chunks on {where}); "
                  f"retried {report.retried} chunk{'s' if report.retried != 1 else ''} "
                  "lost with a worker")


def _print_verdicts(path: Path, run: dict[str, Any], numbers: list[int],
                    console: Console) -> None:
    from spillebord.analysis.store import read_table

    rows = [r for r in read_table(path, columns=["verdict", "cpu_seconds"]).to_pylist()
            if all(r[k] == v for k, v in run.items()) and numbers[0] <= r["deal"] <= numbers[-1]]
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    from spillebord.analysis.schema import flags_label

    label = flags_label(run["game"], run["flags"]) or "default rules"
    table = Table(title=f"{run['game']} ({label}), deals {numbers[0]}–"
                        f"{numbers[-1]}, {run['seconds']:g} s {run['clock']}"
                        + (f", {run['node_limit']:,} nodes" if run["node_limit"] else ""))
    for col in ("verdict", "deals", "share", "CPU s"):
        table.add_column(col, justify="right")
    for verdict in ("winnable", "unwinnable", "unknown"):
        k = counts.get(verdict, 0)
        cpu = sum(r["cpu_seconds"] for r in rows if r["verdict"] == verdict)
        table.add_row(verdict, str(k), f"{100 * k / max(1, len(rows)):.1f}%", f"{cpu:.1f}")
    Console().print(table)
    _print_shipped(run, [r["deal"] for r in rows if r["verdict"] == "unknown"], console)


def _print_shipped(run: dict[str, Any], unknown: list[int], console: Console) -> None:
    """What the shipped table says of the deals the search left unknown (the openings of
    numbered deals, as the page's live verdict reads it); the file keeps the search's."""
    from spillebord import games
    from spillebord.solvers import tables

    on = set(filter(None, run["flags"].split(",")))
    flags = {name: name in on for name in games.load(run["game"]).check_flags({})}
    found = [v for v in (tables.verdict(run["game"], d, flags) for d in unknown)
             if v not in (None, "unknown")]
    if found:
        console.print(f"the shipped table decides {len(found)} of the {len(unknown)} "
                      f"unknown deals' openings: {found.count('winnable')} winnable, "
                      f"{found.count('unwinnable')} unwinnable (the file keeps the "
                      "search's verdicts)")
