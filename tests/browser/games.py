"""The games the browser tests open, read from the manifests (no list of games here)."""

from __future__ import annotations

from typing import Any

from spillebord import games


def seats_at_least(key: str, n: int) -> int:
    """The game's fewest seats that are at least ``n`` (else its most)."""
    counts = games.load(key).seat_counts
    return min((c for c in counts if c >= n), default=max(counts))


def with_bots(key: str, n: int, bot: dict[str, Any]) -> list[Any]:
    """A seat spec: the player in seat 0 and ``bot`` in each other of ``n`` seats."""
    return ["me", *[dict(bot) for _ in range(seats_at_least(key, n) - 1)]]


def leveled_tables() -> dict[str, int]:
    """Every table game offered to players that declares levels, at its fewest seats."""
    return {k: min(games.load(k).seat_counts) for k in games.ready_keys()
            if games.manifest(k).levels}
