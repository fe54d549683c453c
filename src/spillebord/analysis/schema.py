"""The columns of the analysis result files — defined once, here (docs/analysis.md
lists them).

A file holds rows of one kind (``solve`` or ``tournament``, stored in the Parquet
metadata); a row is identified by its *key* columns, so one file can hold several runs
(strict and ``open_gaps``, several time limits) and a rerun skips the keys it holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa


@dataclass(frozen=True)
class Kind:
    name: str
    schema: pa.Schema
    key: tuple[str, ...]
    # The columns that say which run a row belongs to (the key without its last column).
    @property
    def run_columns(self) -> tuple[str, ...]:
        return self.key[:-1]


SOLVE = Kind(
    "solve",
    pa.schema([
        pa.field("game", pa.string(), nullable=False),        # game key: posthus, studenter
        pa.field("flags", pa.string(), nullable=False),       # flags that are on, sorted, ","
        pa.field("clock", pa.string(), nullable=False),       # time limit in "cpu" or "wall" s
        pa.field("seconds", pa.float64(), nullable=False),    # the time limit per deal
        pa.field("node_limit", pa.int64(), nullable=False),   # node budget per deal, 0 = none
        pa.field("deal", pa.int64(), nullable=False),         # deal number
        pa.field("verdict", pa.string(), nullable=False),     # winnable / unwinnable / unknown
        pa.field("nodes", pa.int64(), nullable=False),        # states the solver searched
        pa.field("cpu_seconds", pa.float64(), nullable=False),   # CPU time of the solve
        pa.field("wall_seconds", pa.float64(), nullable=False),  # wall time of the solve
        pa.field("line_length", pa.int32()),                  # moves of the winning line
        pa.field("line", pa.list_(pa.string())),              # the winning line (action texts)
        pa.field("extra", pa.string(), nullable=False),       # the solver's extra, JSON
    ]),
    ("game", "flags", "clock", "seconds", "node_limit", "deal"),
)

TOURNAMENT = Kind(
    "tournament",
    pa.schema([
        pa.field("game", pa.string(), nullable=False),        # gammel_jomfru, kugler
        pa.field("flags", pa.string(), nullable=False),       # flags that are on, sorted, ","
        pa.field("seats", pa.int32(), nullable=False),
        pa.field("bots", pa.string(), nullable=False),        # the --bots list as given
        pa.field("seed", pa.int64(), nullable=False),         # first deal number
        pa.field("game_no", pa.int64(), nullable=False),      # 0, 1, … within the run
        pa.field("deal", pa.int64(), nullable=False),         # seed + game_no // len(bots)
        pa.field("seat_bots", pa.list_(pa.string()), nullable=False),  # bot spec per seat
        pa.field("ranks", pa.list_(pa.int32()), nullable=False),  # place per seat, 1 = best
        pa.field("winners", pa.list_(pa.int32()), nullable=False),
        pa.field("losers", pa.list_(pa.int32()), nullable=False),
        pa.field("reason", pa.string(), nullable=False),      # the outcome's reason word
        pa.field("actions", pa.int32(), nullable=False),      # actions in the game
        pa.field("decisions", pa.list_(pa.int32()), nullable=False),  # real decisions/seat
        pa.field("decision_cpu", pa.list_(pa.float64()), nullable=False),  # their CPU s
        pa.field("cpu_seconds", pa.float64(), nullable=False),   # CPU time of the game
        pa.field("wall_seconds", pa.float64(), nullable=False),
    ]),
    ("game", "flags", "seats", "bots", "seed", "game_no"),
)

KINDS = {k.name: k for k in (SOLVE, TOURNAMENT)}


def flags_text(flags: dict[str, bool]) -> str:
    """The ``flags`` column: the names of the flags that are on, sorted, comma-joined
    (``flags`` complete, as ``Game.check_flags`` gives them; "" when none is on)."""
    return ",".join(sorted(name for name, on in flags.items() if on))


def flags_label(game: str, flags: str) -> str:
    """A ``flags`` column value for titles: the flags that differ from the game's
    defaults (``open_gaps``, ``no finished_helps_partner``), "" when none does."""
    from spillebord import games

    on = set(filter(None, flags.split(",")))
    defaults = games.load(game).check_flags({})
    return ", ".join(name if name in on else f"no {name}"
                     for name, default in sorted(defaults.items())
                     if (name in on) != default)
