"""Reasons for refused Kugler og Jokere actions ("you cannot jump your own marble on
t14").  Only used when an action text is not legal, so clarity beats speed here.

Rulings explained: 3 (what each card may do, the split 7's parts), 4 (no jumping or
landing on own marbles), 5 (forced and exact home entry, home moves), 6 (the partner on
its home entry with home field 1 taken), 7 (discarding) and 8 (finished players).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.cards import is_card_code
from spillebord.core.errors import NotationError
from spillebord.games.kugler.board import EMPTY, HOME_SIZE, MARBLES, START
from spillebord.games.kugler.moves import FORWARD, do_step, fields_of

if TYPE_CHECKING:
    from spillebord.games.kugler.state import KuglerState

VALUE = {**FORWARD, "A": 1, "7": 7, "J": 10, "Q": 10, "K": 10}


def explain(state: KuglerState, text: str) -> str:
    short = text if len(text) <= 40 else text[:37] + "..."
    tokens = text.split()
    seat = state.turn
    hand = state.hands[seat]
    if not tokens:
        return "an empty action: write a card and its steps ('5H t12-t17') or 'discard 4C'"
    if tokens[0] == "discard":
        if len(tokens) != 2 or not is_card_code(tokens[1]):
            return f"{short!r}: write a discard as 'discard 4C'"
        card = tokens[1]
        if card not in hand:
            return f"you do not hold {card}"
        if state.flags["strict_discard"]:
            return "with strict_discard you may discard only when no card can be used"
        return f"you may not discard {card}: it can be used"
    card = tokens[0]
    if not is_card_code(card):
        return f"{short!r} does not start with a card such as 5H or JK"
    if card not in hand:
        return f"you do not hold {card}"
    colour = state.colour(seat)
    if colour is None:
        return "all your marbles are home and finished_helps_partner is off: only discard"
    rank = "JK" if card == "JK" else card[0]
    parts = tokens[1:]
    if not parts:
        return f"say which marble moves, e.g. '{card} t12-t17'"
    if len(parts) > 2 or (len(parts) == 2 and rank != "7"):
        return "only a 7 may be split, and only between two marbles"
    geo = state.geo
    steps: list[tuple[int, int]] = []
    for part in parts:
        ends = part.split("-")
        if len(ends) != 2:
            return f"{part!r} is not a step: write from-to, e.g. t12-t17"
        try:
            (src, owner), (dst, _) = (geo.parse_location(e) for e in ends)
        except NotationError as exc:
            return str(exc)
        if src == START and owner != colour:
            return f"{ends[0]} is not the start area of the marbles you move (s{colour})"
        if dst == START:
            return "a card never moves a marble into a start area"
        steps.append((src, dst))
    w = list(state.board)
    whose = "yours" if colour == seat else f"your partner (seat {colour})"
    total = 0
    for i, (src, dst) in enumerate(steps):
        if src == START:
            if MARBLES - len(fields_of(w, colour)) == 0:
                return f"there is no marble in s{colour}"
        elif w[src] != colour:
            return f"there is no marble of {whose} on {geo.names[src]}"
        if i == 1 and src == steps[0][1]:
            return "a split 7 moves two different marbles"
        reason, amount = _step_reason(state, w, colour, rank, src, dst, len(steps) == 2)
        if reason:
            return reason
        total += amount
        if not do_step(w, geo, colour, src, dst):
            p = geo.partner[colour]
            return f"your partner's marble on its home entry cannot go in: h{p}.1 is taken"
    if len(steps) == 2 and total != 7:
        return f"the two parts of a split 7 must add up to 7, not {total}"
    return f"{short!r} is not a legal action here"


def _distance(state: KuglerState, c: int, src: int, dst: int) -> int | str:
    geo = state.geo
    track = geo.track
    if dst >= track:
        if geo.home_owner(dst) != c:
            return f"{geo.names[dst]} is not your home"
        if src >= track:
            if dst <= src:
                return "in home marbles move only forward"
            return dst - src
        return geo.to_entry[c][src] + dst - geo.home_base[c] + 1
    if src >= track:
        return "a marble never leaves its home"
    return (dst - src) % track or track


def _step_reason(state: KuglerState, w: list[int], c: int, rank: str, src: int, dst: int,
                 split: bool) -> tuple[str, int]:
    geo = state.geo
    names = geo.names
    track = geo.track
    if split and src == START:
        return "no part of a split 7 may move a marble from the start area", 0
    if rank == "JK":
        if src >= track and src != START:
            return "a joker never moves a marble in home", 0
        if dst >= track or w[dst] == EMPTY:
            return "the joker lands only on another player's marble on the track", 0
        if w[dst] == c:
            return "the joker cannot land on your own marble", 0
        return "", 0
    if src == START:
        if rank not in ("A", "J", "Q", "K"):
            return f"a {rank} cannot bring a marble out of the start area", 0
        if dst != geo.start[c]:
            return f"a marble comes out onto its start field {names[geo.start[c]]}", 0
        if w[dst] == c:
            return f"{names[dst]} is taken by your own marble", 0
        return "", 0
    if rank == "8":
        if src >= track or dst >= track:
            return "an 8 never moves a marble into or inside home", 0
        path = [(src - i) % track for i in range(1, 9)]
        if path[-1] != dst:
            return f"an 8 moves {names[src]} back to {names[path[-1]]}, not {names[dst]}", 0
        return _path_reason(w, c, path, names, track), 0
    dist = _distance(state, c, src, dst)
    if isinstance(dist, str):
        return dist, 0
    k = dist if split else VALUE[rank]
    if split and not 1 <= k <= 6:
        return "each part of a split 7 moves 1 to 6 fields", 0
    around = dst < track and src < track and k > geo.to_entry[c][src]
    if around and not state.flags["optional_home_entry"]:
        e = names[geo.entry[c]]
        return f"a marble passing its home entry {e} must enter its home", 0
    walk = _forward_path(state, c, src, k, around)
    if isinstance(walk, str):
        return walk, 0
    if walk[-1] != dst:
        return f"a {rank} moves {names[src]} to {names[walk[-1]]}, not {names[dst]}", 0
    return _path_reason(w, c, walk, names, track), k


def _forward_path(state: KuglerState, c: int, x: int, k: int, around: bool) -> list[int] | str:
    geo = state.geo
    track = geo.track
    hb = geo.home_base[c]
    if x >= track:
        if x - hb + k >= HOME_SIZE:
            return f"overshooting home is illegal: {k} from {geo.names[x]} passes h{c}.5"
        return [x + i for i in range(1, k + 1)]
    d = geo.to_entry[c][x]
    if k > d and not around:
        if k - d > HOME_SIZE:
            return f"overshooting home is illegal: {k} from {geo.names[x]} passes h{c}.5"
        return [(x + i) % track for i in range(1, d + 1)] + [hb + i for i in range(k - d)]
    return [(x + i) % track for i in range(1, k + 1)]


def _path_reason(w: list[int], c: int, path: list[int], names: tuple[str, ...],
                 track: int) -> str:
    for f in path[:-1]:
        if w[f] == c:
            return f"you cannot jump your own marble on {names[f]}"
        if f >= track and w[f] != EMPTY:
            return f"a marble in home never jumps ({names[f]} is taken)"
    if w[path[-1]] == c:
        return f"{names[path[-1]]} is taken by your own marble"
    return ""
