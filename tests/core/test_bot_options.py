"""Bots declare their options and the registry refuses anything else; levels 1–3 of the
games whose manifest declares levels name registered bots with options that fit them."""

from __future__ import annotations

from typing import Any

import pytest

from spillebord import bots, games
from spillebord.core.errors import NotationError

LEVELED = [m.key for m in games.manifests() if m.levels]


@pytest.mark.parametrize("key", games.keys())
def test_random_bot_takes_no_options(key: str) -> None:
    assert isinstance(bots.load(key, "random"), bots.RandomBot)
    with pytest.raises(NotationError, match="no option 'zzz'"):
        bots.load(key, "random", zzz=1)


@pytest.mark.parametrize("key", LEVELED)
def test_games_with_levels_have_three(key: str) -> None:
    table = bots.levels(key)
    assert sorted(table) == [1, 2, 3]
    assert bots.default_level(key) in table
    for n, level in table.items():
        assert level.bot in bots.names(key) and level.bot != "random"
        assert isinstance(bots.load(key, level.bot, level=n), bots.Bot)
    cat = bots.catalogue(key)
    assert [x["level"] for x in cat["levels"]] == [1, 2, 3]
    assert set(cat["bot_options"]) == set(bots.names(key))


@pytest.mark.parametrize(("options", "message"), [
    ({"playouts": 0}, "at least 1"),
    ({"playouts": 2.5}, "an integer"),
    ({"playouts": True}, "an integer"),
    ({"seconds": "fast"}, "a number"),
    ({"seconds": float("nan")}, "finite"),
    ({"policy": "psychic"}, "one of random, load"),
    ({"level": 9}, "no level 9"),
    ({"level": 1}, "played by the heuristic bot"),
    ({"level": 2, "playouts": 3}, "cannot be combined"),
])
def test_declared_options_are_enforced(options: dict[str, Any], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        bots.load("gammel_jomfru", "search", **options)


def test_fitting_options_pass() -> None:
    assert bots.resolve("gammel_jomfru", "search", {"seconds": 1, "policy": "load"}) == {
        "seconds": 1.0, "policy": "load"}
    assert bots.resolve("gammel_jomfru", "search", {"level": 3})["playouts"] == 64
