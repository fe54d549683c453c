"""Matches of a learned baseline against Spillebord's bots (docs/research.md, "Learned
baselines"), in the format of the levels' own tables (docs/benchmarks/gammel_jomfru.md,
docs/benchmarks/kugler.md): 4 seats, two sides of two seats — the learned agent on
seats 0 and 2 in even games, 1 and 3 in odd ones, each deal played once each way
(deal ``seed + g // 2``).  In Gammel Jomfru the two seats of a side play each for
itself and the side wins a game when the gammel jomfru sits on the other side (an even
match gives 0.5); in Kugler og Jokere the two seats are partners and a game stopped by
the turn limit with tied teams counts ½.  Wilson 95 % intervals over the games.

``match(game, learned, opponent, games)`` → a ``MatchResult``; games run in worker
processes (``workers``), each game with its own ``random.Random`` so a run with bots
that have no time budget is reproducible.  ``main()`` is ``scripts/eval_learned.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from spillebord import bots, games
from spillebord.research.learned import MlpPolicy, agent_path, load_bot

SEATS = 4


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class MatchResult:
    game: str
    learned: str  # the policy file
    opponent: str  # a bot spec
    games: int
    wins: int
    halves: int
    seed: int
    cpu_seconds: float  # every worker's CPU time (the opponents' thinking included)
    wall_seconds: float

    @property
    def score(self) -> float:
        return self.wins + self.halves / 2

    @property
    def rate(self) -> float:
        return self.score / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {**asdict(self), "rate": self.rate, "ci_low": lo, "ci_high": hi}


def side_score(outcome_losers: tuple[int, ...], outcome_winners: tuple[int, ...],
               mine: tuple[int, ...]) -> float:
    """1 when the learned side won the game, 0 when it lost, ½ for neither."""
    if outcome_losers and all(s not in mine for s in outcome_losers):
        return 1.0
    if outcome_winners and all(s in mine for s in outcome_winners):
        return 1.0
    if outcome_losers or outcome_winners:
        return 0.0
    return 0.5


_Job = tuple[str, str, str, int, int]  # game, policy file, opponent spec, seed, game no
_cache: dict[tuple[str, str, str], tuple[bots.Bot, bots.Bot]] = {}


def _players(game: str, path: str, opponent: str) -> tuple[bots.Bot, bots.Bot]:
    key = (game, path, opponent)
    if key not in _cache:
        _cache[key] = (load_bot(game, SEATS, Path(path)), bots.load_spec(game, opponent))
    return _cache[key]


def play(job: _Job) -> tuple[float, float]:
    """One game of a match: the learned side's score and the game's CPU seconds."""
    game, path, opponent, seed, g = job
    learned, other = _players(game, path, opponent)
    mine = (0, 2) if g % 2 == 0 else (1, 3)
    rng = random.Random(f"{seed}:{g}")
    cpu = time.process_time()
    state = games.load(game).new(deal=seed + g // 2, seats=SEATS)
    while (seat := state.to_move) is not None:
        bot = learned if seat in mine else other
        state = state.apply(bot.choose(bots.Observation(state, seat, rng)))
    out = state.outcome
    assert out is not None
    return side_score(out.losers, out.winners, mine), time.process_time() - cpu


class _Serial:
    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Callable[[_Job], tuple[float, float]],
                       jobs: list[_Job]) -> Iterator[tuple[float, float]]:
        return map(fn, jobs)


def match(game: str, path: Path, opponent: str, games_: int, *, seed: int = 1,
          workers: int = 1, advance: Callable[[float], None] | None = None) -> MatchResult:
    """``games_`` games of the learned policy at ``path`` against ``opponent``;
    ``advance(score)`` is called after each game (e.g. a progress bar)."""
    if games_ < 2 or games_ % 2:
        raise ValueError("a match is an even number of games (each deal both ways)")
    load_bot(game, SEATS, path)  # refuse a wrong file before any worker starts
    bots.load_spec(game, opponent)
    jobs: list[_Job] = [(game, str(path), opponent, seed, g) for g in range(games_)]
    wall = time.perf_counter()
    wins = halves = 0
    cpu = 0.0
    pool: Any = (multiprocessing.get_context("fork").Pool(workers) if workers > 1
                 else _Serial())
    with pool:
        for score, seconds in pool.imap_unordered(play, jobs):
            wins += score == 1.0
            halves += score == 0.5
            cpu += seconds
            if advance is not None:
                advance(score)
    return MatchResult(game, str(path), opponent, games_, wins, halves, seed, cpu,
                       time.perf_counter() - wall)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line of ``scripts/eval_learned.py``: one match per opponent, a row
    of docs/research.md's table each."""
    parser = argparse.ArgumentParser(
        description="Evaluate a learned baseline against Spillebord's bots.")
    parser.add_argument("game", help="gammel_jomfru or kugler")
    parser.add_argument("--opponents", default="random,L1,L2,L3",
                        help="bot specs, comma-separated (default random,L1,L2,L3)")
    parser.add_argument("--games", type=int, default=400, help="games per opponent (even)")
    parser.add_argument("--seed", type=int, default=1, help="first deal number")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--policy", type=Path, default=None,
                        help="the policy file (default: the shipped one)")
    parser.add_argument("--json", type=Path, default=None, help="append results here")
    args = parser.parse_args(argv)
    path = args.policy or agent_path(args.game, SEATS)
    meta = MlpPolicy.load(path).meta
    console = Console()
    console.print(f"{path}: seed {meta.get('seed')}, {meta.get('steps', 0):,} steps, "
                  f"{meta.get('cpu_seconds')} CPU s of training")
    rows = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[note]}"),
                  console=console) as progress:
        for spec in args.opponents.split(","):
            task = progress.add_task(f"learned vs {spec}", total=args.games, note="")
            scores: list[float] = []

            def advance(score: float, task: TaskID = task, scores: list[float] = scores) -> None:
                scores.append(score)
                progress.update(task, advance=1,
                                note=f"{sum(scores) / len(scores):.3f}")

            result = match(args.game, path, spec, args.games, seed=args.seed,
                           workers=args.workers, advance=advance)
            rows.append(result.to_json())
    for r in rows:
        console.print(f"| learned vs {r['opponent']} | {r['games']} | {r['rate']:.3f} "
                      f"({r['ci_low']:.3f}–{r['ci_high']:.3f}) | {r['wins']} won, "
                      f"{r['halves']} tied | {r['cpu_seconds']:.0f} CPU s, "
                      f"{r['wall_seconds']:.0f} s wall |")
    if args.json:
        with args.json.open("a") as f:
            for r in rows:
                f.write(json.dumps({**r, "policy_seed": meta.get("seed"),
                                    "policy_steps": meta.get("steps")}) + "\n")

