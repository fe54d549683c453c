"""``ismcts``: information-set Monte-Carlo tree search for kugler (single-observer
ISMCTS, Cowling, Powley & Whitehouse 2012), with greedy-pruned branching, sequential
halving at the root and short greedy playouts on the fast engine of rollout.py.

The tree is over the seat's information set: its root stands for everything the seat
knows (the public board, its own hand, the discards), so the root's actions — the
seat's legal actions — are the same in every determinization.  They are pruned once to
the ``width`` (5) the greedy evaluation likes best.  Each iteration draws a
determinization with ``obs.sample()`` (the other hands and the draw pile redrawn from
the cards the seat has not seen) and uses it for one descent through every *active*
root action (common random numbers: the actions are compared on the same hidden
cards).  Sequential halving: all candidates are active for the first ``screen`` (10)
determinizations, the best 3 for the next ``screen``, the best 2 for the rest, so most
of the budget separates the two that matter.  Below a root action the tree (``depth``
levels, default 1: the root's children) follows UCB1 with availability counts over the
greedy-best ``width`` actions of that determinization; then every seat plays the greedy
move until ``horizon`` plies after the root (default two full rounds, so the bot's own
next card is played too) and the board is scored by the greedy evaluation (squashed to
[0, 1] per team inside the tree; a won game: 1 or 0).  Depth 1 is the default because
the other seats' moves below it are modelled by the greedy policy, which is better than
a thinly visited UCB node at the budgets that fit 0.5 s.

The move played has the best mean raw board value minus the keep-value of the card
spent (as greedy does for one ply).  Budget: ``iterations`` determinizations (default
``ITERATIONS`` = 40, about 55 ms of one core), or ``seconds`` of wall-clock time when
given (then ``iterations`` is a cap if given too).  ``confidence`` z > 0 stops the final
phase early once the two candidates' paired mean difference is z standard errors from
0 (off by default).  ``screen=0``: no halving (every candidate every iteration).
"""

from __future__ import annotations

import math
from typing import Any

from spillebord.bots import Bot, Budget, Observation
from spillebord.bots.kugler.evaluate import keep_value
from spillebord.bots.kugler.greedy import score_moves
from spillebord.bots.kugler.rollout import Option, Sim, rank_of
from spillebord.games.kugler.board import MARBLES
from spillebord.games.kugler.moves import Move, fields_of
from spillebord.games.kugler.state import KuglerState

ITERATIONS = 40
SCREEN = 10
CONFIDENCE = 0.0
SCALE = 40.0


class Node:
    __slots__ = ("avail", "children", "reward", "team", "visits")

    def __init__(self, team: int) -> None:
        self.team = team
        self.children: dict[Option, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def top_moves(state: KuglerState, width: int) -> list[Move]:
    """The ``width`` legal moves with the best greedy scores, best first."""
    moves: list[Move] = state.legal_actions()
    if len(moves) <= width:
        return moves
    scores = score_moves(state, moves)
    order = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
    return [moves[i] for i in order[:width]]


def leaf_rewards(sim: Sim) -> list[float]:
    """Team (its lower seat) → reward in [0, 1] at the end of a playout."""
    half = sim.seats // 2
    if sim.over:
        won = sim.winner_team()
        if won is not None:
            return [float(t == won) for t in range(half)]
    ev = sim.ev
    return [1.0 / (1.0 + math.exp(-ev.relative(sim.board, t) / SCALE)) for t in range(half)]


class IsmctsBot(Bot):
    name = "ismcts"

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 width: int = 5, depth: int = 1, horizon: int | None = None,
                 exploration: float = 0.5, screen: int = SCREEN,
                 confidence: float = CONFIDENCE) -> None:
        if iterations is None and seconds is None:
            iterations = ITERATIONS
        self.budget = Budget(iterations, seconds, "iterations")
        if width < 1 or depth < 1 or (horizon is not None and horizon < 1):
            raise ValueError("width, depth and horizon must be positive")
        self.width = width
        self.depth = depth
        self.horizon = horizon
        self.exploration = exploration
        if screen < 0 or confidence < 0:
            raise ValueError("screen and confidence must not be negative")
        self.screen = screen
        self.confidence = confidence

    def decide(self, obs: Observation) -> Any:
        first = obs.sample()
        assert isinstance(first, KuglerState)
        candidates = top_moves(first, self.width)
        if len(candidates) == 1:
            return candidates[0]
        seat = first.turn
        me = min(seat, first.geo.partner[seat])
        horizon = self.horizon if self.horizon is not None else 2 * first.seats
        colour = first.colour(seat)
        plays = [(rank_of(m.card), m.steps) for m in candidates]
        roots = [Node(me) for _ in candidates]
        values: list[list[float]] = [[] for _ in candidates]
        # the root compares paired mean raw board values minus the keep-value of the
        # card spent, as greedy does for one ply
        waiting = colour is not None and len(fields_of(first.board, colour)) < MARBLES
        keep = [keep_value(m.card, waiting) for m in candidates]

        def mean(i: int) -> float:
            return sum(values[i]) / len(values[i]) - keep[i]

        active = list(range(len(candidates)))
        spent = self.budget.start()
        screen = self.screen
        done = 0
        sample = first
        while not spent(done):
            if screen:  # sequential halving: all, then the best 3, then the best 2
                want = len(active) if done < screen else 3 if done < 2 * screen else 2
                if want < len(active):
                    active.sort(key=lambda i: (-mean(i), i))
                    del active[want:]
                if (len(active) == 2 and done >= 3 * screen and self.confidence
                        and self._settled(values, keep, active)):
                    break
            if done:
                sample = obs.sample()  # type: ignore[assignment]
            base = Sim(sample, obs.rng)
            for i in active:
                sim = base.clone()
                sim.play(*plays[i])
                roots[i].avail += 1
                self._descend(roots[i], sim, horizon - 1)
                values[i].append(sim.ev.relative(sim.board, me))
            done += 1
        best = max(active, key=lambda i: (mean(i), -i))
        return candidates[best]

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

    def _descend(self, node: Node, sim: Sim, plies: int) -> None:
        """UCB1 with availability below a root action, then a greedy playout."""
        path = [node]
        c = self.exploration
        level = 1
        while level < self.depth and not sim.over and node.visits > 0 and plies > 0:
            t = sim.turn
            colour = sim.colour(t)
            opts = sim.options(colour, sim.hands[t])
            if len(opts) > self.width:
                scores = sim.scores(opts, colour)
                order = sorted(range(len(opts)), key=lambda i: -scores[i])[: self.width]
                opts = [opts[i] for i in order]
            team = sim.ev.team[t]
            pick: Option | None = None
            for o in opts:
                child = node.children.get(o)
                if child is None:
                    if pick is None:
                        pick = o
                else:
                    child.avail += 1
            if pick is not None:
                child = Node(team)
                child.avail = 1
                node.children[pick] = child
            else:
                best = -1.0
                for o in opts:
                    ch = node.children[o]
                    ucb = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if ucb > best:
                        best, pick = ucb, o
                assert pick is not None
                child = node.children[pick]
            path.append(child)
            sim.play(*pick)
            node = child
            level += 1
            plies -= 1
        sim.run(plies)
        r = leaf_rewards(sim)
        for n in path:
            n.visits += 1
            n.reward += r[n.team]
