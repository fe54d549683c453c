"""counting.py reads the move rules along each colour's route to count them fast (the
research playouts' draw); kernel.py's listing is the rules.  Position by position, from
random engine games with every seat count and flag, the two agree on the number of moves
of every rank and, rank by rank, on the moves themselves (the split 7s under the same
texts: one per board, the one that sorts first)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from spillebord import games
from spillebord.games.kugler import counting as C
from spillebord.games.kugler import kernel as KN
from spillebord.games.kugler.state import KuglerState

GAME = games.load("kugler")
ALL_RANKS = (1 << KN.NRANKS) - 1
FORWARD_RANKS = [r for r in range(KN.NRANKS) if r not in (KN.R_7, KN.R_8, KN.R_JK)]


def positions(seats: int, flags: dict[str, bool], count: int,
              seed: int) -> Iterator[tuple[np.ndarray, int]]:
    """``count`` (board, colour to move) pairs from random games."""
    rng = random.Random(seed)
    made = 0
    while True:
        state = GAME.new(deal=rng.randrange(10**9), seats=seats, **flags)
        assert isinstance(state, KuglerState)
        while state.outcome is None:
            colour = state.colour(state.turn)
            if colour is not None:
                yield np.array(state.board, np.int8), colour
                made += 1
                if made == count:
                    return
            state = state.apply_legal(rng.choice(state.legal_actions()))
            assert isinstance(state, KuglerState)


@pytest.mark.parametrize(("seats", "flags"), [
    (4, {}), (6, {"optional_home_entry": True}), (8, {"strict_discard": True}),
    (4, {"finished_helps_partner": False})])
def test_counted_moves_are_the_listed_moves(seats: int, flags: dict[str, bool]) -> None:
    g = KN.GEO[seats]
    opts, roff, alias, work, w, mine, _, _ = C.draw_scratch()
    s = C.draw_scratch()
    pushing = splits = 0
    for b, c in positions(seats, flags, 1500, seed=seats):
        KN._collect(b, g, c, ALL_RANKS, False, opts, roff, alias, work, w, mine)
        listed = [sorted(opts[roff[r]:roff[r + 1]]) for r in range(KN.NRANKS)]
        m = C.count_moves(b, g, c, ALL_RANKS, s[5], s[7])
        if s[7][C.R_PUSH7]:
            s[7][C.R_CNT + KN.R_7] = C._pushing_splits(b, g, c, s[5], m, s[0],
                                                       s[7][C.R_CNT + KN.R_7], s[2], s[3],
                                                       s[4], 1)
        assert list(s[7][C.R_CNT:C.R_CNT + KN.NRANKS]) == [len(x) for x in listed]
        for r in FORWARD_RANKS:
            start = int(s[7][C.R_START]) if r in (KN.R_A, KN.R_J, KN.R_Q, KN.R_K) else -1
            n = C._list_forward(g, c, KN.STEP[r], m, s[5], s[7], s[0], start)
            assert sorted(s[0][:n]) == listed[r]
        for r in (KN.R_8, KN.R_JK):
            if listed[r]:
                n = C._list_8_joker(b, g, c, r, m, s[5], s[0])
                assert sorted(s[0][:n]) == listed[r]
        n = C._list_sevens(b, g, c, m, s[5], s[7], s[0], s[2], s[3], s[4])
        assert sorted(s[0][:n]) == listed[KN.R_7]
        splits += any(key & 255 for key in listed[KN.R_7])
        pushing += int(s[7][C.R_PUSH7])
    assert splits > 200 and pushing > 10  # split 7s, and splits that may push a partner
