"""One check for both storage backends: the Alembic migrations build exactly the tables,
columns, nullability and primary keys of the SQLAlchemy models."""

from __future__ import annotations

from sqlalchemy import Engine, inspect

from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.models import metadata


def assert_migrations_match_models(engine: Engine) -> None:
    migrate.upgrade(engine)
    migrate.upgrade(engine)  # idempotent
    found = inspect(engine)
    assert set(found.get_table_names()) == set(metadata.tables) | {"alembic_version"}
    for name, table in metadata.tables.items():
        cols = {c["name"]: c for c in found.get_columns(name)}
        assert set(cols) == {c.name for c in table.columns}, name
        for c in table.columns:
            assert cols[c.name]["nullable"] == c.nullable, (name, c.name)
        pk = found.get_pk_constraint(name)["constrained_columns"]
        assert pk == [c.name for c in table.primary_key.columns], name
