"""The solitaire clock (moves and time played), statistics per game (win rate, dates,
streaks, best time and moves) and the best result on one deal — played on a real server
with a real database."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import httpx
from tests.server.live import Client, LiveServer, create

from spillebord.server.people.stats import streaks
from spillebord.server.room.clock import IDLE_CAP, play_clock

# A winning line of posthus deal 386886893 (found by the posthus solver); the server
# checks every move, so a change of the rules or the deal shows here as a refusal.
DEAL = 386886893
WIN = ["JH f3", "7H a2", "TS f2", "7D a1", "9H d3", "8H b2", "9H c2", "9S d3", "TH d2",
       "TS e3", "JC f2", "8D b1", "KD h3", "TD f4", "9D c1", "JD g4", "QD h4", "QH g3",
       "KC e1", "9C b3", "QS h2", "8S b4", "9S c4", "TC c3", "JH e2", "JS f3", "8C e4",
       "7C a3", "TS d4", "QC g2", "TD d1", "9C f4", "8C b3", "JS e4", "JC d3", "QH f2",
       "QD g3", "JD f3", "TC g4", "9C c3", "QS f4", "JC h4", "TC d3", "JC e3", "KS g4",
       "KC h2", "JD e1", "QC f3", "KH g2", "QD f1", "KC g3", "KD g1"]


def test_clock_caps_pauses_and_counts_moves() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    at = [t0 + timedelta(seconds=s) for s in (5, 7, 3600 + 7, 3600 + 10, 3600 + 11)]
    events = [("act", "8H c2", at[0]), ("act", "9H c3", at[1]), ("undo", "", at[2]),
              ("redo", "", at[3]), ("act", "resign", at[4])]
    clock = play_clock(t0, events)
    assert clock.moves == 2  # on the board: two, one undone and redone; not the resignation
    assert clock.seconds == 5 + 2 + IDLE_CAP + 3 + 1
    assert play_clock(t0, []).moves == 0


def test_streaks() -> None:
    assert streaks([]) == (0, 0)
    assert streaks([True, True, False, True]) == (1, 2)
    assert streaks([False, True, True, True]) == (3, 3)
    assert streaks([True, False]) == (0, 1)


async def _play(server: LiveServer, pid: str, moves: list[str], undo_after: int | None,
                resign: bool) -> tuple[str, dict[str, object]]:
    made = await create(server.http, game="posthus", seats=["me"], deal=DEAL, player=pid)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.until(lambda s: True)
    await asyncio.sleep(0.3)  # the player looks at the deal: the clock runs
    for i, move in enumerate(moves):
        before = c.version
        await c.send("act", action=move)
        await c.until(lambda s, b=before: c.version > b)
        assert c.state is not None and c.state["clock"]["moves"] == i + 1
        if undo_after == i + 1:
            before = c.version
            await c.send("undo")
            await c.until(lambda s, b=before: c.version > b)
            assert c.state["clock"]["moves"] == i  # an undo takes the move off the count
            break
    if resign:
        before = c.version
        await c.send("act", action="resign")
        await c.until(lambda s, b=before: c.version > b)
    assert c.state is not None and c.state["outcome"] is not None
    clock = c.state["clock"]
    await c.close()
    return made["match_id"], clock


async def test_best_result_and_statistics(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        pid = (await http.post("/api/players")).json()["player_id"]
        url = f"/api/players/{pid}/best"
        none = (await http.get(url, params={"game": "posthus", "deal": DEAL})).json()
        assert none == {"game": "posthus", "deal": DEAL, "played": 0, "wins": 0, "best": None}
    lost, lost_clock = await _play(server, pid, WIN[:3], undo_after=3, resign=True)
    assert lost_clock["moves"] == 2
    won, won_clock = await _play(server, pid, WIN, undo_after=None, resign=False)
    assert won_clock["moves"] == len(WIN)
    assert 0.3 <= won_clock["seconds"] <= IDLE_CAP * (len(WIN) + 1)
    async with httpx.AsyncClient(base_url=server.http) as http:
        flags = (await http.get(f"/api/matches/{won}")).json()["flags"]
        best = (await http.get(url, params={"game": "posthus", "deal": DEAL,
                                            "flags": json.dumps(flags)})).json()
        assert best["played"] == 2 and best["wins"] == 1
        assert best["best"]["match_id"] == won and best["best"]["won"]
        assert best["best"]["moves"] == len(WIN) and best["best"]["bonus"] == 3
        other = {**flags, "__other": True}
        none = (await http.get(url, params={"game": "posthus", "deal": DEAL,
                                            "flags": json.dumps(other)})).json()
        assert none["played"] == 0
        record = (await http.get(f"/api/matches/{won}/record")).json()
        assert record["clock"] == won_clock
        stats = (await http.get(f"/api/players/{pid}/stats")).json()
        g = stats["by_game"]["posthus"]
        assert (g["games"], g["finished"], g["wins"], g["win_rate"]) == (2, 2, 1, 0.5)
        assert (g["current_streak"], g["longest_streak"]) == (1, 1)
        assert g["best_moves"] == len(WIN) and g["best_seconds"] == won_clock["seconds"]
        assert g["first"] <= g["last"]
        assert [e["match_id"] for e in stats["timeline"]] == [lost, won]
        assert stats["timeline"][1]["moves"] == len(WIN)
        # Bad input: a clear refusal.
        for params, status, code in (
                ({"game": "posthus", "deal": DEAL, "flags": "nope"}, 400, "bad_flags"),
                ({"game": "posthus", "deal": DEAL, "flags": '{"a": 1}'}, 400, "bad_flags"),
                ({"game": "gammel_jomfru", "deal": 1}, 400, "unknown_game"),
                ({"game": "posthus", "deal": -1}, 422, "bad_request")):
            r = await http.get(url, params=params)
            assert r.status_code == status, (params, r.text)
            assert r.json()["detail"]["code"] == code
        r = await http.get("/api/players/x/best", params={"game": "posthus", "deal": 1})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_player"
