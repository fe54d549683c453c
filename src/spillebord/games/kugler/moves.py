"""Legal moves of Kugler og Jokere: every card's marble moves, computed on the int board.

Rulings covered (rule book kugler): 3 (what each card does: A and J/Q/K out or forward,
2–6/9/10 forward, 7 whole or split 1+6 … 6+1 between two different marbles applied one
after the other with no part from the start area, 8 backward on the track only, the
joker's jump), 4 (one marble a field; own marbles are never jumped nor landed on),
5 (forced, exact home entry; a marble landing on its home entry stays on the track; in
home only forward and never jumping; flag ``optional_home_entry``), 6 (hitting opponents;
pushing the partner to its home entry or into home field 1) and 7 (discarding an unusable
card; flag ``strict_discard``).

A ``Move`` is identified by its text (``5H t12-t17``) and keeps its steps.  A split 7
reaching one board by both orders is listed once, under the text that sorts first; the
other order is kept as an alias that parses to it.
"""

from __future__ import annotations

from operator import attrgetter

from spillebord.games.kugler.board import EMPTY, HOME_SIZE, MARBLES, START, Geometry

Board = tuple[int, ...]
Step = tuple[int, int]

_TEXT = attrgetter("text")
FORWARD = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "9": 9, "T": 10}


class Move:
    """One action: play ``card`` with ``steps`` ((from, to) pairs; START = start area),
    or discard it (no steps).  Equal when the texts are equal; ordered by text."""

    __slots__ = ("card", "steps", "text")

    def __init__(self, text: str, card: str, steps: tuple[Step, ...]) -> None:
        self.text = text
        self.card = card
        self.steps = steps

    @property
    def is_discard(self) -> bool:
        return not self.steps

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __lt__(self, other: Move) -> bool:
        return self.text < other.text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


def fields_of(board: Board | list[int], seat: int) -> list[int]:
    """The fields (track and home) holding ``seat``'s marbles, ascending."""
    out: list[int] = []
    i = -1
    index = board.index
    try:
        while True:
            i = index(seat, i + 1)
            out.append(i)
    except ValueError:
        return out


def is_finished(board: Board, geo: Geometry, seat: int) -> bool:
    hb = geo.home_base[seat]
    return board[hb : hb + HOME_SIZE] == (seat,) * HOME_SIZE


def forward(board: Board | list[int], geo: Geometry, c: int, x: int, k: int,
            optional: bool) -> list[int]:
    """Where colour ``c``'s marble on field ``x`` may land moving ``k`` forward."""
    track = geo.track
    if x >= track:  # in home: forward only, never jumping, exact
        hb = geo.home_base[c]
        j = x - hb + k
        if j >= HOME_SIZE:
            return []
        for f in range(x + 1, hb + j + 1):
            if board[f] != EMPTY:
                return []
        return [hb + j]
    d = geo.to_entry[c][x]
    out: list[int] = []
    if k > d:  # passes the home entry: must enter home (ruling 5)
        j = k - d
        if j <= HOME_SIZE:
            ok = True
            for i in range(1, d + 1):
                if board[(x + i) % track] == c:
                    ok = False
                    break
            if ok:
                hb = geo.home_base[c]
                for f in range(hb, hb + j):
                    if board[f] != EMPTY:
                        ok = False
                        break
                if ok:
                    out.append(hb + j - 1)
        if not optional:
            return out
    for i in range(1, k + 1):
        if board[(x + i) % track] == c:
            return out
    dst = (x + k) % track
    if landing_ok(board, geo, c, dst):
        out.append(dst)
    return out


def backward8(board: Board | list[int], geo: Geometry, c: int, x: int) -> int | None:
    """Where an 8 takes colour ``c``'s marble on track field ``x`` (None: nowhere)."""
    track = geo.track
    for i in range(1, 9):
        if board[(x - i) % track] == c:
            return None
    dst = (x - 8) % track
    return dst if landing_ok(board, geo, c, dst) else None


def landing_ok(board: Board | list[int], geo: Geometry, c: int, dst: int) -> bool:
    """Colour ``c`` may land on ``dst``: not an own marble, and a partner marble on its
    own home entry needs a free first home field (ruling 6)."""
    o = board[dst]
    if o == c:
        return False
    if o != EMPTY and o == geo.partner[c] and dst == geo.entry[o]:
        return board[geo.home_base[o]] == EMPTY
    return True


def do_step(w: list[int], geo: Geometry, c: int, src: int, dst: int) -> bool:
    """Move colour ``c``'s marble from ``src`` to ``dst`` on the mutable board ``w`` and
    resolve a hit (ruling 6).  False (board partly changed) if the landing is illegal."""
    if src != START:
        w[src] = EMPTY
    o = w[dst]
    if o != EMPTY:
        if o == c:
            return False
        if o == geo.partner[c]:
            e = geo.entry[o]
            if dst == e:
                h1 = geo.home_base[o]
                if w[h1] != EMPTY:
                    return False
                w[h1] = o
            else:
                w[e] = o  # whatever stood there goes back to its start area
        # an opponent's marble simply leaves the board: back to its start area
    w[dst] = c
    return True


def apply_steps(board: Board, geo: Geometry, c: int, steps: tuple[Step, ...]) -> Board:
    w = list(board)
    for src, dst in steps:
        if not do_step(w, geo, c, src, dst):
            raise AssertionError("apply_steps on an illegal step")  # pragma: no cover
    return tuple(w)


# -- generation -------------------------------------------------------------------------

Option = tuple[str, tuple[Step, ...]]


