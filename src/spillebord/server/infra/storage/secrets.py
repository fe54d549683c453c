"""The server's own secrets (``server_secrets``): one value per name, generated once by
the first worker that needs it — the first writer wins, every worker then reads the
same value.  The values are never logged."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.infra.storage.models import server_secrets


def kept_secret(engine: Engine, name: str, when: datetime) -> str:
    """The stored secret ``name``, made (256 random bits, hex) when there is none."""
    with engine.connect() as conn:
        found: str | None = conn.execute(select(server_secrets.c.value).where(
            server_secrets.c.name == name)).scalar()
    if found is not None:
        return found
    try:
        with engine.begin() as conn:
            conn.execute(insert(server_secrets).values(name=name, value=secrets.token_hex(32),
                                                       created=when))
    except IntegrityError:
        pass  # another worker made it first: theirs stands
    with engine.connect() as conn:
        value: str = conn.execute(select(server_secrets.c.value).where(
            server_secrets.c.name == name)).scalar_one()
    return value
