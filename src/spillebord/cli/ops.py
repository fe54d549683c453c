"""``spillebord db`` (upgrade, backup, restore) and ``spillebord ops`` (nginx-conf): the
operator's commands (docs/deploy.md).  The database is ``--db`` or ``SPILLEBORD_DB``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from spillebord.cli.common import clean_errors

db_app = typer.Typer(help="The game database: upgrade its schema, back it up, restore it.",
                     no_args_is_help=True)
ops_app = typer.Typer(help="Files for running the site: the nginx configuration.",
                      no_args_is_help=True)

DbOpt = Annotated[str | None, typer.Option(
    "--db", help="SQLAlchemy URL (default: SPILLEBORD_DB, else sqlite:///spillebord.db)")]


def _db(db: str | None) -> str:
    return db or os.environ.get("SPILLEBORD_DB") or "sqlite:///spillebord.db"


@db_app.command()
@clean_errors
def upgrade(db: DbOpt = None) -> None:
    """Run the migrations (one at a time on PostgreSQL, under an advisory lock): the step
    before starting the new release's workers."""
    from sqlalchemy import create_engine

    from spillebord.server.infra.storage import migrate
    from spillebord.server.scale.factory import migrate_once

    engine = create_engine(_db(db))
    try:
        before = sorted(migrate.database_heads(engine)) or ["(empty)"]
        if engine.dialect.name == "postgresql":
            migrate_once(engine)
        else:
            migrate.upgrade(engine)
        after = sorted(migrate.database_heads(engine))
        state = migrate.schema_state(engine)
    finally:
        engine.dispose()
    typer.echo(f"schema {', '.join(before)} -> {', '.join(after)} ({state})")


@db_app.command()
@clean_errors
def backup(out: Annotated[Path, typer.Argument(help="the backup file to write")],
           db: DbOpt = None) -> None:
    """Back the database up (pg_dump's custom format; SQLite's backup API)."""
    from spillebord.server.infra.storage import backup as b

    b.backup(_db(db), out)
    typer.echo(f"backed up to {out} ({out.stat().st_size} bytes)")


@db_app.command()
@clean_errors
def restore(path: Annotated[Path, typer.Argument(help="a file `spillebord db backup` wrote")],
            db: DbOpt = None,
            yes: Annotated[bool, typer.Option("--yes", help="replace the database's "
                                              "contents (stop the workers first)")] = False
            ) -> None:
    """Replace the database's contents with a backup (stop the workers first)."""
    from spillebord.server.infra.storage import backup as b

    if not yes:
        raise ValueError("a restore replaces everything in the database: stop the "
                         "workers, then run it again with --yes")
    b.restore(_db(db), path)
    typer.echo(f"restored from {path}")


@ops_app.command("nginx-conf")
@clean_errors
def nginx_conf(
        worker: Annotated[list[str], typer.Option(
            "--worker", help="a worker's host:port (repeat for each)")],
        listen: Annotated[str, typer.Option(help="nginx's plain-HTTP address")] = "80",
        runtime: Annotated[str, typer.Option(
            help="directory for nginx's pid and temp files")] = "/run/spillebord-nginx",
        error_log: Annotated[str, typer.Option(
            help="nginx's error log (keep it readable by the operator only)")]
        = "/var/log/spillebord-nginx/error.log",
        server_name: Annotated[str | None, typer.Option(
            help="with --certificate and --key: serve HTTPS for this name")] = None,
        tls_listen: Annotated[str, typer.Option(help="the HTTPS address")] = "443",
        certificate: Annotated[str | None, typer.Option(help="PEM certificate chain")]
        = None,
        key: Annotated[str | None, typer.Option(help="PEM private key")] = None,
        tls_in_front: Annotated[bool, typer.Option(
            help="TLS ends in front of nginx (a balancer): tell the workers HTTPS")]
        = False) -> None:
    """Print the nginx configuration for these workers (docs/deploy.md)."""
    from spillebord.server.scale.nginx import Tls, render_nginx_conf

    given = [server_name, certificate, key]
    if any(given) and not all(given):
        raise ValueError("TLS needs --server-name, --certificate and --key together")
    tls = None
    if server_name and certificate and key:
        tls = Tls(tls_listen, server_name, certificate, key)
    typer.echo(render_nginx_conf(worker, listen, runtime, error_log=error_log, tls=tls,
                                 tls_in_front=tls_in_front), nl=False)


@ops_app.command("bot-account")
@clean_errors
def bot_account(
        name: Annotated[str, typer.Argument(help="the account's display name")],
        about: Annotated[str | None, typer.Option(
            help="who runs the bot and what it is (shown on the bot ladder)")] = None,
        undeclare: Annotated[bool, typer.Option(
            "--undeclare", help="take the bot mark off again")] = False,
        db: DbOpt = None) -> None:
    """Declare an existing account a bot (docs/research.md, "A bot at a live table"):
    the lobby and the table show it as a computer, and its games go on the bot ladder
    instead of the players' ratings."""
    from datetime import UTC, datetime

    from sqlalchemy import create_engine

    from spillebord.server.botaccounts.repo import BotAccountsRepo
    from spillebord.server.people.names import name_key

    engine = create_engine(_db(db))
    try:
        repo = BotAccountsRepo(engine)
        player = repo.player_by_name(name_key(name))
        if player is None:
            raise ValueError(f"no player is named {name!r}")
        if undeclare:
            gone = repo.undeclare(player)
            typer.echo(f"{name}: {'no longer a declared bot' if gone else 'was not a bot'}")
            return
        repo.declare(player, about, datetime.now(UTC))
    except LookupError as exc:
        raise ValueError(f"{name!r} is a guest name, not an account: sign up first") from exc
    finally:
        engine.dispose()
    typer.echo(f"{name} ({player}) is a declared bot")
