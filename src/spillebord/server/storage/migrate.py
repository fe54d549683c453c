"""Run the Alembic migrations programmatically (at server start) on any SQLAlchemy URL.

The scripts ship inside the package (``spillebord/server/migrations``); no alembic.ini
is needed.
"""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (idempotent)."""
    cfg = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@functools.cache
def script_heads() -> frozenset[str]:
    """The newest revision(s) the shipped scripts define."""
    return frozenset(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def is_current(engine: Engine) -> bool:
    """Whether the database answers and is at the scripts' newest revision (raises
    when the database cannot be reached)."""
    with engine.connect() as conn:
        return frozenset(MigrationContext.configure(conn).get_current_heads()) == script_heads()
