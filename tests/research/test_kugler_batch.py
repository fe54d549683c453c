"""Kugler og Jokere's vector engine (research/kugler_batch.py, kugler_kernel.py) equals
the single-state engine: random batches replayed through both agree on every legal list,
board, hand, pile and outcome, from numbered deals (with every flag), through the batch's
auto-reset, and for the compiled random playouts' own draws.  A reshuffle's order is the
one chance event the two draw differently (the engine from the deal number, the batch from
Numba's generator): the test compares the reshuffled pile as a set, then puts the
engine's order into the batch (issue 32)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spillebord import games
from spillebord.games.kugler.counting import draw_scratch, random_legal
from spillebord.games.kugler.kernel import CODE_RANK, CODE_SHIFT, R_7
from spillebord.games.kugler.state import KuglerState
from spillebord.research import kugler_kernel as K
from spillebord.research.kugler_batch import (
    DECK,
    KuglerBatch,
    engine_position,
    flag_bits,
    random_playouts,
)

GAME = games.load("kugler")


def winner(state: KuglerState) -> int:
    o = state.outcome
    assert o is not None
    return -1 if not o.winners else min(o.winners)


def follow(batch: KuglerBatch, b: int, state: KuglerState, pick: int) -> KuglerState:
    """Play legal action ``pick`` in both; check them equal; return the new state."""
    before = state.reshuffles
    batch.apply(b, pick)
    nxt = state.apply_legal(state.legal_actions()[pick])
    assert isinstance(nxt, KuglerState)
    got, want = batch.position(b), engine_position(nxt)
    if nxt.reshuffles != before:
        # the reshuffled pile and the card drawn from it: the same cards in another order
        seat = state.turn
        for p in (got, want):
            p["draw"] = sorted([*p["draw"], *p["hands"][seat]])
            p["hands"] = p["hands"][:seat] + p["hands"][seat + 1:]
        assert got == want
        batch.load(b, nxt)  # the engine's order for the rest of the game
        return nxt
    assert got == want
    return nxt


FLAGS = [{}, {"optional_home_entry": True}, {"strict_discard": True},
         {"finished_helps_partner": False}]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "flags"), [(4, FLAGS[0]), (4, FLAGS[1]), (6, FLAGS[2]),
                                              (8, FLAGS[3])])
def test_numbered_deals_replay_equal(seats: int, flags: dict[str, bool]) -> None:
    rng = random.Random(seats)
    batch = KuglerBatch(2, seats, **flags)
    for b in range(2):
        state = GAME.new(deal=rng.randrange(10**9), seats=seats, **flags)
        assert isinstance(state, KuglerState)
        batch.load(b, state)
        while state.outcome is None:  # to the end: a team home, or the turn limit
            assert batch.legal_texts(b) == [m.text for m in state.legal_actions()]
            state = follow(batch, b, state, rng.randrange(batch.counts[b]))
        assert batch.counts[b] == 0 and batch.info[b, K.WIN] == winner(state)


def test_batched_steps_and_auto_reset() -> None:
    rng = random.Random(1)
    batch = KuglerBatch(3, 4)
    batch.reset(seed=4)
    counts = batch.counts
    for b in range(3):  # a fresh compiled deal: the whole deck, five cards a hand
        p = batch.position(b)
        cards = [c for h in p["hands"] for c in h] + p["draw"]
        assert sorted(cards) == sorted(GAME.new(seats=4).hands[0] + sum(
            GAME.new(seats=4).hands[1:], ()) + GAME.new(seats=4).draw)
        assert all(len(h) == 5 for h in p["hands"])
    ended = 0
    for _ in range(3000):
        choices = [rng.randrange(int(k)) for k in counts]
        counts, movers, rewards, dones = batch.step_choices(choices)
        for b in dones.nonzero()[0]:
            ended += 1
            assert rewards[b].sum() == 0
        assert (movers == batch.info[:, K.TURN]).all()
    assert ended >= 3
    with pytest.raises(ValueError, match="legal actions"):
        batch.step_choices([10**6, 0, 0])


@pytest.mark.parametrize(("seats", "flags"), [(4, FLAGS[0]), (8, FLAGS[0]), (4, FLAGS[1]),
                                              (6, FLAGS[2]), (4, FLAGS[3])])
def test_compiled_random_playouts_are_engine_games(seats: int, flags: dict[str, bool]
                                                   ) -> None:
    """The compiled playouts' games, replayed draw by draw from the same generator
    through the batch's single steps (checked equal to the engine above: the listed
    moves, ``randint`` over their number), end alike: ``random_legal``'s counting draw
    picks the move the list would."""
    games = 3
    wins, lengths, total = random_playouts(seats, games, seed=5, **flags)
    assert total == lengths.sum() and np.all(lengths > 0)
    K.seed(5)
    batch = KuglerBatch(1, seats, **flags)
    deck = DECK.copy()
    for g in range(games):
        K.reset(seats, 0, deck, flag_bits(flags), batch.limit, batch.board, batch.hands,
                batch.draw, batch.info)
        batch._refresh(0)
        while batch.counts[0]:
            k = int(batch.counts[0])
            batch.apply(0, 0 if k == 1 else K.draw_index(k))
        assert (int(batch.info[0, K.WIN]), int(batch.info[0, K.TURNS])) == (wins[g],
                                                                            lengths[g])


@pytest.mark.parametrize(("seats", "flags"), [(4, FLAGS[1]), (6, FLAGS[2]), (8, FLAGS[3])])
def test_random_legal_draws_from_the_legal_list(seats: int, flags: dict[str, bool]) -> None:
    """Position by position (random batch games, 7s and jokers in hand included), the
    kernel's counting draw returns the key the legal list holds at the index that
    ``randint(number of legal moves)`` draws from the same generator."""
    scratch = draw_scratch()
    rng = random.Random(seats)
    batch = KuglerBatch(4, seats, **flags)
    batch.reset(seed=seats)
    counts = batch.counts
    bits = flag_bits(flags)
    sevens = 0
    for step in range(400):
        for b in range(4):
            hand = K.packed_hand(batch.hands, b, batch.info[b, K.TURN])
            k = int(counts[b])
            K.seed(step * 4 + b)
            key = random_legal(batch.board[b], seats, K.colour(batch.info, b, seats), hand,
                               bits & K.F_OPTIONAL != 0, bits & K.F_STRICT != 0, *scratch)
            K.seed(step * 4 + b)
            want = batch.keys[b, 0 if k == 1 else K.draw_index(k)]
            assert key == want
            sevens += CODE_RANK[key >> CODE_SHIFT] == R_7 and key & 255 != 0
        counts, _, _, _ = batch.step_choices([rng.randrange(int(k)) for k in counts])
    assert sevens > 5  # split 7s were drawn
