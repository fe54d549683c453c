"""The post-game analysis of one finished record, in a worker process.

**Solitaires** (the game has a solver): the game is cut into rounds at each ``redeal``
action. In a round the solver's verdict can only get worse (a position that reaches a
winnable one is winnable), so the positions are not all solved: the round's first and
last positions are, then a binary search finds the last winnable position before the
first unwinnable one. The move after it is the move after which the round could no
longer be won (``lost``; ``resigned`` when that move was giving up), and the solver's
line from the position before it is a winning line. A round whose last position before a
``redeal`` was winnable without a redeal (the solver's line holds none) marks that
redeal (``redeal``): it gave up the round's bonus. Every verdict carries whether it was
solved or follows from the order (``solved``); "unknown" is a verdict too: the solver
did not decide within its budget.

**Table games** (the game has a level 3 bot with ``values``): each move of a human seat
that was a real choice (more than one legal action) is valued by the level-3 bot from
that seat's own information only (``bots.Observation``); where the bot's own choice
differs and it values the played move at least the bot's ``doubt`` lower, the move is
marked doubtful. The values are the bot's estimates in its own ``units`` (Gammel Jomfru:
a share of 1; Kugler og Jokere: board-value points, docs/learn.md), seeded from the step
so the analysis of a record is repeatable.  The bot's ``values(obs, legal, played)``
values ``played`` and the moves it considers, its own choice the best of them.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

from spillebord import bots, games, solvers
from spillebord.core.protocol import State
from spillebord.core.record import GameRecord

VERSION = 2
"""Bumped when the analysis changes; a stored analysis of an older version is redone."""
DOUBT = 0.05
"""A played move valued this much below the bot's own choice is doubtful, unless the
bot names its own threshold (``doubt``, in the units of its values: ``units``)."""
LEVEL = 3

_niced = False


def _lower_priority() -> None:
    """The analysis worker yields the CPU to the server and the bots (once per process)."""
    global _niced
    if not _niced:
        _niced = True
        with contextlib.suppress(OSError):  # not allowed here: the normal priority
            os.nice(10)


@functools.lru_cache(maxsize=64)
def analysable(game: str) -> str | None:
    """``"solitaire"``, ``"table"`` or None: what analysis the game has."""
    g = games.load(game)
    if g.is_solitaire:
        return "solitaire" if solvers.has_solver(game) else None
    level = bots.levels(game).get(LEVEL)
    if level is None:
        return None
    return "table" if callable(getattr(bots.load(game, level.bot, **dict(level.options)),
                                       "values", None)) else None


def states_of(record: GameRecord) -> list[State]:
    """The record's positions, the start first: one more than there are actions."""
    g = games.load(record.game)
    states = [record.start(g)]
    for action in record.actions:
        states.append(states[-1].apply(action))
    return states


class _Budget:
    def __init__(self, total: float, each: float) -> None:
        self.end = time.perf_counter() + total
        self.each = each
        self.solves = 0

    def left(self) -> float:
        return min(self.each, self.end - time.perf_counter())


