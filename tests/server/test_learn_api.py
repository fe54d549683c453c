"""The lesson API over the wire (issue #33, docs/protocol.md "Lessons"): the server walks
the lesson, explains a move the step does not take without playing it, refuses action
lists that leave the lesson, and after the lesson plays the other seats itself."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.live import LiveServer

from spillebord import learn


async def post(server: LiveServer, game: str, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        return await http.post(f"/api/learn/{game}", json=body)


async def test_every_lesson_walks_to_its_end_over_the_wire(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        offered = (await http.get("/api/learn")).json()
        assert offered == learn.lesson_games()
        for game in offered:
            lesson = learn.load(game)
            first = (await http.get(f"/api/learn/{game}")).json()
            assert [s["seat"] for s in first["steps"]] == [s.seat for s in lesson.steps]
            answer = first
            while not answer["lesson_over"]:
                step = lesson.steps[answer["step"]]
                assert step.seat == 0 and answer["expect"] == step.action
                assert step.action in answer["legal"]
                r = await http.post(f"/api/learn/{game}", json={
                    "actions": answer["actions"], "action": step.action})
                assert r.status_code == 200, r.text
                answer = r.json()
                assert answer["ok"] and answer["events"][0]["action"] == step.action
            # After the lesson: the learner's turn in a running game (table games: the
            # computers moved first where the lesson ends on another seat's turn).
            assert answer["to_move"] == 0 and answer["outcome"] is None and answer["legal"]
            r = await http.post(f"/api/learn/{game}", json={
                "actions": answer["actions"],
                "action": next(a for a in answer["legal"] if a != "resign")})
            after = r.json()
            assert after["ok"] and len(after["actions"]) > len(answer["actions"])
            if learn.start(lesson).seats > 1 and after["outcome"] is None:
                assert after["to_move"] == 0  # the other seats played in between


async def test_a_wrong_move_is_explained_and_not_played(server: LiveServer) -> None:
    r = await post(server, "posthus", {"actions": [], "action": "7C a3"})
    body = r.json()
    assert r.status_code == 200 and body["ok"] is False
    assert body["message"]["key"] == "learn.not_taught" and body["actions"] == []
    # Not legal at all: the engine's own refusal, with its key.
    r = await post(server, "posthus", {"actions": [], "action": "KC c1"})
    body = r.json()
    assert body["ok"] is False and body["message"]["key"].startswith("posthus.")
    assert body["actions"] == [] and body["events"] == []
    # Gammel Jomfru: never onto one's own face-up pile.
    steps = [s.action for s in learn.load("gammel_jomfru").steps]
    r = await post(server, "gammel_jomfru", {"actions": steps[:5], "action": "p0"})
    assert r.json()["message"]["key"] == "gammel_jomfru.own_pile"


async def test_a_click_is_resolved_by_the_game(server: LiveServer) -> None:
    r = await post(server, "studenter", {"actions": [], "click": "stock"})
    body = r.json()
    assert body["ok"] is False and body["message"]["key"] == "learn.not_taught"
    r = await post(server, "studenter", {"actions": [], "click": "f1"})
    assert r.json()["message"]["key"] == "server.click_nothing"


async def test_bad_input_is_refused_and_changes_nothing(server: LiveServer) -> None:
    r = await post(server, "posthus", {"actions": ["7C a3"], "action": "TD b4"})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_lesson"
    r = await post(server, "nonesuch", {"actions": []})
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_game"
    r = await post(server, "posthus", {"actions": ["x" * 81]})
    assert r.status_code in (400, 422)
    steps = [s.action for s in learn.load("posthus").steps]
    r = await post(server, "posthus", {"actions": [*steps, "not a move"]})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_lesson"
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        page = await http.get("/learn/nonesuch", headers={"Accept": "text/html"})
        assert page.status_code == 404
        page = await http.get("/learn/posthus", headers={"Accept": "text/html"})
        assert page.status_code == 200 and "learn.js" in page.text
