"""Build kugler positions in the rule book's JSON for the ruling tests."""

from __future__ import annotations

import json

from spillebord.games.kugler import GAME, KuglerState


def position(marbles: dict[int, list[str]], hand: list[str], turn: int = 0,
             seats: int = 4, deal: int = 0, **flags: bool) -> KuglerState:
    """A rule-book position: the given marbles (other seats all in their start areas)
    and only the mover's hand; the rest is filled from the deal number."""
    full = {str(s): marbles.get(s, [f"s{s}"] * 5) for s in range(seats)}
    for s, locs in full.items():
        full[s] = locs + [f"s{s}"] * (5 - len(locs))
    data = {"seats": seats, "turn": turn, "marbles": full, "hands": {str(turn): hand}}
    return GAME.parse_position(json.dumps(data), **flags)


def legal(state: KuglerState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def marbles(state: KuglerState, seat: int) -> list[str]:
    return state.marbles(seat)
