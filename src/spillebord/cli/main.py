"""The ``spillebord`` command: serve, moves, apply, solve, simulate, analyse, warm, and
the operator's ``db`` and ``ops`` (cli/ops.py).

Bad input (unknown game, broken position, illegal action) exits with status 2 and one
line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from spillebord import games
from spillebord.cli.agent import command as agent_command
from spillebord.cli.analyse import app as analyse_app
from spillebord.cli.common import FlagOpt, GameArg, clean_errors, parse_flags
from spillebord.cli.ops import db_app, ops_app
from spillebord.cli.warm import command as warm_command
from spillebord.core.protocol import Game, State

app = typer.Typer(
    help=f"Spillebord: Danish card games ({', '.join(games.keys())}) — play, solve, "
         "simulate, analyse.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"no such file: {path}")
    return p.read_text(encoding="utf-8")


def load_state(game: Game, position: str | None, deal: int | None, seats: int | None,
               flags: dict[str, bool]) -> State:
    if position is not None and deal is not None:
        raise ValueError("give either --position or --deal, not both")
    if position is not None:
        return game.parse_position(read_text(position), **flags)
    if deal is None:
        raise ValueError("give --position FILE or --deal N")
    return game.new(deal=deal, seats=seats, **flags)


BOTS_HELP = "bots, comma-separated: NAME or NAME:OPTION=VALUE:..."
PositionOpt = Annotated[
    str | None, typer.Option("--position", "-p", help="position file, or - for stdin")
]
DealOpt = Annotated[int | None, typer.Option("--deal", "-d", help="deal number")]
SeatsOpt = Annotated[int | None, typer.Option("--seats", "-s", help="number of seats")]


@app.command()
@clean_errors
def moves(game: GameArg, position: PositionOpt = None, deal: DealOpt = None,
          seats: SeatsOpt = None, flag: FlagOpt = None) -> None:
    """The legal actions, one per line, in the order legal_actions() returns."""
    g = games.load(game)
    state = load_state(g, position, deal, seats, parse_flags(g, flag))
    for action in state.legal_actions():
        typer.echo(str(action))


@app.command()
@clean_errors
def apply(game: GameArg, actions: Annotated[list[str], typer.Argument(help="action texts")],
          position: PositionOpt = None, deal: DealOpt = None, seats: SeatsOpt = None,
          flag: FlagOpt = None) -> None:
    """Apply actions in order and print the resulting position text."""
    g = games.load(game)
    state = load_state(g, position, deal, seats, parse_flags(g, flag))
    for i, text in enumerate(actions, 1):
        try:
            state = state.apply(text)
        except ValueError as exc:
            raise ValueError(f"action {i} ({text!r}): {exc}") from exc
    typer.echo(g.format_position(state))


@app.command()
@clean_errors
def solve(game: GameArg, position: PositionOpt = None, deal: DealOpt = None,
          seconds: Annotated[float, typer.Option(help="time limit")] = 10.0,
          as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
          flag: FlagOpt = None) -> None:
    """First line winnable, unwinnable or unknown; then the winning line.  The opening
    of a numbered deal that the shipped table decides gets the table's verdict when the
    search does not decide it in time (as the page's live verdict), and says so."""
    from dataclasses import replace

    from spillebord import solvers
    from spillebord.solvers import tables

    g = games.load(game)
    module = solvers.load(game)
    flags = parse_flags(g, flag)
    state = load_state(g, position, deal, None, flags)
    if seconds <= 0:
        raise ValueError("--seconds must be positive")
    result = module.solve(state, seconds=seconds)
    shipped = None if deal is None else tables.verdict(game, deal, flags)
    source = "solver"
    if result.verdict == "unknown" and shipped not in (None, "unknown"):
        assert shipped is not None
        result, source = replace(result, verdict=shipped), "table"
    if as_json:
        typer.echo(json.dumps({**result.to_json(), "source": source}))
        return
    typer.echo(result.verdict)
    for action in result.line:
        typer.echo(action)
    if source == "table":
        t = tables.table(game)
        assert t is not None
        typer.echo(f"(from the shipped table of deals {t.first}-{t.last}: the opening of "
                   f"deal {deal}; the search found no line within {seconds:g} s)", err=True)


@app.command()
@clean_errors
def simulate(game: GameArg,
             n_games: Annotated[int, typer.Option("--games", "-n", help="games to play")] = 100,
             seats: SeatsOpt = None,
             bots: Annotated[str, typer.Option(help=BOTS_HELP)] = "random",
             seed: Annotated[int, typer.Option(help="first deal number")] = 1,
             as_json: Annotated[bool, typer.Option("--json", help="JSON output")] = False,
             flag: FlagOpt = None) -> None:
    """Play bot games with a progress bar and print a result table."""
    from spillebord.cli.simulate import run_simulation

    g = games.load(game)
    if n_games <= 0:
        raise ValueError("--games must be positive")
    run_simulation(g, n_games, g.check_seats(seats), [b.strip() for b in bots.split(",")],
                   seed, as_json, parse_flags(g, flag))


@app.command()
@clean_errors
def serve(host: Annotated[str, typer.Option(help="address to bind")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="port")] = 8000,
          db: Annotated[str, typer.Option(help="SQLAlchemy URL")] = "sqlite:///spillebord.db",
          workers: Annotated[int, typer.Option(help="worker processes")] = 1) -> None:
    """Serve the web app (SQLite file by default)."""
    import os

    import uvicorn

    if workers < 1:
        raise ValueError("--workers must be at least 1")
    if workers > 1 and (db.startswith("sqlite") or not os.environ.get("SPILLEBORD_REDIS")):
        raise ValueError(
            "several workers need PostgreSQL (--db postgresql+psycopg://...) and Redis "
            "(SPILLEBORD_REDIS=redis://...); see docs/deploy.md"
        )
    os.environ["SPILLEBORD_DB"] = db
    typer.echo(f"Spillebord on http://{host}:{port}/  (database {db})")
    # Frames up to 1 MiB are read and answered ``too_large`` (the protocol's limit is
    # 4096 bytes); only larger ones are cut off by the transport (docs/protocol.md).
    uvicorn.run("spillebord.server.app:create_app", factory=True, host=host, port=port,
                workers=workers, log_level="info", ws_max_size=2**20,
                proxy_headers=False)  # the app trusts SPILLEBORD_TRUSTED_PROXIES only


app.add_typer(analyse_app, name="analyse")
app.command("warm")(warm_command)
app.command("agent")(agent_command)
app.add_typer(db_app, name="db")
app.add_typer(ops_app, name="ops")

if __name__ == "__main__":  # pragma: no cover
    app()
