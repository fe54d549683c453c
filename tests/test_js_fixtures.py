"""The renderers' node-test fixtures (tests/js/fixtures/, recorded from the server by
tests/js/record_states.py) still match the engine: each recorded starting position is
exactly what ``games.load(game).new(deal, seats, **flags).view(seat)`` gives today (the
deal from the match info, for tables from the finished game's reveal), and every other
recorded view has the same fields as the engine's.  When an engine's view changes, this
fails: record the fixtures again and accept the golden texts (docs/web.md, "JS checks").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spillebord import games

FIXTURES = Path(__file__).resolve().parent / "js" / "fixtures"
ALL = sorted(FIXTURES.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def deal_of(fx: dict[str, Any]) -> int | None:
    """The deal: a solitaire's is public; a table's is revealed when its game is over."""
    if fx["match"]["deal"] is not None:
        return int(fx["match"]["deal"])
    finished = FIXTURES / fx["name"].replace("-spectator", "").replace("-start", "-finished.json")
    if finished.exists():
        return int(load(finished)["match"]["deal"])
    return None


def fresh_view(fx: dict[str, Any], deal: int) -> Any:
    seats = len(fx["match"]["seats"])
    state = games.load(fx["game"]).new(deal=deal, seats=seats, **fx["match"]["flags"])
    return json.loads(json.dumps(state.view(fx["seat"])))


def test_there_are_fixtures() -> None:
    assert len(ALL) >= 16


STARTS = [p for p in ALL if p.stem.endswith("-start")]


@pytest.mark.parametrize("path", STARTS, ids=lambda p: p.stem)
def test_a_recorded_start_is_the_engines_start(path: Path) -> None:
    fx = load(path)
    deal = deal_of(fx)
    if deal is None:
        pytest.skip("a table game that was not played to its end: its deal stays sealed")
    assert fresh_view(fx, deal) == fx["state"]["view"]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_a_recorded_view_has_the_engines_fields(path: Path) -> None:
    fx = load(path)
    fields = set(fresh_view(fx, 1).keys())
    recorded = set(fx["state"]["view"].keys())
    # A finished game's view may add its outcome.
    assert recorded - {"outcome"} == fields - {"outcome"}
