"""Table chat against the real app and SQLite (issue 15): a line reaches both seats
and a spectator exactly as written (markup is only text), quick phrases by key, the
refusals (too long, empty, control characters, unknown phrase, a spectator writing,
too fast) each change nothing, and the chat is kept with the match."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.live import Client, LiveServer, create

GAME = "gammel_jomfru"


async def chats(c: Client, n: int) -> list[dict[str, Any]]:
    got = []
    while len(got) < n:
        msg = await c.recv(5)
        if msg["t"] == "chat":
            got.append(msg["d"])
        else:
            assert msg["t"] in ("state", "welcome"), msg
    return got


async def error_of(c: Client) -> dict[str, Any]:
    while True:
        msg = await c.recv(5)
        if msg["t"] == "error":
            return dict(msg["d"])
        assert msg["t"] in ("state", "welcome", "chat"), msg


async def table_of_two(server: LiveServer, host: str | None = None
                       ) -> tuple[dict[str, Any], Client, Client, Client]:
    """A two-seat table (made by ``host`` if given), its invite claimed: both seats and a
    spectator open, each past its welcome and state."""
    made = await create(server.http, game=GAME, seats=["me", "human"],
                        **({"player": host} if host else {}))
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        claimed = (await http.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                   json={})).json()
    a = await Client.open(server.ws, made["match_id"], made["token"])
    b = await Client.open(server.ws, made["match_id"], claimed["token"])
    watcher = await Client.open(server.ws, made["match_id"])
    for c in (a, b, watcher):
        await c.expect("welcome")
        await c.expect("state")
    return made, a, b, watcher


async def test_chat_at_the_table(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        host = (await http.post("/api/players")).json()["player_id"]
        await http.put("/api/me/name", json={"name": f"Snakke {host[:6]}"},
                       headers={"X-Player": host})
    made, a, b, watcher = await table_of_two(server, host)
    line = "<b>Hej</b> & <script>alert(1)</script> 'godt' \"spil\" 🂡"
    await a.send("chat", text=f"  {line}  ")
    for c in (a, b, watcher):
        [got] = await chats(c, 1)
        assert got["text"] == line and got["seat"] == 0 and got["phrase"] is None
        assert got["name"] == f"Snakke {host[:6]}" and isinstance(got["id"], int)
    await b.send("chat", phrase="good_game")
    for c in (a, b, watcher):
        [got] = await chats(c, 1)
        assert got["phrase"] == "good_game" and got["text"] == "" and got["seat"] == 1
        assert got["name"] is None
    # Refusals: each an error to the sender only, nothing stored.
    for d, code, key in (({"text": "x" * 301}, "bad_chat", "server.chat_long"),
                         ({"text": "   "}, "bad_chat", "server.chat_empty"),
                         ({"text": "to\nlinjer"}, "bad_chat", "server.chat_characters"),
                         ({"text": "skjult\u202etekst"}, "bad_chat", "server.chat_characters"),
                         ({"phrase": "<b>"}, "bad_chat", "server.chat_phrase"),
                         ({"text": 7}, "malformed", None)):
        await b.send("chat", **d)
        err = await error_of(b)
        assert err["code"] == code and err.get("key") == key and err["ref"] == "chat"
    await watcher.send("chat", text="må jeg?")
    assert (await error_of(watcher))["code"] == "spectator"
    # Too fast: the burst is five lines (one was said above), then one every 2 s.
    for i in range(4):
        await a.send("chat", text=f"linje {i}")
    await a.send("chat", text="én for meget")
    err = await error_of(a)
    assert err["code"] == "chat_slow" and err["key"] == "server.chat_slow"
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        kept = (await http.get(f"/api/matches/{made['match_id']}/chat")).json()["messages"]
    assert [m["text"] or m["phrase"] for m in kept] == [
        line, "good_game", "linje 0", "linje 1", "linje 2", "linje 3"]
    assert all(m["version"] == 0 for m in kept)
    for c in (a, b, watcher):
        await c.close()


async def test_a_burst_from_both_seats(server: LiveServer) -> None:
    """Ten lines said at once from two sockets are written together (one insert for the
    lines said while the previous chat write commits): each gets its own id, every
    socket hears all ten in the order of their ids, and the kept chat has that order."""
    made, a, b, watcher = await table_of_two(server)
    said = []
    for i in range(5):
        for seat, c in ((0, a), (1, b)):
            said.append((seat, f"byge {seat}-{i}"))
            await c.send("chat", text=f"byge {seat}-{i}")
    heard = {id(c): await chats(c, 10) for c in (a, b, watcher)}
    for lines in heard.values():
        ids = [line["id"] for line in lines]
        assert ids == sorted(ids) and len(set(ids)) == 10
        assert sorted((line["seat"], line["text"]) for line in lines) == sorted(said)
        # each seat's own lines keep the order it said them in
        for seat in (0, 1):
            assert [line["text"] for line in lines if line["seat"] == seat] == [
                t for s, t in said if s == seat]
    assert heard[id(a)] == heard[id(b)] == heard[id(watcher)]
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        kept = (await http.get(f"/api/matches/{made['match_id']}/chat")).json()["messages"]
    assert [(m["id"], m["text"]) for m in kept] == [
        (line["id"], line["text"]) for line in heard[id(a)]]
    for c in (a, b, watcher):
        await c.close()


async def test_separators_and_invisible_lines_are_refused(server: LiveServer) -> None:
    """Issue 28: U+2028/U+2029 break a line as much as a newline; a line of only
    invisible characters (Hangul fillers, a lone combining mark) says nothing."""
    made, a, b, watcher = await table_of_two(server)
    for text in ("før\u2028efter", "før\u2029efter", "\u3164\u3164", "\u115f", "\u0301",
                 "\u3164 \u3164"):
        await a.send("chat", text=text)
        err = await error_of(a)
        assert err["code"] == "bad_chat" and err["key"] == "server.chat_characters", (text,
                                                                                      err)
    await a.send("chat", text="Hej \u3164 igen")  # visible text around a filler passes
    assert (await chats(b, 1))[0]["text"] == "Hej \u3164 igen"
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        kept = (await http.get(f"/api/matches/{made['match_id']}/chat")).json()["messages"]
    assert [m["text"] for m in kept] == ["Hej \u3164 igen"]
    for c in (a, b, watcher):
        await c.close()


async def test_a_solitaire_has_no_chat(server: LiveServer) -> None:
    made = await create(server.http, game="posthus")
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.send("chat", text="hej")
    err = await error_of(c)
    assert err["code"] == "no_chat" and err["key"] == "server.no_chat"
    await c.send("chat", phrase="hello")
    assert (await error_of(c))["code"] == "no_chat"
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        kept = (await http.get(f"/api/matches/{made['match_id']}/chat")).json()["messages"]
    assert kept == []
    await c.close()
