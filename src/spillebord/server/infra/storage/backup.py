"""Backups and restores of the game database (``spillebord db backup`` / ``restore``;
docs/deploy.md "Backups and the restore drill").

- PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot while the workers keep
  running) and ``pg_restore --clean --if-exists --no-owner --single-transaction`` (all or
  nothing).  The connection's parts go to the tools as ``PG*`` environment variables,
  so a password never appears on a command line (``ps`` shows those to every user).
- SQLite: the SQLite backup API (``sqlite3.Connection.backup``): a consistent copy of a
  file in use, and the same API to copy a backup back over the database file.

A restore replaces everything in the database: stop the workers first.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import URL, make_url


class BackupError(ValueError):
    """A backup or restore that could not be done (the tool's reason, one line)."""


def _pg_env(url: URL) -> dict[str, str]:
    env = dict(os.environ)
    for key, value in (("PGHOST", url.host), ("PGPORT", url.port),
                       ("PGUSER", url.username), ("PGPASSWORD", url.password),
                       ("PGDATABASE", url.database)):
        if value is not None:
            env[key] = str(value)
    sslmode = url.query.get("sslmode")  # e.g. ?sslmode=require
    if isinstance(sslmode, str):
        env["PGSSLMODE"] = sslmode
    return env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: postgresql-client)")
    return found


def _run(cmd: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        raise BackupError(f"{Path(cmd[0]).name} failed: "
                          f"{lines[-1] if lines else f'exit status {done.returncode}'}")


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(url.database)


def backup(db_url: str, out: Path) -> None:
    """Write a backup of the database at ``db_url`` to ``out``."""
    url = make_url(db_url)
    backend = url.get_backend_name()
    if backend == "postgresql":
        _run([_tool("pg_dump"), "--format=custom", "--no-password", "--file", str(out)],
             _pg_env(url))
    elif backend == "sqlite":
        source = _sqlite_path(url)
        if not source.exists():
            raise BackupError(f"no such database file: {source}")
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(out)) as dst:
            src.backup(dst)
    else:
        raise BackupError(f"backups of {backend} databases are not supported")


def restore(db_url: str, path: Path) -> None:
    """Replace the database at ``db_url`` with the backup ``path`` (workers stopped)."""
    if not path.is_file():
        raise BackupError(f"no such backup file: {path}")
    url = make_url(db_url)
    backend = url.get_backend_name()
    if backend == "postgresql":
        _run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner",
              "--single-transaction", "--no-password", "--dbname", url.database or "",
              str(path)], _pg_env(url))
    elif backend == "sqlite":
        with closing(sqlite3.connect(path)) as src:
            try:
                sound = src.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            except sqlite3.DatabaseError:
                sound = False
            if not sound:
                raise BackupError(f"{path} is not a sound SQLite database")
            with closing(sqlite3.connect(_sqlite_path(url))) as dst:
                src.backup(dst)
    else:
        raise BackupError(f"restores of {backend} databases are not supported")
