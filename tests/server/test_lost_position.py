"""A hint in a lost position (issue 27): the server says the position cannot be won any
more (no move suggested), counts the hint, and "rewind" undoes back to the last position
of the line a solver verdict found winnable.

Posthuskabalen deal 6 (winnable) with this line is lost after its 20th move (found with
the solver; a position the solver decides in well under a second)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.server.live import Client, LiveServer, create, settings_for

GAME = "posthus"
DEAL = 6
LINE = ["KH d1", "TS a2", "7D a3", "KC g2", "JD g4", "8H c3", "8C e2", "JH f4", "redeal",
        "7S a1", "7S a4", "redeal", "QS a2", "8D b3", "8S b4", "7C a1", "9S e2", "QH g4",
        "9D d4", "KH h4"]
ASK_AT = 8  # also ask the verdict after this many moves


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The solver's budget as in production and more (a loaded machine decides less in
    the tests' usual 2 s)."""
    db = tmp_path_factory.mktemp("db") / "spillebord.db"
    live = LiveServer(settings_for(str(db), hint_seconds=10.0, verdict_seconds=10.0)).start()
    yield live
    live.stop()


async def verdict(c: Client) -> str:
    await c.send("verdict")
    answer: str = (await c.expect("verdict", timeout=30))["d"]["verdict"]
    return answer


async def test_hint_in_a_lost_position_and_back_to_the_last_winnable(
        server: LiveServer) -> None:
    made = await create(server.http, game=GAME, deal=DEAL)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    st = await c.expect("state")
    assert st["d"]["hints"] == 0
    known = {0: await verdict(c)}
    assert known[0] == "winnable"
    # Nothing to go back to yet: the start is the position itself.
    await c.send("rewind")
    assert (await c.expect("error"))["d"]["code"] == "no_winnable"
    for i, action in enumerate(LINE, start=1):
        await c.send("act", action=action)
        await c.until(lambda s, want=i: c.version >= want)
        if i == ASK_AT:
            known[i] = await verdict(c)
    await c.send("hint")
    hint = (await c.expect("hint", timeout=60))["d"]
    assert hint == {"action": None, "verdict": "unwinnable", "hints": 1}
    await c.send("sync", v=c.version)
    assert (await c.expect("state"))["d"]["hints"] == 1
    target = max(i for i, v in known.items() if v == "winnable")
    v = c.version
    await c.send("rewind")
    st2 = await c.until(lambda s: c.version >= v + len(LINE) - target)
    assert st2["clock"]["moves"] == sum(1 for a in LINE[:target])
    assert all(e["kind"] == "undo" for e in st2["events"])
    await c.close()
