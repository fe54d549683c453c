"""Storage: the migrations build exactly the model tables, upgrades are idempotent,
tokens and invite codes are stored only as SHA-256, and every acknowledged action is
already committed when its state message arrives."""

from __future__ import annotations

import hashlib
from pathlib import Path

from sqlalchemy import create_engine, func, select
from tests.schema import assert_migrations_match_models
from tests.server.live import Client, LiveServer, create

from spillebord import games
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import actions, seats


def test_migrations_match_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    assert_migrations_match_models(engine)
    engine.dispose()


async def test_secrets_hashed_and_actions_committed_before_ack(server: LiveServer) -> None:
    key = next(k for k in list(games.keys()) if games.load(k).is_solitaire)
    table = next((k for k in list(games.keys()) if not games.load(k).is_solitaire), None)
    made = await create(server.http, game=key)
    db = server.settings.db_url
    check = create_engine(db)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    for _ in range(4):
        v0 = c.version
        action = next(a for a in c.state["legal"] if a != "resign")
        await c.send("act", action=action)
        msg = await c.recv()
        assert msg["t"] == "state" and msg["v"] == v0 + 1
        with check.connect() as conn:  # another connection sees it: it is committed
            n = conn.execute(select(func.count()).select_from(actions)
                             .where(actions.c.match_id == made["match_id"])).scalar_one()
        assert n == msg["v"]
    await c.close()
    codes: list[str] = []
    if table is not None:
        n_seats = games.load(table).seat_counts[0]
        invited = await create(server.http, game=table, seats=["me", *["human"] * (n_seats - 1)])
        codes = [i["code"] for i in invited["invites"]]
    with check.connect() as conn:
        stored = conn.execute(select(seats.c.token_hash)
                              .where(seats.c.match_id == made["match_id"])).scalar_one()
    assert stored == hashlib.sha256(made["token"].encode()).hexdigest()
    check.dispose()
    raw = Path(db.removeprefix("sqlite:///")).read_bytes()
    wal = Path(db.removeprefix("sqlite:///") + "-wal")
    raw += wal.read_bytes() if wal.exists() else b""
    assert made["token"].encode() not in raw
    for code in codes:
        assert code.encode() not in raw
