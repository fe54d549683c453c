"""The solvers layer: per-game exact or bounded solvers, and hints.

Each solver module ``spillebord.solvers.<game>`` offers
``solve(state, seconds) -> SolveResult`` and ``hint(state, seconds) -> str | None``,
and may offer ``warm_up()`` (load what its first call would otherwise wait for).
``solvers.load(key)`` gives the module the game's manifest names (NotationError when a
game has none).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal

from spillebord.core.errors import NotationError

Verdict = Literal["winnable", "unwinnable", "unknown"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    verdict: Verdict
    line: tuple[str, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "line": list(self.line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            **self.extra,
        }


def has_solver(key: str) -> bool:
    """Whether the game's manifest names a solver."""
    from spillebord import games

    return games.is_registered(key) and games.manifest(key).solver is not None


def load(key: str) -> ModuleType:
    """The solver module the game's manifest names (NotationError when it has none)."""
    from spillebord import games

    module = games.manifest(key).solver
    if module is None:
        raise NotationError(f"there is no solver for {key}")
    return importlib.import_module(module)
