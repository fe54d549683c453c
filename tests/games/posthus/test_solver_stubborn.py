"""Stubborn sets (``solvers/posthus/stubborn.py``, strict rule): the transition model is
GAME's, the conditions D1/D2 hold on random sequences outside the set, the reduced
state space keeps every deadlock of the full one (so winnable/unwinnable agree), and a
reduced ``fast.Dfs`` gives the full search's verdict with a line that replays to a
win."""

from __future__ import annotations

import random
import time

import pytest

from spillebord.games.posthus import GAME, PosthusState
from spillebord.solvers.posthus.fast import WINS, Dfs, grid_key
from spillebord.solvers.posthus.search import EXACT, encode, move_text
from spillebord.solvers.posthus.stubborn import (
    enabled,
    enabled_labels,
    reduce_moves,
    stubborn_labels,
    stubborn_set,
)

from .test_solver import replay_wins, scrambled


def where(grid: bytes | bytearray) -> list[int]:
    pos = [0] * 29
    for i, v in enumerate(grid):
        if v:
            pos[v] = i
    return pos


def fire(grid: bytes, label: int) -> bytes:
    card, place = label >> 5, label & 31
    out = bytearray(grid)
    out[out.index(card)] = 0
    out[place] = card
    return bytes(out)


def explore(start: bytes, reduced: bool, cap: int = 1_500) -> tuple[int, set[bytes]] | None:
    """(grids reached, deadlocks reached) of the full or the reduced graph; None when
    the space is larger than ``cap``."""
    seen = {start}
    stack = [start]
    deadlocks: set[bytes] = set()
    while stack:
        grid = stack.pop()
        labels = (stubborn_labels(grid, where(grid)) if reduced
                  else enabled_labels(grid))
        if not labels:
            deadlocks.add(grid)
        for label in labels:
            child = fire(grid, label)
            if child not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(child)
                stack.append(child)
    return len(seen), deadlocks


def positions(seed: int, count: int) -> list[PosthusState]:
    """Small strict positions: a won grid with a few places swapped, and playouts of
    real deals."""
    rng = random.Random(seed)
    out: list[PosthusState] = []
    while len(out) < count:
        if rng.random() < 0.8:
            state = scrambled(rng, rng.randint(2, 7))
        else:
            state = GAME.new(deal=rng.randint(1, 2000))
            for _ in range(rng.randint(0, 60)):
                if not state.card_moves:
                    break
                nxt = state.apply(rng.choice(state.card_moves))
                assert isinstance(nxt, PosthusState)
                state = nxt
        if state.outcome is None:
            out.append(state)
    return out


def test_transitions_are_the_games_moves() -> None:
    for state in positions(1, 80):
        grid = bytes(encode(state.grid))
        mine = {move_text(v >> 5, v & 31) for v in enabled_labels(grid)}
        assert mine == set(state.card_moves), state.position()


def test_stubborn_conditions_on_random_outside_sequences() -> None:
    """D1 and D2 for the chosen closure, by random sequences ``w`` of enabled
    transitions outside ``T`` (up to 6 long): every enabled transition of ``T`` stays
    enabled along ``w`` and commutes to its front; no disabled one becomes enabled."""
    rng = random.Random(2)
    checked = 0
    for state in positions(2, 120):
        grid = bytes(encode(state.grid))
        labels = enabled_labels(grid)
        if not labels:
            continue
        found, in_t = stubborn_set(grid, where(grid))
        assert found and set(found) <= set(labels)
        assert found == stubborn_labels(grid, where(grid))
        assert all(in_t[v] for v in found)
        for _ in range(10):
            w: list[int] = []
            cur = grid
            for _ in range(rng.randint(1, 6)):
                outside = [v for v in enabled_labels(cur) if not in_t[v]]
                if not outside:
                    break
                w.append(rng.choice(outside))
                cur = fire(cur, w[-1])
                checked += 1
                for v in range(32, 29 * 32):
                    if not in_t[v]:
                        continue
                    card, place = v >> 5, v & 31
                    if v in found:
                        assert enabled(cur, card, place)  # D2 (every key stays)
                        # D1: t after w equals t before w.
                        front = fire(grid, v)
                        for u in w:
                            assert enabled(front, u >> 5, u & 31)
                            front = fire(front, u)
                        assert front == fire(cur, v)
                    else:
                        assert not enabled(cur, card, place)  # D1, disabled members
    assert checked > 200


@pytest.mark.slow
def test_reduced_space_keeps_every_deadlock() -> None:
    """On small positions the reduced graph reaches exactly the full graph's deadlocks
    (the won grid among them), never more grids."""
    verdicts = {True: 0, False: 0}
    compared = 0
    for state in positions(3, 50):
        grid = bytes(encode(state.grid))
        full = explore(grid, False)
        if full is None:
            continue
        reduced = explore(grid, True)
        assert reduced is not None
        assert reduced[1] == full[1], state.position()
        assert reduced[0] <= full[0]
        verdicts[any(grid_key(d) in WINS for d in full[1])] += 1
        compared += 1
    assert compared >= 25
    assert verdicts[True] >= 2 and verdicts[False] >= 10


@pytest.mark.slow
def test_reduced_dfs_agrees_and_replays() -> None:
    later = time.perf_counter() + 120
    verdicts: dict[str, int] = {}
    for state in positions(4, 30):
        grid = bytes(encode(state.grid))
        full = Dfs(grid, False, EXACT, later, 800)
        status = full.run()
        if status == "timeout":
            continue
        reduced = Dfs(grid, False, EXACT, later, 800, reduce=reduce_moves)
        found = reduced.run()
        if status == "exhausted":  # the reduced graph is part of the full one
            assert found == "exhausted", state.position()
            assert reduced.nodes <= full.nodes
        elif found == "timeout":  # another order: the win may lie further
            continue
        else:
            assert found == "win", state.position()
            assert replay_wins(state, tuple(reduced.line))
        verdicts[status] = verdicts.get(status, 0) + 1
    assert verdicts.get("win", 0) >= 3 and verdicts.get("exhausted", 0) >= 10
