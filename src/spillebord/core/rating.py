"""The rating arithmetic (pure, below the server so analysis/ can use it too): seat-count
classes, OpenSkill updates over the game's own teams (``Game.teams``) and the number
shown (server/ratings/service.py explains the choices).  A game is named by its key and
read from the registry (core/registry.py)."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from spillebord.core import registry

MODEL = PlackettLuce()


def seat_class(game: str, seats: int) -> str:
    """The seat-count class a table plays in: a game played in teams by its exact size
    (kugler: 4, 6, 8 — the teams differ with it); other games 2, 3-4 or 5-8 seats."""
    if seats <= 2 or len(teams_of(game, seats)) < seats:
        return str(seats)
    return "3-4" if seats <= 4 else "5-8"


def shown(mu: float, sigma: float) -> int:
    return round(1000 + 40 * (mu - 3 * sigma))


def teams_of(game: str, seats: int) -> list[tuple[int, ...]]:
    """The game's teams at a table of ``seats`` (every seat alone unless the game says)."""
    return list(registry.load(game).teams(seats))


def rate(game: str, seats: int, ranking: Sequence[Sequence[int]],
         before: dict[int, tuple[float, float]],
         model: PlackettLuce = MODEL) -> dict[int, tuple[float, float]]:
    """The seats' new (μ, σ) from their old ones and the outcome's ranking (``model``:
    the site's by default; batch analysis rates bots with one without drift)."""
    place = {seat: i for i, group in enumerate(ranking) for seat in group}
    teams = teams_of(game, seats)
    ranks = [float(min(place.get(s, len(ranking)) for s in team)) for team in teams]
    rated = model.rate([[model.rating(mu=before[s][0], sigma=before[s][1]) for s in team]
                        for team in teams], ranks=ranks)
    out: dict[int, tuple[float, float]] = {}
    for team, results in zip(teams, rated, strict=True):
        for seat, r in zip(team, results, strict=True):
            out[seat] = (float(r.mu), float(r.sigma))
    return out


def default() -> tuple[float, float]:
    r = MODEL.rating()
    return float(r.mu), float(r.sigma)
