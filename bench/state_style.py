"""Benchmark of the state style (issue 30): what a ``@dataclass(frozen=True, slots=True)``
state would cost on the engines' hot path, and what value equality costs.  Prints a table.

    python bench/state_style.py            # about half a minute of CPU
    python bench/state_style.py --quick    # a smoke run

1. Building a successor state, the engines' hot path (every ``apply``): Gammel Jomfru's
   16 fields written three ways, side by side in one process — as the engine does it
   (``object.__new__`` and plain attribute writes on a class with ``__slots__``), as a
   frozen slotted dataclass through its generated ``__init__``, and as one through
   ``object.__new__`` and ``object.__setattr__`` (what a frozen class must use to skip
   ``__init__``);
2. random playouts of every registered game through ``legal_actions()`` and
   ``apply_legal`` (actions per CPU second), the engines as they are;
3. value equality (``core.protocol.State``): ``==`` against a state parsed back from the
   same position text, and ``hash``, per call.

CPU time (``time.process_time``), best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from spillebord import games
from spillebord.core.protocol import State

FIELDS = ("game", "seats", "deal", "flags", "nearest_first", "turn", "down", "up", "centre",
          "turned", "out", "turns", "limit", "recycled", "done", "_legal")


class Plain:
    __slots__ = FIELDS


@dataclass(frozen=True, slots=True)
class Frozen:
    game: Any
    seats: int
    deal: int
    flags: Any
    nearest_first: bool
    turn: int
    down: Any
    up: Any
    centre: Any
    turned: Any
    out: Any
    turns: int
    limit: int
    recycled: Any
    done: bool
    _legal: Any


def build_plain(v: tuple[Any, ...]) -> Any:
    new = object.__new__(Plain)
    (new.game, new.seats, new.deal, new.flags, new.nearest_first, new.turn, new.down,
     new.up, new.centre, new.turned, new.out, new.turns, new.limit, new.recycled,
     new.done, new._legal) = v
    return new


def build_frozen_init(v: tuple[Any, ...]) -> Any:
    return Frozen(*v)


_set = object.__setattr__


def build_frozen_setattr(v: tuple[Any, ...]) -> Any:
    new = object.__new__(Frozen)
    for name, value in zip(FIELDS, v, strict=True):
        _set(new, name, value)
    return new


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The least CPU seconds of ``repeat`` runs, and the run's count."""
    times, count = [], 0
    for _ in range(repeat):
        start = time.process_time()
        count = fn()
        times.append(time.process_time() - start)
    return min(times), count


def successors(n: int, repeat: int) -> None:
    values = (None, 4, 7, {}, False, 0, ((),) * 4, ((),) * 4, (), None, (), 0, 1000,
              (False,) * 4, False, None)
    print(f"1. successor construction, {n:,} states (CPU, best of {repeat})")
    base = None
    for name, build in (("plain class, __slots__ (engine today)", build_plain),
                        ("frozen slots dataclass, __init__", build_frozen_init),
                        ("frozen slots dataclass, __setattr__", build_frozen_setattr)):
        def run(build: Callable[[tuple[Any, ...]], Any] = build) -> int:
            for _ in range(n):
                build(values)
            return n
        cpu, _ = best(run, repeat)
        base = base or cpu
        print(f"   {name:40s} {cpu / n * 1e9:7.0f} ns/state   {cpu / base:4.2f}×")


def playouts(actions: int, repeat: int) -> list[State]:
    print(f"2. random playouts, {actions:,} actions per game (CPU, best of {repeat})")
    kept: list[State] = []
    for game in games.all_games():
        seats = game.default_seats

        def run(game: Any = game, seats: int = seats) -> int:
            rng = random.Random(1)
            done, deal = 0, 0
            while done < actions:
                deal += 1
                state = game.new(deal=deal, seats=seats)
                while done < actions:
                    legal = state.legal_actions()
                    if not legal:
                        break
                    state = state.apply_legal(rng.choice(legal))
                    done += 1
                    if done % 97 == 0 and len(kept) < 400 * len(games.all_games()):
                        kept.append(state)
            return done
        cpu, done = best(run, repeat)
        print(f"   {game.key:16s} {seats} seats  {done / cpu:10,.0f} actions/CPU s")
    return kept


def equality(states: list[State], repeat: int) -> None:
    print(f"3. value equality over {len(states)} states from the playouts (CPU, best of "
          f"{repeat})")
    twins = [s.game.parse_position(s.position(), **dict(s.flags)) for s in states]
    assert all(a == b for a, b in zip(states, twins, strict=True))

    def eq() -> int:
        return sum(a == b for a, b in zip(states, twins, strict=True))

    def hashed() -> int:
        return len({hash(s) for s in states})

    for name, fn in (("== (position texts)", eq), ("hash (position text)", hashed)):
        cpu, _ = best(fn, repeat)
        print(f"   {name:32s} {cpu / len(states) * 1e6:8.2f} µs per state")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (best)")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(f"cores: {len(__import__('os').sched_getaffinity(0))}; load average "
          f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    successors(400_000 // scale, args.repeat)
    kept = playouts(60_000 // scale, args.repeat)
    equality(kept, args.repeat)


if __name__ == "__main__":
    main()
