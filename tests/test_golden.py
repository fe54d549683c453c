"""Golden playthroughs: one fixed deal per game, every state's views and legal actions as
text.  A behaviour change shows as a diff.  Regenerate deliberately with
``SPILLEBORD_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from spillebord import games

GOLDEN = Path(__file__).parent / "golden"
STEPS = 80


def playthrough(key: str) -> str:
    game = games.load(key)
    seats = game.default_seats
    state = game.new(deal=1, seats=seats)
    rng = random.Random(1)
    lines = [f"# {key}, deal 1, {seats} seats, actions chosen by random.Random(1)"]
    for step in range(STEPS):
        lines.append(f"## state {step}, to move: {state.to_move}")
        for seat in [*range(seats), None]:
            lines.append(f"view {seat}: {json.dumps(state.view(seat), sort_keys=True)}")
        legal = [str(a) for a in state.legal_actions()]
        lines.append("legal: " + " | ".join(legal))
        if not legal:
            break
        action = rng.choice(legal)
        lines.append(f"play: {action}")
        state = state.apply(action)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("key", games.keys())
def test_golden_playthrough(key: str) -> None:
    path = GOLDEN / f"{key}.txt"
    text = playthrough(key)
    if os.environ.get("SPILLEBORD_UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not os.environ.get("SPILLEBORD_UPDATE_GOLDEN"):
            pytest.fail(f"golden file {path.name} was missing and has been written; commit it")
    assert text == path.read_text(encoding="utf-8")
