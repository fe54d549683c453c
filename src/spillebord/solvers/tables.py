"""The shipped tables of solved deals: for a solitaire, the verdict of the first round
of each numbered deal in a range, and the difficulty of the winnable ones (computed
offline by ``scripts/build_tables.py``; the method and figures are in docs/analysis.md).

A table lives in ``spillebord/solvers/<game>/data/verdicts.json``, is read once, on
first use, and applies only to new games with the flags it was computed for:

    {"game": "posthus", "flags": {"open_gaps": false}, "first": 1,
     "verdicts": "ww?u…",         one letter a deal: winnable, unwinnable, ? unknown
     "difficulty": [12, 80, …],   0–100 a deal (-1: not winnable or not rated)
     "levels": "emh-…",           easy / medium / hard a deal (- : not offered)
     "method": "…"}

``verdict(game, deal, flags)`` is what the live verdict reads for the first position
of a numbered deal; ``winnable_deals(game, level)`` is the pool the difficulty picker
and the daily deal draw from.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from spillebord.core.errors import NotationError
from spillebord.solvers import Verdict

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
_VERDICT: dict[str, Verdict] = {"w": "winnable", "u": "unwinnable", "?": "unknown"}
_LEVEL: dict[str, Level] = {"e": "easy", "m": "medium", "h": "hard"}


@dataclass(frozen=True)
class Table:
    game: str
    flags: dict[str, bool]
    first: int
    verdicts: str
    difficulty: tuple[int, ...]
    levels: str

    @property
    def last(self) -> int:
        return self.first + len(self.verdicts) - 1

    def covers(self, deal: int, flags: dict[str, bool]) -> bool:
        return self.first <= deal <= self.last and flags == self.flags


def _parse(data: dict[str, Any]) -> Table:
    t = Table(str(data["game"]), {str(k): bool(v) for k, v in data["flags"].items()},
              int(data["first"]), str(data["verdicts"]),
              tuple(int(x) for x in data["difficulty"]), str(data["levels"]))
    n = len(t.verdicts)
    if len(t.difficulty) != n or len(t.levels) != n or not set(t.verdicts) <= set(_VERDICT) \
            or not set(t.levels) <= {*_LEVEL, "-"}:
        raise ValueError(f"the {t.game} table is malformed")
    return t


@functools.cache
def table(game: str) -> Table | None:
    """The game's shipped table, or None when it has none (read once per process)."""
    try:
        path = resources.files(f"spillebord.solvers.{game}").joinpath("data/verdicts.json")
        text = path.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    return _parse(json.loads(text))


def _full_flags(game: str, flags: dict[str, bool]) -> dict[str, bool]:
    from spillebord import games

    return dict(games.load(game).check_flags(flags))


def verdict(game: str, deal: int, flags: dict[str, bool]) -> Verdict | None:
    """The shipped verdict of the first round of ``deal`` (a new game with ``flags``),
    or None when no table covers it."""
    t = table(game)
    if t is None or not t.covers(deal, _full_flags(game, flags)):
        return None
    return _VERDICT[t.verdicts[deal - t.first]]


def difficulty(game: str, deal: int, flags: dict[str, bool]) -> tuple[int, Level] | None:
    """The difficulty score 0–100 and level of a winnable deal the table rates."""
    t = table(game)
    if t is None or not t.covers(deal, _full_flags(game, flags)):
        return None
    i = deal - t.first
    letter = t.levels[i]
    return None if letter == "-" else (t.difficulty[i], _LEVEL[letter])


def has_levels(game: str) -> bool:
    t = table(game)
    return t is not None and any(c != "-" for c in t.levels)


def winnable_deals(game: str, level: str) -> list[int]:
    """The deals the table proves winnable at ``level`` (with the table's flags)."""
    if level not in LEVELS:
        raise NotationError(f"a difficulty is one of {', '.join(LEVELS)}")
    t = table(game)
    if t is None:
        raise NotationError(f"{game} has no table of rated deals")
    letter = level[0]
    return [t.first + i for i, c in enumerate(t.levels) if c == letter]
