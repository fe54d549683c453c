"""The reference client (tests/reference_client.py, written from docs/protocol.md
alone) plays every game to the end against the real server: the document is enough to
write a client, and it stays so (issue 16)."""

from __future__ import annotations

import random

import httpx
import pytest
from tests.reference_client import ReferenceClient
from tests.server.live import LiveServer

from spillebord import games


async def games_list(server: LiveServer) -> list[dict[str, object]]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        listed: list[dict[str, object]] = (await http.get("/api/games")).json()
    return listed


@pytest.mark.parametrize("key", games.ready_keys())
async def test_the_reference_client_plays_to_the_end(server: LiveServer, key: str) -> None:
    game = next(g for g in await games_list(server) if g["key"] == key)
    client = ReferenceClient(server.http, server.ws, random.Random(key))
    played = await client.play(game)
    assert played.outcome["reason"] in games.manifest(key).reasons
    assert played.actions_sent > 0 and len(played.events) >= played.actions_sent
    if game["solitaire"]:
        assert played.clicks > 0  # click-to-move from the documented targets
