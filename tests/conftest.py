"""Shared fixtures: the registered games and their seat counts."""

from __future__ import annotations

from spillebord import games


def game_seat_params() -> list[tuple[str, int]]:
    return [(g.key, n) for g in games.all_games() for n in g.seat_counts]
