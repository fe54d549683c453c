"""evaluate.py's board evaluation, computed fast for the playouts of rollout.py.

The same numbers as ``relative(team_scores(board, geo), team)`` (tests check it on many
boards), with the "marbles able to hit it" count done on bit masks: each track field
has the mask of the fields an enemy could hit it from (1–10 behind, 8 ahead), so a
marble's threat count is one ``&`` and one ``bit_count()``.  Card ranks use ``X`` for
the joker.
"""

from __future__ import annotations

from functools import cache

from spillebord.bots.kugler.evaluate import DANGER, HOME, KEEP, KEEP_OUT_BONUS, OUT
from spillebord.games.kugler.board import EMPTY, MARBLES, geometry
from spillebord.games.kugler.moves import do_step, fields_of

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "X")


class Evaluator:
    """Tables for one seat count; ``relative(board, team)`` is the greedy value."""

    __slots__ = (
        "base",
        "geo",
        "home",
        "keep",
        "keep_waiting",
        "seats",
        "src",
        "start_bit",
        "starter",
        "target",
        "team",
        "track",
        "weights",
    )

    def __init__(self, seats: int) -> None:
        geo = geometry(seats)
        self.geo = geo
        n = seats
        half = n // 2
        track = geo.track
        self.seats = n
        self.track = track
        self.team = tuple(min(s, geo.partner[s]) for s in range(n))
        others = half - 1
        self.weights = tuple(
            tuple(1.0 if self.team[s] == t else -1.0 / others for s in range(n))
            if t < half else ()
            for t in range(n)
        )
        self.base = tuple(
            tuple(OUT + track - geo.to_entry[s][f] - 1 for f in range(track))
            for s in range(n)
        )
        self.home = tuple(
            HOME + track + 2 * ((f - geo.home_base[geo.home_owner(f)]) + 1)
            if f >= track else 0.0
            for f in range(geo.size)
        )
        src = []
        for f in range(track):
            m = 0
            for g in range(track):
                behind = (f - g) % track
                if 1 <= behind <= 10 or behind == track - 8:
                    m |= 1 << g
            src.append(m)
        self.src = tuple(src)
        # target[g]: the fields a marble on g threatens (g is in their src)
        self.target = tuple(sum(1 << f for f in range(track) if src[f] >> g & 1)
                            for g in range(track))
        self.start_bit = tuple(1 << geo.start[o] for o in range(n))
        starter = [-1] * track
        for o in range(n):
            starter[geo.start[o]] = o
        self.starter = tuple(starter)
        keep = {}
        for r in RANKS:
            keep[r] = KEEP.get("JK" if r == "X" else r, 0.0)
        self.keep = keep
        self.keep_waiting = {r: v + (KEEP_OUT_BONUS if r in "AJQK" else 0.0)
                             for r, v in keep.items()}

    @staticmethod
    @cache
    def of(seats: int) -> Evaluator:
        return Evaluator(seats)

    def relative(self, b: list[int] | tuple[int, ...], t: int) -> float:
        """Team ``t``'s value minus the mean of the other teams' on board ``b``."""
        track = self.track
        team = self.team
        n = self.seats
        masks = [0] * n
        count = [0] * n
        marbles: list[tuple[int, int]] = []
        home = self.home
        w = self.weights[t]
        total = 0.0
        for s in range(n):
            fs = fields_of(b, s)
            count[s] = len(fs)
            m = 0
            for f in fs:
                if f < track:
                    m |= 1 << f
                    marbles.append((f, s))
                else:
                    total += w[s] * home[f]
            masks[team[s]] |= m
        if not marbles:
            return total
        allm = 0
        for m in masks:
            allm |= m
        src = self.src
        starter = self.starter
        base = self.base
        for f, s in marbles:
            ts = team[s]
            thr = (src[f] & (allm ^ masks[ts])).bit_count()
            o = starter[f]
            if o >= 0 and count[o] < MARBLES and team[o] != ts:
                thr += 1
            if thr > 4:
                thr = 4
            total += w[s] * base[s][f] * (1.0 - DANGER * thr)
        return total

    def after(self, b: list[int], t: int, colour: int,
              opts: list[tuple[str, tuple[tuple[int, int], ...]]]) -> list[float]:
        """``relative(board after option, t)`` for each option of ``colour`` (discards:
        the board as it is), by updating only the marbles a move can affect: those on
        changed fields, those a changed field threatens, and those on the start field of
        a seat whose start area empties or fills."""
        geo = self.geo
        track = self.track
        team = self.team
        n = self.seats
        home = self.home
        w = self.weights[t]
        src = self.src
        starter = self.starter
        base = self.base
        target = self.target
        start_bit = self.start_bit
        masks = [0] * n
        count = [0] * n
        contrib: dict[int, float] = {}
        total = 0.0
        seat_fields = [fields_of(b, s) for s in range(n)]
        for s in range(n):
            fs = seat_fields[s]
            count[s] = len(fs)
            for f in fs:
                if f < track:
                    masks[team[s]] |= 1 << f
                else:
                    total += w[s] * home[f]
        allm = 0
        for m in masks:
            allm |= m
        for s in range(n):
            ts = team[s]
            enemy = allm ^ masks[ts]
            ws = w[s]
            bs = base[s]
            for f in seat_fields[s]:
                if f >= track:
                    break
                thr = (src[f] & enemy).bit_count()
                o = starter[f]
                if o >= 0 and count[o] < MARBLES and team[o] != ts:
                    thr += 1
                if thr > 4:
                    thr = 4
                v = ws * bs[f] * (1.0 - DANGER * thr)
                contrib[f] = v
                total += v
        p = geo.partner[colour]
        tc = team[colour]
        extra = (geo.entry[p], geo.home_base[p])
        out: list[float] = []
        for _, steps in opts:
            if not steps:
                out.append(total)
                continue
            changes: list[tuple[int, int, int]]
            if len(steps) == 1 and (b[steps[0][1]] == EMPTY or team[b[steps[0][1]]] != tc):
                # onto an empty field or an opponent
                out.append(total + self._single(b, steps[0], colour, w, masks, allm, count,
                                                contrib))
                continue
            else:
                nb = b.copy()
                fs_changed = set(extra)
                for x, d in steps:
                    do_step(nb, geo, colour, x, d)
                    fs_changed.add(x)
                    fs_changed.add(d)
                changes = [(f, b[f], nb[f]) for f in fs_changed if f >= 0 and b[f] != nb[f]]
            delta = 0.0
            nmasks = masks.copy()
            ncount = count.copy()
            flip = 0
            moved = {}
            for f, old, new in changes:
                moved[f] = new
                if old >= 0:
                    ncount[old] -= 1
                if new >= 0:
                    ncount[new] += 1
                if f < track:
                    bit = 1 << f
                    flip |= bit | target[f]
                    if old >= 0:
                        nmasks[team[old]] ^= bit
                    if new >= 0:
                        nmasks[team[new]] |= bit
                else:
                    if old >= 0:
                        delta -= w[old] * home[f]
                    if new >= 0:
                        delta += w[new] * home[f]
            for o in range(n):
                if (count[o] < MARBLES) != (ncount[o] < MARBLES):
                    flip |= start_bit[o]
            nall = 0
            for m in nmasks:
                nall |= m
            flip &= allm | nall
            while flip:
                low = flip & -flip
                f = low.bit_length() - 1
                flip ^= low
                delta -= contrib.get(f, 0.0)
                s = moved.get(f, b[f])
                if s >= 0:
                    ts = team[s]
                    thr = (src[f] & (nall ^ nmasks[ts])).bit_count()
                    o = starter[f]
                    if o >= 0 and ncount[o] < MARBLES and team[o] != ts:
                        thr += 1
                    if thr > 4:
                        thr = 4
                    delta += w[s] * base[s][f] * (1.0 - DANGER * thr)
            out.append(total + delta)
        return out

    def _single(self, b: list[int], step: tuple[int, int], c: int, w: tuple[float, ...],
                masks: list[int], allm: int, count: list[int],
                contrib: dict[int, float]) -> float:
        """The value change of colour ``c`` moving ``step`` onto an empty field or onto
        an opponent's marble (which goes back to its start area)."""
        x, d = step
        track = self.track
        team = self.team
        tc = team[c]
        delta = 0.0
        flip = 0
        nm = masks[tc]
        nall = allm
        hit = b[d]
        th = -1
        mh = 0
        ch = 0
        if d < track:
            bit = 1 << d
            flip = bit | self.target[d]
            nm |= bit
            if hit >= 0:
                th = team[hit]
                mh = masks[th] ^ bit
                ch = count[hit] - 1
                if ch == MARBLES - 1:
                    flip |= self.start_bit[hit]
            else:
                nall |= bit
        else:
            delta += w[c] * self.home[d]
        if x >= 0:
            if x < track:
                bit = 1 << x
                flip |= bit | self.target[x]
                nm ^= bit
                nall ^= bit
            else:
                delta -= w[c] * self.home[x]
            cc = count[c]
        else:
            cc = count[c] + 1
            if cc == MARBLES:
                flip |= self.start_bit[c]
        flip &= allm | nall
        src = self.src
        starter = self.starter
        base = self.base
        while flip:
            low = flip & -flip
            f = low.bit_length() - 1
            flip ^= low
            delta -= contrib.get(f, 0.0)
            s = c if f == d else EMPTY if f == x else b[f]
            if s >= 0:
                ts = team[s]
                enemy = nall ^ (nm if ts == tc else mh if ts == th else masks[ts])
                thr = (src[f] & enemy).bit_count()
                o = starter[f]
                if o >= 0 and team[o] != ts and (
                        cc if o == c else ch if o == hit else count[o]) < MARBLES:
                    thr += 1
                if thr > 4:
                    thr = 4
                delta += w[s] * base[s][f] * (1.0 - DANGER * thr)
        return delta
