"""Fast playouts of Kugler og Jokere for ``ismcts``, on a private mutable copy.

``Sim`` copies a (determinized) ``KuglerState`` into lists — the occupancy board of
board.py, hands and draw pile as card *ranks* (suits never matter to the rules; the
joker is ``X``) — and plays greedy moves in place, several times faster than stepping
immutable states: no action texts, no sorting, no ``Move`` objects.  It implements the
same rules as ``spillebord.games.kugler`` (rulings 1 and 3–9, the three flags, the turn
limit), reusing the engine's own step functions (``forward``, ``backward8``,
``landing_ok``, ``do_step``), and tests check that its options give exactly the
engine's set of (card, resulting board) pairs on many positions.  Two differences, both
invisible to a search: a split 7 reaching one board by both orders may be listed twice,
and an emptied draw pile is reshuffled by ``rng`` (a chance event the seat cannot
foresee) instead of the deal number's stream.

``greedy`` is the ``greedy`` bot's policy (evaluate.py's board value minus the keep-value
of the card), with ties broken by option order.
"""

from __future__ import annotations

import random

from spillebord.bots.kugler.fasteval import Evaluator
from spillebord.games.kugler.board import EMPTY, HOME_SIZE, MARBLES, START
from spillebord.games.kugler.moves import (
    FORWARD,
    Step,
    backward8,
    do_step,
    fields_of,
    forward,
    landing_ok,
)
from spillebord.games.kugler.state import KuglerState

Option = tuple[str, tuple[Step, ...]]  # (rank, steps); no steps: a discard
STEPS = {**FORWARD, "A": 1, "J": 10, "Q": 10, "K": 10, "7": 7}
OUT_RANKS = frozenset("AJQK")


def rank_of(card: str) -> str:
    return "X" if card == "JK" else card[0]


