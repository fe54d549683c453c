"""``ismcts``: information-set Monte-Carlo tree search for kugler (single-observer
ISMCTS, Cowling, Powley & Whitehouse 2012), with greedy-pruned branching and short
greedy rollouts.

Each iteration draws a determinization with ``obs.sample()`` (the hidden hands and the
draw pile redrawn from what the seat has not seen) and walks the tree: at every node
only the ``width`` actions the greedy evaluation likes best *in that determinization*
are considered (availability counts keep UCB1 fair when they differ); the first untried
one is expanded.  From there every seat plays the greedy move until ``horizon`` plies
after the root (default: two full rounds, so the bot's own next card is played too),
and the state is scored by the greedy board evaluation (squashed to [0, 1] per team for
the tree's UCB1; a finished game: 1 for the winners, 0 for the rest).  Every node keeps
the reward of the team that moved into it, so opponents pick their own best replies.

The root is special: its actions are the same in every determinization (the bot's own
hand, the public board), so they are pruned once to the greedy ``width`` best, and each
determinization is used for one descent through *every* root action (common random
numbers: the actions are compared on the same hidden cards).  The move played has the
best mean raw board value minus the keep-value of the card spent (as in greedy).
Budget: ``seconds`` (default 0.5) or ``iterations`` (determinizations).
"""

from __future__ import annotations

import math
import time
from typing import Any

from spillebord.bots import Bot, Observation
from spillebord.bots.kugler.evaluate import keep_value, relative, team_of, team_scores
from spillebord.bots.kugler.greedy import best_move, score_moves
from spillebord.games.kugler.moves import Move, fields_of
from spillebord.games.kugler.state import KuglerState

SCALE = 40.0


class Node:
    __slots__ = ("avail", "children", "reward", "team", "visits")

    def __init__(self, team: int) -> None:
        self.team = team
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def rewards(state: KuglerState) -> dict[int, float]:
    """Team (its lower seat) → reward in [0, 1] for a leaf state."""
    geo = state.geo
    out = state.outcome
    scores = team_scores(state.board, geo)
    if out is not None and out.winners:
        won = team_of(geo, out.winners[0])
        return {t: float(t == won) for t in scores}
    return {t: 1.0 / (1.0 + math.exp(-relative(scores, t) / SCALE)) for t in scores}


def top_moves(state: KuglerState, width: int) -> list[Move]:
    """The ``width`` legal moves with the best greedy scores, best first."""
    moves: list[Move] = state.legal_actions()
    if len(moves) <= width:
        return moves
    scores = score_moves(state, moves)
    order = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
    return [moves[i] for i in order[:width]]


class IsmctsBot(Bot):
    name = "ismcts"

    def __init__(self, seconds: float = 0.5, iterations: int | None = None,
                 width: int = 5, depth: int = 1, horizon: int | None = None,
                 exploration: float = 0.5) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds <= 0 or width < 1 or depth < 1:
            raise ValueError("seconds, width and depth must be positive")
        self.seconds = seconds
        self.iterations = iterations
        self.width = width
        self.depth = depth
        self.horizon = horizon
        self.exploration = exploration
        self._value: dict[str, float] = {}

    def choose(self, obs: Observation) -> Any:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = Node(-1)
        horizon = self.horizon if self.horizon is not None else 2 * obs.seats
        deadline = time.perf_counter() + self.seconds
        first = obs.sample()
        assert isinstance(first, KuglerState)
        # the root's actions are the same in every determinization (own hand, public
        # board), so the greedy pruning is done once
        candidates = top_moves(first, self.width)
        me = team_of(first.geo, first.turn)
        self._value = dict.fromkeys((m.text for m in candidates), 0.0)
        for m in candidates:
            root.children[m.text] = Node(me)
        done = 0
        sample = first
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            if done:
                sample = obs.sample()  # type: ignore[assignment]
            # common random numbers: one determinization serves every root action
            for m in candidates:
                child = root.children[m.text]
                child.avail += 1
                leaf = self._descend(child, sample._apply(m), horizon)
                self._value[m.text] += relative(team_scores(leaf.board, leaf.geo), me)
            done += 1
        # the root decision compares the paired mean board values (raw, not squashed)
        # minus the keep-value of the card spent, as greedy does for one ply
        waiting = first.colour(first.turn) is not None and len(
            fields_of(first.board, first.colour(first.turn) or 0)) < 5
        return max(candidates, key=lambda m: self._value[m.text] / done
                   - keep_value(m.card, waiting))

    def _descend(self, node: Node, state: KuglerState, horizon: int) -> KuglerState:
        """UCB1 with availability below a root action, then a greedy rollout."""
        path = [node]
        c = self.exploration
        plies = 1
        while plies < self.depth and state.to_move is not None and node.visits > 0:
            moves = top_moves(state, self.width)
            team = team_of(state.geo, state.turn)
            pick: Move | None = None
            for m in moves:
                child = node.children.get(m.text)
                if child is None:
                    if pick is None:
                        pick = m
                else:
                    child.avail += 1
            if pick is not None:
                child = Node(team)
                child.avail = 1
                node.children[pick.text] = child
            else:
                best = -1.0
                for m in moves:
                    ch = node.children[m.text]
                    ucb = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if ucb > best:
                        best, pick = ucb, m
                assert pick is not None
                child = node.children[pick.text]
            path.append(child)
            state = state._apply(pick)
            node = child
            plies += 1
        while plies < horizon and state.to_move is not None:
            state = state._apply(best_move(state, state.legal_actions()))
            plies += 1
        r = rewards(state)
        for n in path:
            n.visits += 1
            n.reward += r[n.team]
        return state
