"""The solvers layer: per-game exact or bounded solvers, and hints.

Each solver module ``spillebord.solvers.<game>`` offers
``solve(state, seconds) -> SolveResult`` and ``hint(state, seconds) -> str | None``,
and may offer ``warm_up()`` (load what its first call would otherwise wait for).
``solvers.load(key)`` gives that module (NotationError when a game has none).
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
    try:
        load(key)
    except NotationError:
        return False
    return True


def load(key: str) -> ModuleType:
    try:
        return importlib.import_module(f"spillebord.solvers.{key}")
    except ModuleNotFoundError as exc:
        if exc.name == f"spillebord.solvers.{key}":
            raise NotationError(f"there is no solver for {key}") from exc
        raise
