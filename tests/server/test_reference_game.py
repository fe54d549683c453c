"""The guide's promise (docs/adding-a-game.md): a game that passes the conformance suite
and is registered with its manifest is a full game with no further code.  The reference
game Højt kort is registered here — in this process and, through
``SPILLEBORD_EXTRA_GAMES``, in every process the server or the CLI starts — and is then
listed, created, played to the end over the wire by bots and by the reference client
(written from docs/protocol.md alone), and driven by the command line; registered
unready, players can neither see nor open it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.reference_client import ReferenceClient
from tests.reference_game import GAME, MANIFEST, PLAYABLE
from tests.server.live import Client, LiveServer, create, play_randomly, settings_for

from spillebord import games

ROOT = Path(__file__).resolve().parents[2]
KEY = MANIFEST.key
EXTRA = "tests.reference_game:PLAYABLE"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    before = os.environ.get("SPILLEBORD_EXTRA_GAMES")
    os.environ["SPILLEBORD_EXTRA_GAMES"] = EXTRA  # the bot and solver workers' registry
    games.register(PLAYABLE)
    db = tmp_path_factory.mktemp("db") / "reference.db"
    live = LiveServer(settings_for(str(db))).start()
    try:
        yield live
    finally:
        live.stop()
        games.unregister(KEY)
        if before is None:
            os.environ.pop("SPILLEBORD_EXTRA_GAMES", None)
        else:
            os.environ["SPILLEBORD_EXTRA_GAMES"] = before


async def listed(server: LiveServer) -> dict[str, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return {g["key"]: g for g in (await http.get("/api/games")).json()}


async def test_the_api_lists_it_from_its_manifest(server: LiveServer) -> None:
    info = (await listed(server))[KEY]
    assert info["name"] == {"da": GAME.name_da, "en": GAME.name_en}
    assert info["seats"] == list(GAME.seat_counts) and not info["solitaire"]
    assert info["renderer"] is None  # the page's generic view
    assert info["reasons"] == ["tricks", "tie"]
    assert info["bots"] == ["random"] and info["levels"] == []
    assert not info["solver"] and not info["winnable"]


async def test_it_plays_to_the_end_over_the_wire_against_bots(server: LiveServer) -> None:
    """Seat 0 over a socket, two random bots in the bot worker process."""
    made = await create(server.http, game=KEY, seats=["me", {"bot": "random"},
                                                     {"bot": "random"}], deal=7)
    me = await Client.open(server.ws, made["match_id"], made["token"])
    try:
        final = await play_randomly(me, random.Random(7))
    finally:
        await me.close()
    assert final["outcome"]["reason"] in MANIFEST.reasons
    state = GAME.new(deal=7, seats=3)
    assert set(final["view"]) == set(state.view(0))


async def test_the_reference_client_plays_it_to_the_end(server: LiveServer) -> None:
    info = (await listed(server))[KEY]
    played = await ReferenceClient(server.http, server.ws, random.Random(3)).play(info)
    assert played.outcome["reason"] in info["reasons"]
    assert played.actions_sent > 0


async def test_unready_it_is_neither_listed_nor_opened(server: LiveServer) -> None:
    games.register(MANIFEST)
    try:
        assert KEY not in await listed(server)
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post("/api/matches", json={"game": KEY, "seats": ["me", "me"]})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "unknown_game", r.text
        assert r.json()["detail"]["reason"] == "'hojt_kort' is not offered to players yet"
    finally:
        games.register(PLAYABLE)
    assert KEY in await listed(server)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPILLEBORD_EXTRA_GAMES": "tests.reference_game:MANIFEST"}
    return subprocess.run([sys.executable, "-m", "spillebord.cli.main", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_command_line_drives_it(tmp_path: Path) -> None:
    """Registered (unready is enough for the tools) through the environment."""
    state = GAME.new(deal=3, seats=2)
    moves = cli("moves", KEY, "--deal", "3", "--seats", "2")
    assert moves.returncode == 0, moves.stderr
    assert moves.stdout.split() == state.legal_actions()
    first = state.legal_actions()[0]
    applied = cli("apply", KEY, "--deal", "3", "--seats", "2", f"  {first} ")
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.strip() == GAME.format_position(state.apply(first))
    run = cli("simulate", KEY, "--games", "4", "--seats", "2", "--bots", "random", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1])["results"]["random"]["games"] == 4
    refused = cli("apply", KEY, "--deal", "3", "--seats", "2", "AS")
    assert refused.returncode == 2 and refused.stderr.startswith("error: ")