def rank_options(rank: str, board: Board, geo: Geometry, c: int, optional: bool,
                 aliases: dict[str, str]) -> list[Option]:
    """Every distinct move of a card of ``rank`` for colour ``c``: (text after the card,
    steps).  ``aliases`` gets other-order split texts."""
    mine = fields_of(board, c)
    name = geo.names
    sname = f"s{c}"
    out: list[Option] = []
    in_start = len(mine) < MARBLES
    track = geo.track
    if rank in ("A", "J", "Q", "K") and in_start:
        dst = geo.start[c]
        if landing_ok(board, geo, c, dst):
            out.append((f"{sname}-{name[dst]}", ((START, dst),)))
    if rank == "8":
        for x in mine:
            if x < track:
                d8 = backward8(board, geo, c, x)
                if d8 is not None:
                    out.append((f"{name[x]}-{name[d8]}", ((x, d8),)))
        return out
    if rank == "JK":
        sources = [x for x in mine if x < track]
        if in_start:
            sources.insert(0, START)
        if not sources:
            return out
        targets: list[int] = []
        for o in range(geo.seats):
            if o != c:
                targets.extend(f for f in fields_of(board, o) if f < track)
        targets = [f for f in targets if landing_ok(board, geo, c, f)]
        for x in sources:
            xn = sname if x == START else name[x]
            for f in targets:
                out.append((f"{xn}-{name[f]}", ((x, f),)))
        return out
    k = 1 if rank == "A" else 10 if rank in ("J", "Q", "K") else 7 if rank == "7" \
        else FORWARD[rank]
    for x in mine:
        for dst in forward(board, geo, c, x, k, optional):
            out.append((f"{name[x]}-{name[dst]}", ((x, dst),)))
    if rank == "7" and len(mine) >= 2:
        out.extend(split_sevens(board, geo, c, mine, optional, aliases))
    return out


def split_sevens(board: Board, geo: Geometry, c: int, mine: list[int], optional: bool,
                 aliases: dict[str, str]) -> list[Option]:
    """Split 7s: two different marbles, first part a (1–6) then 7 − a, applied in order;
    one option per distinct resulting board (the smaller text of two orders).  Two
    boards are equal exactly when their changes against ``board`` are equal, and a split
    can only change its four ends and the partner's home entry and first home field."""
    name = geo.names
    p = geo.partner[c]
    extra = (geo.entry[p], geo.home_base[p])
    # keys: ("q", own marbles after) when neither part lands on a marble (then only own
    # marbles moved), else ("h", changed fields); a hit always changes another seat's
    # marble, so the two kinds never describe the same board
    best: dict[tuple[object, ...], tuple[str, tuple[Step, ...]]] = {}
    for x in mine:
        nx = name[x]
        for a in range(1, 7):
            for d1 in forward(board, geo, c, x, a, optional):
                w = list(board)
                if not do_step(w, geo, c, x, d1):
                    continue
                quiet1 = board[d1] == EMPTY
                first = f"{nx}-{name[d1]} "
                for y in mine:
                    if y == x or w[y] != c:
                        continue
                    rest = [m for m in mine if m != x and m != y]
                    for d2 in forward(w, geo, c, y, 7 - a, optional):
                        key: tuple[object, ...]
                        if quiet1 and w[d2] == EMPTY:
                            key = ("q", *sorted([*rest, d1, d2]))
                        else:
                            w2 = w.copy()
                            if not do_step(w2, geo, c, y, d2):
                                continue
                            key = ("h", *sorted((f, w2[f]) for f in {x, d1, y, d2, *extra}
                                                if w2[f] != board[f]))
                        text = first + f"{name[y]}-{name[d2]}"
                        have = best.get(key)
                        if have is None:
                            best[key] = (text, ((x, d1), (y, d2)))
                        elif text < have[0]:
                            aliases[have[0]] = text
                            best[key] = (text, ((x, d1), (y, d2)))
                        else:
                            aliases[text] = have[0]
    # an alias may point at a text that was itself replaced later: follow to the end
    for old in list(aliases):
        target = aliases[old]
        while target in aliases:
            target = aliases[target]
        aliases[old] = target
    return list(best.values())


def legal_moves(board: Board, geo: Geometry, colour: int | None, hand: tuple[str, ...],
                optional: bool, strict: bool) -> tuple[list[Move], dict[str, str]]:
    """The sorted legal moves and discards, and the aliases (other-order split texts →
    listed text).  ``colour`` None: the seat may only discard (finished, not helping)."""
    moves: list[Move] = []
    aliases: dict[str, str] = {}
    unusable: list[str] = []
    by_rank: dict[str, list[Option]] = {}
    rank_aliases: dict[str, dict[str, str]] = {}
    for code in sorted(set(hand)):
        rank = "JK" if code == "JK" else code[0]
        if colour is None:
            opts: list[Option] = []
        elif rank in by_rank:
            opts = by_rank[rank]
        else:
            al: dict[str, str] = {}
            opts = by_rank[rank] = rank_options(rank, board, geo, colour, optional, al)
            rank_aliases[rank] = al
        if not opts:
            unusable.append(code)
            continue
        for suffix, steps in opts:
            moves.append(Move(f"{code} {suffix}", code, steps))
        for old, new in rank_aliases.get(rank, {}).items():
            aliases[f"{code} {old}"] = f"{code} {new}"
    if not strict or not moves:
        moves.extend(Move(f"discard {code}", code, ()) for code in unusable)
    moves.sort(key=_TEXT)
    return moves, aliases