def solitaire(record_json: str, total: float, each: float) -> str:
    """The solitaire analysis of a finished record, as JSON text (module docstring)."""
    _lower_priority()
    record = GameRecord.loads(record_json)
    solver = solvers.load(record.game)
    states = states_of(record)
    warm_up = getattr(solver, "warm_up", None)
    if warm_up is not None:  # a kernel's loading is not the analysis's budget
        warm_up()
    budget = _Budget(total, each)
    solved: dict[int, tuple[str, list[str]]] = {}

    def verdict(i: int) -> str:
        if i not in solved:
            state = states[i]
            if state.outcome is not None and state.outcome.winners:
                solved[i] = ("winnable", [])
            else:
                seconds = budget.left()
                if seconds <= 0:
                    return "unknown"
                result = solver.solve(state, seconds)
                budget.solves += 1
                solved[i] = (str(result.verdict), list(result.line))
        return solved[i][0]

    rounds: list[tuple[int, int]] = []  # (first, last) position of each round
    first = 0
    for i, action in enumerate(record.actions):
        if action == "redeal":
            rounds.append((first, i))
            first = i + 1
    rounds.append((first, len(record.actions)))
    marks: list[dict[str, Any]] = []
    verdicts: list[str] = ["unknown"] * len(states)
    for number, (lo_pos, hi_pos) in enumerate(rounds, start=1):
        start, end = verdict(lo_pos), verdict(hi_pos)
        last_win, first_loss = None, None
        if start == "winnable":
            last_win = lo_pos
        if end == "unwinnable":
            first_loss = hi_pos
        if end == "winnable":
            last_win = hi_pos
        if start == "unwinnable":
            first_loss = lo_pos
        if last_win is not None and first_loss is not None and first_loss > last_win:
            # Binary search between them; an undecided middle is passed over.
            candidates = list(range(last_win + 1, first_loss))
            while candidates:
                mid = candidates[len(candidates) // 2]
                v = verdict(mid)
                if v == "winnable":
                    last_win = mid
                    candidates = [c for c in candidates if c > mid]
                elif v == "unwinnable":
                    first_loss = mid
                    candidates = [c for c in candidates if c < mid]
                else:
                    candidates.remove(mid)
                    if budget.left() <= 0:
                        break
        for i in range(lo_pos, hi_pos + 1):
            if last_win is not None and i <= last_win:
                verdicts[i] = "winnable"
            elif first_loss is not None and i >= first_loss:
                verdicts[i] = "unwinnable"
            elif i in solved:
                verdicts[i] = solved[i][0]
        if last_win is not None and first_loss is not None and first_loss > last_win:
            kind = "resigned" if record.actions[last_win] == "resign" else "lost"
            mark: dict[str, Any] = {"kind": kind, "round": number,
                                    "step": last_win + 1, "action": record.actions[last_win],
                                    "exact": first_loss == last_win + 1,
                                    "last_winnable": last_win, "first_unwinnable": first_loss,
                                    "line": solved[last_win][1] if last_win in solved else []}
            marks.append(mark)
        ends_in_redeal = hi_pos < len(record.actions)
        if ends_in_redeal and end == "winnable" and "redeal" not in solved[hi_pos][1]:
            marks.append({"kind": "redeal", "round": number, "step": hi_pos + 1,
                          "action": "redeal", "exact": True, "last_winnable": hi_pos,
                          "first_unwinnable": None, "line": solved[hi_pos][1]})
    positions = [{"verdict": v, "solved": i in solved} for i, v in enumerate(verdicts)]
    return json.dumps({
        "kind": "solitaire", "version": VERSION,
        "budget": {"seconds": total, "per_position": each},
        "positions": positions, "marks": marks,
        "summary": {"solves": budget.solves, "rounds": len(rounds),
                    "unknown": sum(1 for p in positions if p["verdict"] == "unknown"),
                    "start": verdicts[0],
                    "lost": sum(1 for m in marks if m["kind"] in ("lost", "resigned")),
                    "redeals": sum(1 for m in marks if m["kind"] == "redeal")},
    })


def table(record_json: str, seats: list[int], total: float) -> str:
    """The table-game analysis of a finished record for ``seats`` (module docstring)."""
    _lower_priority()
    record = GameRecord.loads(record_json)
    level = bots.levels(record.game)[LEVEL]
    bot = bots.load(record.game, level.bot, **dict(level.options))
    values_of: Callable[[bots.Observation, list[str], str], dict[str, float]] | None = getattr(
        bot, "values", None)
    if values_of is None:
        raise ValueError(f"the level {LEVEL} bot of {record.game} has no values()")
    doubt: float = getattr(bot, "doubt", DOUBT)
    units: str = getattr(bot, "units", "share")
    states = states_of(record)
    end = time.perf_counter() + total
    moves: list[dict[str, Any]] = []
    skipped = 0
    for i, action in enumerate(record.actions):
        state = states[i]
        seat = state.to_move
        if seat is None or seat not in seats:
            continue
        legal = [str(a) for a in state.legal_actions() if str(a) != "resign"]
        if len(legal) < 2:
            continue
        if time.perf_counter() > end:
            skipped += 1
            continue
        rng = random.Random(f"{record.deal}:{i}")
        values: dict[str, float] = values_of(bots.Observation(state, seat, rng), legal, action)
        best = max(values, key=lambda a: (values[a], a))
        played = values.get(action)
        if played is None:
            continue
        loss = values[best] - played
        moves.append({"step": i + 1, "seat": seat, "action": action, "value": round(played, 3),
                      "best": best, "best_value": round(values[best], 3),
                      "doubtful": best != action and loss >= doubt})
    per_seat = {str(s): sum(1 for m in moves if m["seat"] == s and m["doubtful"])
                for s in seats}
    return json.dumps({
        "kind": "table", "version": VERSION,
        "budget": {"seconds": total, "level": LEVEL, "doubt": doubt, "units": units},
        "moves": moves, "seats": seats,
        "summary": {"choices": len(moves), "doubtful": per_seat, "unknown": skipped},
    })
