"""The chat table: write a line, read a match's lines, read the lines of watched matches
said lately (the live feed's poll).  Plain blocking functions, called off the loop."""

from __future__ import annotations

from collections.abc import Callable, Container
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection, Engine

from spillebord.server.infra.storage.models import chat, players


def _json(r: Any) -> dict[str, Any]:
    when = r.time if r.time.tzinfo is not None else r.time.replace(tzinfo=UTC)
    return {"id": int(r.id), "match_id": r.match_id, "seat": r.seat, "name": r.name,
            "text": r.text, "phrase": r.phrase, "version": r.version,
            "time": when.isoformat()}


class ChatRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def name_of(self, player_id: str | None) -> str | None:
        if player_id is None:
            return None
        with self.engine.connect() as conn:
            name: str | None = conn.execute(select(players.c.name)
                                            .where(players.c.id == player_id)).scalar()
        return name

    def add(self, match_id: str, seat: int, player_id: str | None, name: str | None,
            text: str, phrase: str | None, version: int, when: datetime) -> dict[str, Any]:
        with self.engine.begin() as conn:
            result = conn.execute(insert(chat).values(
                match_id=match_id, seat=seat, player_id=player_id, name=name, text=text,
                phrase=phrase, version=version, time=when))
            new_id = result.inserted_primary_key[0] if result.inserted_primary_key else 0
        return {"id": int(new_id), "match_id": match_id, "seat": seat, "name": name,
                "text": text, "phrase": phrase, "version": version,
                "time": when.isoformat()}

    @staticmethod
    def insert_many_op(lines: list[tuple[dict[str, Any], str | None, datetime]]
                       ) -> Callable[[Connection], None]:
        """One insert of all ``lines`` (line, player id, time) for the group writer's
        shared transaction — one statement for the lot, not one per line; it sets each
        ``line["id"]`` once the rows exist."""
        def write(conn: Connection) -> None:
            rows = [{"match_id": line["match_id"], "seat": line["seat"],
                     "player_id": player_id, "name": line["name"], "text": line["text"],
                     "phrase": line["phrase"], "version": line["version"], "time": when}
                    for line, player_id, when in lines]
            ids = conn.execute(insert(chat).returning(chat.c.id, sort_by_parameter_order=True),
                               rows).scalars().all()
            for (line, _p, _w), new_id in zip(lines, ids, strict=True):
                line["id"] = int(new_id)
        return write

    def of_match(self, match_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(chat).where(chat.c.match_id == match_id)
                                .order_by(chat.c.id)).all()
        return [_json(r) for r in rows]

    def recent(self, match_ids: list[str], since: datetime,
               sent: Container[int] = ()) -> list[dict[str, Any]]:
        """The lines of ``match_ids`` said after ``since``, but those in ``sent``: the
        ids are read first, whole rows only for the lines not sent yet (most lines are
        this worker's own, already sent)."""
        out: list[dict[str, Any]] = []
        with self.engine.connect() as conn:
            for start in range(0, len(match_ids), 500):
                part = match_ids[start:start + 500]
                ids = [i for i in conn.execute(
                    select(chat.c.id).where(chat.c.time > since, chat.c.match_id.in_(part))
                ).scalars() if i not in sent]
                for at in range(0, len(ids), 500):
                    out += [_json(r) for r in conn.execute(
                        select(chat).where(chat.c.id.in_(ids[at:at + 500])))]
        out.sort(key=lambda line: int(line["id"]))
        return out
