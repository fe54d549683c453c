"""The search Gammel Jomfru bot: determinized Monte Carlo over the placements.

Only real choices are searched (the turned card fits several places); forced actions
are returned at once.  For a choice, the bot repeats until its budget is spent:

1. ``obs.sample()`` — a determinization: every card face down since the deal is
   redrawn over the face-down piles (rule 4's recycled piles are public and kept);
2. one random seed for this round; for every legal placement, apply it and play the
   game to the end with ``rollout.Playout`` using that same seed (common random numbers:
   the placements are compared on the same future, which cuts the noise a lot);
3. score the placement: 1 if the bot's seat ends as the gammel jomfru, else 0, plus a
   small tie-break of ``0.01 × rank`` (rank 0 = first out).

It picks the placement with the lowest mean score (ties: lowest action text).  Budget:
``playouts`` rounds (deterministic for a given ``obs.rng``) and/or ``seconds`` of wall
time (at least ``min_playouts`` rounds); with both, whichever ends first; with neither,
0.2 s a decision.  A playout longer than ``horizon`` completed turns (default 400; games that
end by themselves almost never need that many) is stopped and ranked by the turn-limit
rule, so that a cycling sample does not eat the budget.  ``policy`` is the
rollout policy for every seat: ``"random"`` (default: uniform among the fitting places)
or ``"load"`` (onto the player holding the most cards).  Random rollouts measured
clearly better (docs/benchmarks/gammel_jomfru.md): they are 3× faster, and when every
seat loads the biggest holder about one game in ten cycles until the turn limit.
"""

from __future__ import annotations

import random

from spillebord.bots import Bot, Budget, Observation
from spillebord.bots.gammel_jomfru.rollout import POLICIES, Playout
from spillebord.core.errors import NotationError
from spillebord.games.gammel_jomfru.state import JomfruState

DEFAULT_SECONDS = 0.2


class SearchBot(Bot):
    """Determinized Monte Carlo with fast rollouts (see the module docstring)."""

    name = "search"

    def __init__(self, seconds: float | None = None, playouts: int | None = None,
                 policy: str = "random", min_playouts: int = 4,
                 horizon: int = 400) -> None:
        if policy not in POLICIES:
            raise NotationError(f"search policy must be one of {', '.join(POLICIES)}")
        if seconds is None and playouts is None:
            seconds = DEFAULT_SECONDS
        self.budget = Budget(playouts, seconds, "playouts", minimum=min_playouts)
        self.horizon = horizon
        self.policy = policy
        self.last_rounds = 0

    def decide(self, obs: Observation) -> str:
        scores = self.evaluate(obs, obs.legal_as(str))
        return min(scores.items(), key=lambda kv: (kv[1], kv[0]))[0]

    def values(self, obs: Observation, legal: list[str],
               played: str | None = None) -> dict[str, float]:
        """The bot's estimate of each placement, higher is better (the post-game analysis,
        issue #33): 1 less the mean score, about the share of playouts in which the seat
        does not end as the gammel jomfru.  Every placement of ``legal`` is valued, so
        ``played`` (one of them) needs no care of its own."""
        return {a: 1.0 - v for a, v in self.evaluate(obs, legal).items()}

    def evaluate(self, obs: Observation, legal: list[str]) -> dict[str, float]:
        """Mean score (lower is better) of each placement."""
        me, rng = obs.seat, obs.rng
        totals = dict.fromkeys(legal, 0.0)
        spent = self.budget.start()
        rounds = 0
        while not spent(rounds):
            sample = obs.sample()
            assert isinstance(sample, JomfruState)
            seed = rng.getrandbits(64)
            for a in legal:
                ranking = Playout(sample.apply(a)).run(random.Random(seed), self.policy,
                                                        self.horizon)
                totals[a] += (ranking[-1] == me) + 0.01 * ranking.index(me)
            rounds += 1
        self.last_rounds = rounds
        return {a: v / rounds for a, v in totals.items()}

