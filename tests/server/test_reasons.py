"""Refusals over a real socket carry the game's message key and params (docs/protocol.md,
"error"), so the page can say them in the player's language; refusals the server makes
itself keep their code alone or use a ``server.`` key."""

from __future__ import annotations

import pytest
from tests.reasons import check_reason
from tests.server.live import Client, LiveServer, create

from spillebord import games
from spillebord.core.errors import IllegalActionError
from spillebord.games.posthus import grid as g


def a_card_that_does_not_fit(state: object) -> tuple[str, IllegalActionError]:
    """A card move the posthus rules refuse in ``state`` and the error they give."""
    grid = state.grid  # type: ignore[attr-defined]
    for gap, code in enumerate(grid):
        if code is None:
            place = g.place_name(gap)
            for card in g.DECK:
                text = f"{card} {place}"
                try:
                    state.apply(text)  # type: ignore[attr-defined]
                except IllegalActionError as exc:
                    if exc.key and exc.key.startswith("posthus.no_fit."):
                        return text, exc
    raise AssertionError("every card fits every gap")


class Msg:
    """The ``d`` of an error message, seen as an error for check_reason."""

    def __init__(self, d: dict[str, object]) -> None:
        self.key = d.get("key")
        self.params = d.get("params", {})
        self.cards = d.get("cards", [])


@pytest.mark.skipif("posthus" not in list(games.keys()), reason="posthus not registered")
async def test_an_illegal_move_is_refused_with_key_and_params(server: LiveServer) -> None:
    made = await create(server.http, game="posthus", seats=["me"], deal=7)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    local = games.load("posthus").new(7)
    text, exc = a_card_that_does_not_fit(local)

    before_v, before = c.version, c.state
    await c.send("act", action=text)
    msg = await c.recv()
    assert msg["t"] == "error" and msg["v"] == before_v and c.state == before, msg
    d = msg["d"]
    assert d["code"] == "illegal" and d["ref"] == "act"
    assert d["reason"] == str(exc)
    assert d["key"] == exc.key and d["params"] == exc.params
    assert d["cards"] == list(exc.cards) and "card" in d["cards"]
    check_reason(Msg(d), exc.key or "", exc.params, exc.cards)

    # Not a card at all: still a key, with the text as written.
    await c.send("act", action="ZZ c2")
    d = (await c.recv())["d"]
    assert d["code"] == "illegal" and d["key"] == "posthus.not_card"
    assert d["params"] == {"text": "ZZ"} and "cards" not in d

    # A stale version is the server's own refusal: no key, the code says it all.
    await c.send("act", v=c.version + 5, action=text)
    d = (await c.recv())["d"]
    assert d["code"] == "stale" and "key" not in d and "params" not in d

    # A click on a place that means nothing uses the server's key.
    await c.send("click", target="zz")
    d = (await c.recv())["d"]
    assert d["code"] == "no_move"
    if "key" in d:
        assert d["key"].startswith(("posthus.", "server.", "core."))
        assert isinstance(d["params"], dict)
    await c.close()
