"""``ismcts``: determinized Monte-Carlo search for kugler over the seat's information
set (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012, one level deep), with
greedy-pruned candidates, sequential halving and short greedy playouts compiled on the
rules kernel (fastplay.py).

The root stands for everything the seat knows (the public board, its own hand, the
discards), so its actions — the seat's legal actions — are the same in every
determinization; they are pruned once to the ``width`` (5) the greedy evaluation likes
best.  Each iteration draws a determinization (the other hands and the draw pile
redrawn from the cards the seat has not seen: ``obs.sample()`` once, then its unseen
cards reshuffled by generators seeded from the bot's ``rng``) and uses it for one
playout from every *active* candidate (common random numbers).  Sequential halving: all
candidates for the first ``screen`` (10) determinizations, the best 3 for the next
``screen``, the best 2 for the rest.  A playout plays the candidate, then every seat
plays the greedy move until ``horizon`` plies after the root (default two full rounds,
so the bot's own next card is played too); the board is scored with the greedy
evaluation.  The move played has the best mean board value minus the keep-value of the
card spent (as greedy does for one ply).

Budget: ``iterations`` determinizations (default ``ITERATIONS``), or ``seconds`` of
wall-clock time when given (then ``iterations`` is a cap if given too).
``value``: the weights of fastplay.py's one evaluation that pick the candidates, play
every seat's turns in the playouts, score the leaves and price the card spent —
``"greedy"`` (default), ``"advance"`` or ``"tuned"`` (level 3; tuned by self-play,
docs/benchmarks/kugler.md).
``values(obs, legal, played)`` (the post-game analysis, issue #33): the same search
with the full ``iterations``, ``played`` played on every determinization beside the
bot's own candidates; the estimates are in board-value points (``units``), a move
``doubt`` points below the bot's choice is doubtful.
``confidence`` z > 0 stops the final phase early once the two candidates' paired mean
difference is z standard errors from 0 (off by default).  ``screen=0``: no halving.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from spillebord.bots import Bot, Budget, Observation
from spillebord.bots.kugler.fastplay import VALUES, keep_of, sample_values, waiting
from spillebord.bots.kugler.greedy import score_moves
from spillebord.games.kugler import kernel
from spillebord.games.kugler.kernel import RANK_OF_CODE
from spillebord.games.kugler.moves import Move
from spillebord.games.kugler.state import KuglerState

ITERATIONS = 40
SCREEN = 10
CONFIDENCE = 0.0
DOUBT = 15.0
"""The post-game analysis marks a move doubtful when ``values`` puts it this many points
below the bot's own choice (a marble brought onto the track is 12): calibrated on whole
games (docs/learn.md) — the bot's own moves, judged again on other random draws, fall
this far behind in 2 % of their choices; a player who always plays the first legal
move, in 43 %."""


def top_moves(state: KuglerState, width: int, wt: np.ndarray) -> list[Move]:
    """The ``width`` legal moves with the best one-ply scores under ``wt``, best
    first."""
    moves: list[Move] = state.legal_actions()
    if len(moves) <= width:
        return moves
    scores = score_moves(state, moves, wt)
    order = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
    return [moves[i] for i in order[:width]]


def _ranks(cards: Any) -> np.ndarray:
    return np.array([RANK_OF_CODE[c] for c in cards], dtype=np.int64)


class IsmctsBot(Bot):
    name = "ismcts"
    units = "points"
    """The unit of ``values``: board-value points (a marble on the track is worth 12 and
    one more a field it has come; fastplay.py)."""
    doubt = DOUBT

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 width: int = 5, horizon: int | None = None, screen: int = SCREEN,
                 confidence: float = CONFIDENCE, value: str = "greedy") -> None:
        if iterations is None and seconds is None:
            iterations = ITERATIONS
        self.budget = Budget(iterations, seconds, "iterations")
        if width < 1 or (horizon is not None and horizon < 1):
            raise ValueError("width and horizon must be positive")
        self.width = width
        self.horizon = horizon
        if screen < 0 or confidence < 0:
            raise ValueError("screen and confidence must not be negative")
        self.screen = screen
        self.confidence = confidence
        if value not in VALUES:
            raise ValueError(f"value must be one of {sorted(VALUES)}")
        self.wt = VALUES[value]

    def decide(self, obs: Observation) -> Any:
        candidates, active, means, _extra = self._search(obs, None, self.budget.start())
        if len(candidates) == 1:
            return candidates[0]
        best = max(active, key=lambda i: (means[i], -i))
        return candidates[best]

    def values(self, obs: Observation, legal: list[str],
               played: str | None = None) -> dict[str, float]:
        """The bot's estimates for the post-game analysis (issue #33), in its own units
        (board value, about one point a field a marble has come; docs/learn.md): the
        mean playout value less the card's keep-value of each candidate still in the
        search at its end (so the best of them is the bot's own choice), and of
        ``played`` (one of ``legal``) on the same determinizations even when the bot
        would not have looked at it.  Always the full ``iterations`` (no wall-clock
        cap), so the same ``obs.rng`` gives the same answer."""
        extra = None
        if played is not None and played in legal:
            extra = next(m for m in obs.legal_as(Move) if m.text == played)
        count = self.budget.count or ITERATIONS
        candidates, active, means, extra_at = self._search(
            obs, extra, lambda done: done >= count)
        keep = set(active)
        if extra_at is not None:
            keep.add(extra_at)
        return {str(candidates[i]): means[i] for i in sorted(keep)
                if str(candidates[i]) in legal}

    def _search(self, obs: Observation, extra: Move | None,
                spent: Any) -> tuple[list[Move], list[int], list[float], int | None]:
        """The search: the candidates (``extra`` added when the greedy pruning left it
        out), the indices still active at the end, every candidate's mean value less
        its keep-value (over the determinizations it was played in), and the index of
        ``extra``.  ``extra`` is played in every determinization but takes no part in
        the halving unless it is one of the bot's own candidates, so the bot's choice
        is the same with or without it (common random numbers: a candidate's playouts
        do not depend on the others)."""
        first = obs.sample()
        assert isinstance(first, KuglerState)
        candidates = top_moves(first, self.width, self.wt)
        own = len(candidates)  # the bot's own candidates come first
        extra_at = None
        if extra is not None:
            if extra in candidates:
                extra_at = candidates.index(extra)
            else:
                candidates = [*candidates, extra]
                extra_at = own
        if len(candidates) == 1:
            return candidates, [0], [0.0], extra_at
        seat = first.turn
        n = first.seats
        horizon = self.horizon if self.horizon is not None else 2 * n
        colour = first.colour(seat)
        g = kernel.GEO[n]
        wait = colour is not None and waiting(first._arr, g, colour)
        keep = [keep_of(RANK_OF_CODE[m.card], wait, self.wt) for m in candidates]
        cand_ranks = _ranks(m.card for m in candidates)
        cand_keys = np.array([m.key for m in candidates], dtype=np.int64)
        my_hand = np.bincount(_ranks(first.hands[seat]), minlength=kernel.NRANKS)
        unseen = Counter(first.draw)
        for s in range(n):
            if s != seat:
                unseen.update(first.hands[s])
        pool = _ranks(sorted(unseen.elements()))
        sizes = np.array([len(h) for h in first.hands], dtype=np.int64)
        disc = _ranks(first.discard)
        flags = first.flags
        values: list[list[float]] = [[] for _ in candidates]
        active = list(range(own))
        mask = np.ones(len(candidates), dtype=np.bool_)
        out = np.zeros(len(candidates))

        def mean(i: int) -> float:
            return sum(values[i]) / len(values[i]) - keep[i]

        screen = self.screen
        done = 0
        while not spent(done):
            if screen:  # sequential halving: all, then the best 3, then the best 2
                want = len(active) if done < screen else 3 if done < 2 * screen else 2
                if want < len(active):
                    active.sort(key=lambda i: (-mean(i), i))
                    del active[want:]
                    mask[:] = False
                    mask[active] = True
                    if extra_at is not None:
                        mask[extra_at] = True
                if (len(active) == 2 and done >= 3 * screen and self.confidence
                        and self._settled(values, keep, active)):
                    break
            sample_values(first._arr, n, seat, first.turns, first.turn_limit,
                          flags["optional_home_entry"], flags["strict_discard"],
                          flags["finished_helps_partner"], my_hand, pool, sizes, disc,
                          cand_ranks, cand_keys, mask, horizon,
                          obs.rng.getrandbits(31), out, self.wt)
            for i in range(len(candidates)):
                if mask[i]:
                    values[i].append(float(out[i]))
            done += 1
        means = [mean(i) if values[i] else float("-inf") for i in range(len(candidates))]
        return candidates, active, means, extra_at

    def _settled(self, values: list[list[float]], keep: list[float],
                 pair: list[int]) -> bool:
        """The paired mean difference of the two candidates left is ``confidence``
        standard errors away from 0, or they never differ (both were sampled on the
        same determinizations since the start, so their samples pair up)."""
        a, b = values[pair[0]], values[pair[1]]
        n = len(a)
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        d = sum(diffs) / n
        var = sum((x - d) ** 2 for x in diffs) / (n - 1)
        gap = d - keep[pair[0]] + keep[pair[1]]
        return var == 0.0 or gap * gap * n > self.confidence ** 2 * var
