"""A finished match's analysis kept in the database (table ``analyses``), so it is
computed once per match and analysis version."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spillebord.server.infra.storage.models import analyses


def load(engine: Engine, match_id: str, version: int) -> dict[str, Any] | None:
    """The stored analysis of this version, or None."""
    with engine.connect() as conn:
        row = conn.execute(select(analyses.c.version, analyses.c.body)
                           .where(analyses.c.match_id == match_id)).first()
    if row is None or row.version != version:
        return None
    body: dict[str, Any] = dict(row.body)
    return body


def save(engine: Engine, match_id: str, version: int, body: dict[str, Any]) -> None:
    """Keep ``body`` (replacing an older version); a concurrent save of the same
    analysis is no error."""
    with engine.begin() as conn:
        conn.execute(delete(analyses).where(analyses.c.match_id == match_id,
                                            analyses.c.version != version))
        try:
            with conn.begin_nested():
                conn.execute(insert(analyses).values(match_id=match_id, version=version,
                                                     body=body, created=datetime.now(UTC)))
        except IntegrityError:
            pass