class Sim:
    """A mutable copy of a kugler state, played forward by ``step``/``play``."""

    __slots__ = ("board", "discard", "draw", "ev", "geo", "hands", "helps", "limit",
                 "optional", "over", "rng", "seats", "strict", "turn", "turns")

    def __init__(self, state: KuglerState, rng: random.Random) -> None:
        self.geo = state.geo
        self.seats = state.seats
        self.ev = Evaluator.of(state.seats)
        self.board = list(state.board)
        self.hands = [[rank_of(c) for c in h] for h in state.hands]
        self.draw = [rank_of(c) for c in reversed(state.draw)]  # pop() draws
        self.discard = [rank_of(c) for c in state.discard]
        self.turn = state.turn
        self.turns = state.turns
        self.limit = state.turn_limit
        self.optional = state.flags["optional_home_entry"]
        self.strict = state.flags["strict_discard"]
        self.helps = state.flags["finished_helps_partner"]
        self.over = state.outcome is not None
        self.rng = rng

    def clone(self) -> Sim:
        other = Sim.__new__(Sim)
        other.geo = self.geo
        other.seats = self.seats
        other.ev = self.ev
        other.board = self.board.copy()
        other.hands = [h.copy() for h in self.hands]
        other.draw = self.draw.copy()
        other.discard = self.discard.copy()
        other.turn = self.turn
        other.turns = self.turns
        other.limit = self.limit
        other.optional = self.optional
        other.strict = self.strict
        other.helps = self.helps
        other.over = self.over
        other.rng = self.rng
        return other

    # -- rules -----------------------------------------------------------------------

    def finished(self, seat: int) -> bool:
        hb = self.geo.home_base[seat]
        return self.board[hb : hb + HOME_SIZE].count(seat) == HOME_SIZE

    def colour(self, seat: int) -> int | None:
        if not self.finished(seat):
            return seat
        return self.geo.partner[seat] if self.helps else None

    def options(self, colour: int | None, hand: list[str]) -> list[Option]:
        """Every legal (rank, steps) for ``hand``; discards have no steps."""
        out: list[Option] = []
        unusable: list[str] = []
        done: set[str] = set()
        mine = [] if colour is None else fields_of(self.board, colour)
        for rank in hand:
            if rank in done:
                continue
            done.add(rank)
            n = len(out)
            if colour is not None:
                self._rank_options(rank, colour, mine, out)
            if len(out) == n:
                unusable.append(rank)
        if not self.strict or not out:
            out.extend((r, ()) for r in unusable)
        return out

    def _rank_options(self, rank: str, c: int, mine: list[int], out: list[Option]) -> None:
        b = self.board
        geo = self.geo
        track = geo.track
        if rank in OUT_RANKS and len(mine) < MARBLES:
            dst = geo.start[c]
            if landing_ok(b, geo, c, dst):
                out.append((rank, ((START, dst),)))
        if rank == "8":
            for x in mine:
                if x < track:
                    d8 = backward8(b, geo, c, x)
                    if d8 is not None:
                        out.append((rank, ((x, d8),)))
            return
        if rank == "X":
            sources = [x for x in mine if x < track]
            if len(mine) < MARBLES:
                sources.append(START)
            if not sources:
                return
            targets = [f for f in range(track)
                       if b[f] != EMPTY and b[f] != c and landing_ok(b, geo, c, f)]
            for x in sources:
                for f in targets:
                    out.append((rank, ((x, f),)))
            return
        k = STEPS[rank]
        opt = self.optional
        for x in mine:
            for dst in forward(b, geo, c, x, k, opt):
                out.append((rank, ((x, dst),)))
        if rank == "7" and len(mine) >= 2:
            # two orders of the same two quiet parts (no marble hit) give one board
            quiet: set[tuple[int, int, int, int]] = set()
            for x in mine:
                for a in range(1, 7):
                    for d1 in forward(b, geo, c, x, a, opt):
                        w = b.copy()
                        if not do_step(w, geo, c, x, d1):
                            continue
                        q1 = b[d1] == EMPTY
                        for y in mine:
                            if y == x or w[y] != c:
                                continue
                            for d2 in forward(w, geo, c, y, 7 - a, opt):
                                if q1 and w[d2] == EMPTY:
                                    key = (x, d1, y, d2) if x < y else (y, d2, x, d1)
                                    if key in quiet:
                                        continue
                                    quiet.add(key)
                                out.append((rank, ((x, d1), (y, d2))))

    def result(self, colour: int, steps: tuple[Step, ...]) -> list[int]:
        """The board after ``steps`` of ``colour`` (a new list)."""
        w = self.board.copy()
        for src, dst in steps:
            do_step(w, self.geo, colour, src, dst)
        return w

    def play(self, rank: str, steps: tuple[Step, ...]) -> None:
        """The seat to move plays (or discards) ``rank`` with ``steps``, then draws."""
        t = self.turn
        if steps:
            c = self.colour(t)
            assert c is not None
            b = self.board
            for src, dst in steps:
                do_step(b, self.geo, c, src, dst)
            p = self.geo.partner[c]
            if self.finished(c) and self.finished(p):
                self.over = True
        hand = self.hands[t]
        hand.remove(rank)
        self.discard.append(rank)
        if not self.draw:  # ruling 1: the card just played stays, the rest reshuffled
            self.draw = self.discard[:-1]
            self.rng.shuffle(self.draw)
            self.discard = self.discard[-1:]
        hand.append(self.draw.pop())
        self.turn = (t + 1) % self.seats
        self.turns += 1
        if self.turns >= self.limit:
            self.over = True

    # -- the greedy policy -------------------------------------------------------------

    def greedy_option(self) -> Option:
        """The option the greedy bot's evaluation likes best for the seat to move."""
        t = self.turn
        c = self.colour(t)
        opts = self.options(c, self.hands[t])
        if len(opts) == 1:
            return opts[0]
        return opts[self.best_index(opts, c)]

    def scores(self, opts: list[Option], colour: int | None) -> list[float]:
        """Greedy score of each option for the seat to move."""
        ev = self.ev
        team = ev.team[self.turn]
        waiting = colour is not None and self.on_board(colour) < MARBLES
        keep = ev.keep_waiting if waiting else ev.keep
        if colour is None:
            value = ev.relative(self.board, team)
            return [value - keep[rank] for rank, _ in opts]
        values = ev.after(self.board, team, colour, opts)
        return [v - keep[rank] for v, (rank, _) in zip(values, opts, strict=True)]

    def best_index(self, opts: list[Option], colour: int | None) -> int:
        scores = self.scores(opts, colour)
        best = 0
        top = scores[0]
        for i in range(1, len(scores)):
            if scores[i] > top:
                best, top = i, scores[i]
        return best

    def on_board(self, seat: int) -> int:
        return self.board.count(seat)

    def run(self, plies: int) -> None:
        """Every seat plays greedy for ``plies`` turns or until the game ends."""
        for _ in range(plies):
            if self.over:
                return
            rank, steps = self.greedy_option()
            self.play(rank, steps)

    def winner_team(self) -> int | None:
        """The winning team (its lower seat) of an ended game, else None."""
        for s in range(self.seats // 2):
            if self.finished(s) and self.finished(self.geo.partner[s]):
                return s
        return None
