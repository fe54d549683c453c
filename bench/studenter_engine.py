"""Benchmark of Studenterkabalen's engine (issue 32): random playouts through
``legal_actions()`` and ``apply_legal``, every game dealt by ``game.new`` — actions per
CPU second — of this checkout's ``StudenterState`` and deal shuffle (core/rng.py) beside
an earlier commit's, read from git (default: the commit before issue 32's speed work),
side by side in one process, cases interleaved.  Both play the
same random games (one ``random.Random`` a call, so the same draws; every legal action
equally likely, resigning included, as bench/state_style.py plays; at most 1,000 actions a
game), and their legal lists are checked equal along the first game.

    python bench/studenter_engine.py                       # vs 5daf8c1, 5 rounds × 2 s
    python bench/studenter_engine.py --against main --rounds 10 --seconds 1
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from spillebord.core.registry import load  # noqa: E402
from spillebord.games.studenter import game as studenter_game  # noqa: E402
from spillebord.games.studenter import state as current  # noqa: E402

PATH = "src/spillebord/games/studenter/state.py"
RNG = "src/spillebord/core/rng.py"
CAP = 1000


def _module(commit: str, path: str, name: str) -> Any:
    """``path`` as of ``commit``, loaded as a module of its own."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout
    module = types.ModuleType(name)
    module.__file__ = f"{commit}:{path}"
    sys.modules[name] = module
    exec(compile(text, module.__file__, "exec"), module.__dict__)
    return module


def earlier(commit: str) -> tuple[Any, Any]:
    """The ``StudenterState`` class and the deal shuffle (core/rng.py's ``shuffled``)
    of ``commit``."""
    cls = _module(commit, PATH, "studenter_state_before").StudenterState
    cls.game = current.StudenterState.game
    return cls, _module(commit, RNG, "rng_before").shuffled


def convert(cls: Any, state: Any) -> Any:
    """``state`` as an instance of ``cls`` (itself when it is one)."""
    if isinstance(state, cls):
        return state
    return cls(**{name: getattr(state, name) for name in state.__dataclass_fields__})


def playouts(cls: Any, seconds: float, games: list[int]) -> tuple[int, int, list[list[str]]]:
    """Random games from ``games``' deals until ``seconds`` of CPU: games, actions, and
    the first game's legal lists (for the equality check)."""
    game = load("studenter")
    done = actions = 0
    first: list[list[str]] = []
    start = time.process_time()
    rng = random.Random(2026)  # one generator a call: seeding one a game costs µs
    while done == 0 or time.process_time() - start < seconds:
        deal = games[done % len(games)]
        state = convert(cls, game.new(deal=deal))
        for _ in range(CAP):  # a card can go row > waste > row forever: a cap
            legal = state.legal_actions()
            if done == 0:
                first.append(legal)
            if not legal:
                break
            state = state.apply_legal(rng.choice(legal))
            actions += 1
        done += 1
    return done, actions, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="5daf8c1")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    before = f"before ({args.against})"
    cases = {before: earlier(args.against),
             "now": (current.StudenterState, studenter_game.shuffled)}
    deals = list(range(1, 1001))
    firsts = []
    for cls, shuffle in cases.values():
        studenter_game.shuffled = shuffle
        firsts.append(playouts(cls, 0.0, deals)[2])
    assert firsts[0] == firsts[1], "the legal lists differ"
    games = dict.fromkeys(cases, 0)
    actions = dict.fromkeys(cases, 0)
    cpu = dict.fromkeys(cases, 0.0)
    for _ in range(args.rounds):
        for name, (cls, shuffle) in cases.items():
            studenter_game.shuffled = shuffle  # the deal's shuffle of that commit too
            start = time.process_time()
            g, n, _ = playouts(cls, args.seconds, deals)
            cpu[name] += time.process_time() - start
            games[name] += g
            actions[name] += n
    rate = {name: actions[name] / cpu[name] for name in cases}
    for name in cases:
        print(f"{name:>24}: {games[name]:6,} games, {actions[name]:9,} actions, "
              f"{cpu[name]:6.2f} CPU s, {rate[name]:9,.0f} actions / CPU s")
    print(f"now / before: {rate['now'] / rate[before]:.2f}×")


if __name__ == "__main__":
    main()
