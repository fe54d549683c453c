"""The bot client (research/live.py, ``spillebord agent``) against the real server: a
PettingZoo random policy seated as a declared bot account plays a Gammel Jomfru table to
the end against a browser-free human client, through a dropped socket; the lobby and the
seats show it as a bot; its games go on the bot ladder, not the players' ratings; bad
URLs, policies and credentials are one clear error (issue 32)."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from tests.server.live import Client, LiveServer, play_randomly
from typer.testing import CliRunner

from spillebord.cli.main import app
from spillebord.research.live import AgentError, LiveAgent, pettingzoo_policy, view_policy
from spillebord.research.table import jomfru_env
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import rated_matches

PASSWORD = "en lang nok adgangskode 42"
SPACES = jomfru_env(2)


def random_policy(observation: dict[str, Any], agent: str) -> int:
    """PettingZoo's random agent: a sample of the agent's action space under its mask."""
    return int(SPACES.action_space(agent).sample(observation["action_mask"]))


def first_legal(_view: dict[str, Any], legal: list[str]) -> str:
    return legal[0]


async def test_a_pettingzoo_policy_plays_a_live_table_against_a_human(
        server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        human = (await http.post("/api/players")).json()["player_id"]
        made = (await http.post("/api/matches", headers={"X-Player": human}, json={
            "game": "gammel_jomfru", "seats": ["me", "human"]})).json()
    match_id, invite = made["match_id"], made["invites"][0]["url"]
    async with LiveAgent(server.http, pettingzoo_policy(random_policy), "Karla",
                         PASSWORD) as agent:
        await agent.sign_in(sign_up=True, about="a random policy, tests")
        seated = await agent.join_invite(invite)
        assert (seated.match_id, seated.seat, seated.game) == (match_id, 1, "gammel_jomfru")
        calls = 0
        policy = agent.policy

        def dropping(game: str, seats: int) -> Any:
            inner = policy(game, seats)

            def act(view: dict[str, Any], legal: list[str]) -> str:
                nonlocal calls
                calls += 1
                if calls == 2:  # the network drops the bot's socket mid-game
                    agent.ws.transport.abort()
                return inner(view, legal)
            return act

        agent.policy = dropping
        c = await Client.open(server.ws, match_id, made["token"])
        try:
            bot_game = asyncio.create_task(agent.play(seated))
            final = await play_randomly(c, random.Random(7), max_actions=400)
            outcome = await asyncio.wait_for(bot_game, 60)
        finally:
            await c.close()
    assert outcome == final["outcome"]
    assert agent.reconnected >= 1 and agent.actions_sent > 0
    async with httpx.AsyncClient(base_url=server.http) as http:
        record = (await http.get(f"/api/matches/{match_id}/record")).json()
        people = (await http.get(f"/api/matches/{match_id}/players")).json()["seats"]
        mark = (await http.get(f"/api/bot-accounts/{agent.player_id}")).json()
    assert record["status"] == "finished"
    assert any(e["seat"] == 1 and e.get("by") != "bot" for e in record["events"])
    assert [p["bot_account"] for p in people] == [False, True]
    assert people[1]["name"] == "Karla"
    assert mark == {"player_id": agent.player_id, "name": "Karla", "bot": True,
                    "about": "a random policy, tests"}


async def test_the_lobby_shows_a_bot_account_as_a_bot(server: LiveServer) -> None:
    async with LiveAgent(server.http, view_policy(first_legal), "Viggo",
                         PASSWORD) as agent:
        await agent.sign_in(sign_up=True)
        seated = await agent.quick("gammel_jomfru", 3)
    async with httpx.AsyncClient(base_url=server.http) as http:
        tables = (await http.get("/api/lobby")).json()["tables"]
    table = next(t for t in tables if t["match_id"] == seated.match_id)
    mine = table["seats"][seated.seat]
    assert mine["name"] == "Viggo" and mine["bot_account"] is True
    assert all(s["bot_account"] is False for s in table["seats"] if s is not mine)


async def ladder(server: LiveServer, game: str, seats: int) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.get(f"/api/bot-ladder/{game}", params={"seats": seats})
        assert r.status_code == 200, r.text
        entries: list[dict[str, Any]] = r.json()["entries"]
        return entries


async def test_games_against_the_levels_go_on_the_bot_ladder_not_the_ratings(
        server: LiveServer) -> None:
    async with LiveAgent(server.http, view_policy(first_legal), "Sofie",
                         PASSWORD) as agent:
        await agent.sign_in(sign_up=True)
        for _ in range(2):
            seated = await agent.create("gammel_jomfru", 2, [1])
            outcome = await agent.play(seated)
            assert outcome["reason"] in ("out", "turn_limit")
    deadline = time.monotonic() + 20
    while True:
        entries = await ladder(server, "gammel_jomfru", 2)
        mine = [e for e in entries if e["player_id"] == agent.player_id]
        if (mine and mine[0]["games"] == 2) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.3)
    assert mine and mine[0]["games"] == 2 and mine[0]["name"] == "Sofie"
    house = [e for e in entries if e["kind"] == "level" and e["level"] == 1]
    assert house and house[0]["games"] >= 2 and house[0]["player_id"] is None
    for e in entries:
        assert e["ci95"][0] < e["mu"] < e["ci95"][1]
    async with httpx.AsyncClient(base_url=server.http) as http:
        rated = (await http.get(f"/api/players/{agent.player_id}/ratings")).json()
        bad = await http.get("/api/bot-ladder/posthus", params={"seats": 2})
    assert rated["ratings"] == [] and rated["history"] == []
    assert bad.status_code == 400 and bad.json()["detail"]["code"] == "bad_seats"


async def test_bad_url_policy_and_credentials_are_clear_errors(server: LiveServer) -> None:
    with pytest.raises(AgentError, match="http"):
        LiveAgent("ftp://example.org", view_policy(first_legal), "x", "y")
    async with LiveAgent("http://127.0.0.1:9", view_policy(first_legal), "x", "y") as a:
        with pytest.raises(AgentError, match="cannot reach"):
            await a.sign_in()
    async with LiveAgent(server.http, view_policy(first_legal), "Ingen", "forkert") as a:
        with pytest.raises(AgentError, match="bad_sign_in"):
            await a.sign_in()
    async with httpx.AsyncClient(base_url=server.http) as http:  # an ordinary account
        r = await http.post("/api/account", json={"name": "Menneske", "password": PASSWORD})
        assert r.status_code == 201
    async with LiveAgent(server.http, view_policy(first_legal), "Menneske", PASSWORD) as a:
        with pytest.raises(AgentError, match="not a declared bot"):
            await a.sign_in()
    # the operator declares it; then it may play
    db = server.settings.db_url
    out = CliRunner().invoke(app, ["ops", "bot-account", "Menneske", "--db", db,
                                   "--about", "declared by the operator"])
    assert out.exit_code == 0, out.output
    async with LiveAgent(server.http, view_policy(first_legal), "Menneske", PASSWORD) as a:
        assert await a.sign_in()
    out = CliRunner().invoke(app, ["ops", "bot-account", "Ingen sådan", "--db", db])
    assert out.exit_code == 2 and "no player" in out.output
    # the command line: one line, status 2
    out = CliRunner().invoke(app, ["agent", "--url", server.http, "--policy", "nope:fn",
                                   "--name", "x", "--invite", "abc"],
                             env={"SPILLEBORD_AGENT_PASSWORD": "pw"})
    assert out.exit_code == 2 and "cannot import 'nope'" in out.output
    failed = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-c", "from spillebord.cli.main import app; app()", "agent",
        "--url", server.http, "--policy", "tests.server.test_bot_client:first_legal",
        "--name", "Ingen", "--invite", "abc"], capture_output=True, text=True,
        env={**os.environ, "SPILLEBORD_AGENT_PASSWORD": "forkert"}, timeout=120)
    assert failed.returncode == 2, failed.stderr
    assert failed.stderr.strip().splitlines() == [
        "error: signing in as 'Ingen' was refused: bad_sign_in: the name or the password is wrong"]


async def looked_at(server: LiveServer, match_id: str, timeout: float = 30) -> None:
    """Wait until the players' rater (it looks once a second) has marked ``match_id``
    as looked at (``rated_matches``: rated or not, decided once)."""
    engine = make_engine(server.settings.db_url)
    deadline = time.monotonic() + timeout
    try:
        while True:
            with engine.connect() as conn:
                if conn.execute(select(rated_matches.c.match_id).where(
                        rated_matches.c.match_id == match_id)).first() is not None:
                    return
            assert time.monotonic() < deadline, f"the rater never looked at {match_id}"
            await asyncio.sleep(0.1)
    finally:
        engine.dispose()


async def test_two_bot_accounts_are_on_the_ladder_and_not_in_the_players_ratings(
        server: LiveServer) -> None:
    async with (LiveAgent(server.http, view_policy(first_legal), "Astrid", PASSWORD) as a,
                LiveAgent(server.http, pettingzoo_policy(random_policy), "Bjarke",
                          PASSWORD) as b):
        await a.sign_in(sign_up=True)
        await b.sign_in(sign_up=True)
        assert a.http is not None
        r = await a.http.post("/api/matches", headers={"X-Player": str(a.player_id)},
                              json={"game": "gammel_jomfru", "seats": ["me", "human"]})
        made = r.json()
        first = await a._seated(made)
        second = await b.join_invite(made["invites"][0]["code"])
        outcomes = await asyncio.gather(a.play(first), b.play(second))
    assert outcomes[0] == outcomes[1]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        entries = await ladder(server, "gammel_jomfru", 2)
        if {a.player_id, b.player_id} <= {e["player_id"] for e in entries}:
            break
        await asyncio.sleep(0.3)
    assert {a.player_id, b.player_id} <= {e["player_id"] for e in entries}
    await looked_at(server, made["match_id"])  # the players' rater has decided
    async with httpx.AsyncClient(base_url=server.http) as http:
        for who in (a, b):
            rated = (await http.get(f"/api/players/{who.player_id}/ratings")).json()
            assert rated["ratings"] == [], rated
        board = (await http.get("/api/leaderboard/gammel_jomfru",
                                params={"seats": 2})).json()
    assert board["players"] == []


async def test_the_command_plays_tables_against_the_levels(server: LiveServer) -> None:
    root = Path(__file__).resolve().parents[2]
    done = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-c", "from spillebord.cli.main import app; app()", "agent",
        "--url", server.http, "--policy", "tests.server.test_bot_client:first_legal",
        "--name", "Ditte", "--sign-up", "--about", "first legal action",
        "--game", "gammel_jomfru", "--seats", "3", "--levels", "1,1", "--games", "2"],
        capture_output=True, text=True, cwd=root, timeout=300,
        env={**os.environ, "SPILLEBORD_AGENT_PASSWORD": PASSWORD})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines if line.startswith("game")] == [
        "game 1", "game 2"]
    results = [line.strip() for line in lines if line.startswith("  ")]
    assert len(results) == 2
    assert all(r.startswith(("won (", "did not win (")) for r in results), results
