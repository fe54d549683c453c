"""Post-game analysis over the wire (issue #33): GET /api/matches/{id}/analysis.

A lost Posthuskabalen: the move after which a round could no longer be won is marked,
and the solver's line from the position before it replays to a win in the engine; the
analysis is kept with the match.  A Gammel Jomfru game: the human seat's real choices
valued by the level-3 bot, doubtful ones marked, no bot seat analysed.  Refused while
the game runs and for a game without an analysis.  A live game's moves are not delayed
while an analysis runs beside it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from tests.server.live import Client, LiveServer, create, play_randomly

from spillebord import games
from spillebord.core.record import GameRecord
from spillebord.server.analysis import work
from spillebord.server.infra.storage.models import analyses


def careless_posthus(deal: int, seed: int) -> list[str]:
    """A game of random moves (a redeal now and then, resign at the end): it loses."""
    g = games.load("posthus")
    st = g.new(deal=deal)
    rng = random.Random(seed)
    acts: list[str] = []
    while st.outcome is None:
        legal = [str(a) for a in st.legal_actions() if str(a) != "resign"]
        moves = [a for a in legal if a != "redeal"]
        if moves and rng.random() < 0.97:
            a = rng.choice(moves)
        else:
            a = "redeal" if "redeal" in legal else "resign"
        st = st.apply(a)
        acts.append(a)
    assert not st.outcome.winners
    return acts


async def play(server: LiveServer, game: str, actions: list[str], **body: Any) -> str:
    made = await create(server.http, game=game, **body)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    for a in actions:
        v = c.version
        await c.send("act", action=a)
        await c.until(lambda _s, v=v: c.version > v)
    await c.close()
    return str(made["match_id"])


async def get(server: LiveServer, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http, timeout=120) as http:
        return await http.get(path)


async def test_a_lost_posthus_game_marks_the_losing_move_with_a_winning_line(
        server: LiveServer) -> None:
    deal = 3  # its positions are decided in milliseconds: no verdict left unknown
    actions = careless_posthus(deal, seed=3)
    match_id = await play(server, "posthus", actions, deal=deal)
    r = await get(server, f"/api/matches/{match_id}/analysis")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "solitaire" and len(body["positions"]) == len(actions) + 1
    assert {p["verdict"] for p in body["positions"]} <= {"winnable", "unwinnable", "unknown"}
    lost = [m for m in body["marks"] if m["kind"] == "lost" and m["line"]]
    assert lost, body
    g = games.load("posthus")
    for mark in lost:
        before = mark["last_winnable"]
        assert mark["step"] == before + 1 and mark["action"] == actions[before]
        assert body["positions"][before]["verdict"] == "winnable"
        if mark["exact"]:
            assert body["positions"][before + 1]["verdict"] == "unwinnable"
        # The winning line from the position before the marked move wins in the engine.
        state = GameRecord("posthus", 1, deal, {}, tuple(actions[:before])).replay(g)
        for a in mark["line"]:
            state = state.apply(a)
        assert state.outcome is not None and state.outcome.winners == (0,), mark
    # Kept with the match: the second answer is the stored one.
    with server.services.engine.connect() as conn:
        assert conn.execute(select(analyses.c.match_id)
                            .where(analyses.c.match_id == match_id)).first() is not None
    again = await get(server, f"/api/matches/{match_id}/analysis")
    assert again.json() == body


async def test_no_analysis_while_the_game_runs(server: LiveServer) -> None:
    made = await create(server.http, game="posthus", deal=2)
    r = await get(server, f"/api/matches/{made['match_id']}/analysis")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "running"
    r = await get(server, "/api/matches/nonesuch/analysis")
    assert r.status_code == 404


async def test_gammel_jomfru_marks_the_human_seats_doubtful_moves(server: LiveServer) -> None:
    made = await create(server.http, game="gammel_jomfru", deal=5,
                        seats=["me", {"bot": "random"}, {"bot": "random"}])
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await play_randomly(c, random.Random(5), max_actions=2000)
    await c.close()
    r = await get(server, f"/api/matches/{made['match_id']}/analysis")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "table" and body["seats"] == [0]
    assert body["moves"] and all(m["seat"] == 0 for m in body["moves"])
    for m in body["moves"]:
        assert m["value"] <= m["best_value"] or m["best"] == m["action"]
        assert m["doubtful"] == (m["best"] != m["action"]
                                 and m["best_value"] - m["value"] >= body["budget"]["doubt"])
    assert body["summary"]["doubtful"]["0"] == sum(m["doubtful"] for m in body["moves"])


@pytest.mark.slow
async def test_an_analysis_does_not_delay_a_live_games_moves(server: LiveServer) -> None:
    """A long lost game is analysed (solver budget spent) while another player plays a
    live game: every move of the live game is answered within a bound."""
    finished = await play(server, "posthus", careless_posthus(2, seed=2), deal=2)
    made = await create(server.http, game="posthus", deal=9)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    analysis = asyncio.ensure_future(get(server, f"/api/matches/{finished}/analysis"))
    await asyncio.sleep(0.3)  # the analysis has started in its worker
    waits: list[float] = []
    rng = random.Random(9)
    while not analysis.done() and len(waits) < 400:
        legal = [a for a in c.state["legal"] if a not in ("resign", "redeal")]
        if not legal:
            break
        v = c.version
        sent = time.perf_counter()
        await c.send("act", action=rng.choice(legal))
        await c.until(lambda _s, v=v: c.version > v)
        waits.append(time.perf_counter() - sent)
        await asyncio.sleep(0.02)
    r = await analysis
    assert r.status_code == 200
    assert waits, "the live game made no move while the analysis ran"
    waits.sort()
    print(f"live moves during the analysis: {len(waits)}, median {waits[len(waits) // 2]:.3f} s,"
          f" max {waits[-1]:.3f} s")
    assert waits[-1] < 1.0, waits[-5:]


@pytest.mark.slow
async def test_kugler_marks_the_human_seats_doubtful_moves_only(server: LiveServer) -> None:
    """A finished Kugler og Jokere game, three computer seats and one human seat that
    always plays the first legal move: its real choices are valued by the level-3 bot
    (board-value points), the doubtful ones marked, the computer seats' moves not
    analysed; the same record analysed again in this process gives the same values."""
    made = await create(server.http, game="kugler", deal=3,
                        seats=["me", {"bot": "advance"}, {"bot": "advance"}, {"bot": "advance"}])
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    sent_at = -1
    while True:
        st = await c.until(lambda s, after=sent_at: s["outcome"] is not None
                           or (bool(s["legal"]) and c.version > after))
        if st["outcome"] is not None:
            break
        sent_at = c.version
        await c.send("act", action=next(a for a in st["legal"] if a != "resign"))
    await c.close()
    r = await get(server, f"/api/matches/{made['match_id']}/analysis")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "table" and body["seats"] == [0]
    assert body["budget"]["units"] == "points" and body["budget"]["doubt"] == 15.0
    got = await get(server, f"/api/matches/{made['match_id']}/record")
    record = GameRecord.loads(json.dumps(got.json()["record"]))
    states = work.states_of(record)
    human_choices = [i + 1 for i, s in enumerate(states[:-1])
                     if s.to_move == 0 and len(s.legal_actions()) > 1]
    bot_moves = [i + 1 for i, s in enumerate(states[:-1]) if s.to_move != 0]
    assert bot_moves and body["moves"]
    assert [m["step"] for m in body["moves"]] == human_choices[:len(body["moves"])]
    assert body["summary"]["unknown"] == len(human_choices) - len(body["moves"])
    for m in body["moves"]:
        assert m["seat"] == 0 and m["action"] == record.actions[m["step"] - 1]
        assert m["value"] <= m["best_value"] or m["best"] == m["action"]
        assert m["doubtful"] == (m["best"] != m["action"] and m["best_value"] - m["value"] >= 15.0)
    doubtful = body["summary"]["doubtful"]["0"]
    assert doubtful == sum(m["doubtful"] for m in body["moves"]) and doubtful >= 3
    again = json.loads(work.table(record.dumps(), [0], 60.0))["moves"]
    assert again[:len(body["moves"])] == body["moves"]
