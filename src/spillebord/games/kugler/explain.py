"""Reasons for refused Kugler og Jokere actions ("you cannot jump your own marble on
t14").  Only used when an action text is not legal, so clarity beats speed here.

Rulings explained: 3 (what each card may do, the split 7's parts), 4 (no jumping or
landing on own marbles), 5 (forced and exact home entry, home moves), 6 (the partner on
its home entry with home field 1 taken), 7 (discarding) and 8 (finished players).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from spillebord.core.cards import is_card_code
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.core.errors import refuse as _no
from spillebord.games.kugler import kernel
from spillebord.games.kugler.board import EMPTY, HOME_SIZE, MARBLES, START

if TYPE_CHECKING:
    from spillebord.games.kugler.state import KuglerState

VALUE = {r: int(k) for r, k in zip(kernel.RANKS, kernel.STEP, strict=True) if k}


def explain(state: KuglerState, text: str) -> IllegalActionError:
    short = text if len(text) <= 40 else text[:37] + "..."
    tokens = text.split()
    seat = state.turn
    hand = state.hands[seat]
    if not tokens:
        return _no("an empty action: write a card and its steps ('5H t12-t17') or "
                   "'discard 4C'", key="kugler.empty_action")
    if tokens[0] == "discard":
        if len(tokens) != 2 or not is_card_code(tokens[1]):
            return _no(f"{short!r}: write a discard as 'discard 4C'",
                       key="kugler.bad_discard", text=short)
        card = tokens[1]
        if card not in hand:
            return _no(f"you do not hold {card}", key="kugler.not_held", card=card,
                       cards=("card",))
        if state.flags["strict_discard"]:
            return _no("with strict_discard you may discard only when no card can be used",
                       key="kugler.strict_discard")
        return _no(f"you may not discard {card}: it can be used",
                   key="kugler.discard_usable", card=card, cards=("card",))
    card = tokens[0]
    if not is_card_code(card):
        return _no(f"{short!r} does not start with a card such as 5H or JK",
                   key="kugler.no_card", text=short)
    if card not in hand:
        return _no(f"you do not hold {card}", key="kugler.not_held", card=card,
                   cards=("card",))
    colour = state.colour(seat)
    if colour is None:
        return _no("all your marbles are home and finished_helps_partner is off: "
                   "only discard", key="kugler.finished_discard")
    rank = "JK" if card == "JK" else card[0]
    parts = tokens[1:]
    if not parts:
        return _no(f"say which marble moves, e.g. '{card} t12-t17'",
                   key="kugler.which_marble", code=card)
    if len(parts) > 2 or (len(parts) == 2 and rank != "7"):
        return _no("only a 7 may be split, and only between two marbles",
                   key="kugler.split_only_7")
    geo = state.geo
    steps: list[tuple[int, int]] = []
    for part in parts:
        ends = part.split("-")
        if len(ends) != 2:
            return _no(f"{part!r} is not a step: write from-to, e.g. t12-t17",
                       key="kugler.not_step", text=part[:20])
        located: list[tuple[int, int | None]] = []
        for end in ends:
            try:
                located.append(geo.parse_location(end))
            except NotationError as exc:
                return _no(str(exc), key="kugler.not_place", text=end[:12])
        (src, owner), (dst, _) = located
        if src == START and owner != colour:
            return _no(f"{ends[0]} is not the start area of the marbles you move "
                       f"(s{colour})", key="kugler.wrong_start", place=ends[0],
                       start=f"s{colour}", places=("place", "start"))
        if dst == START:
            return _no("a card never moves a marble into a start area",
                       key="kugler.into_start")
        steps.append((src, dst))
    w = state._arr.copy()
    total = 0
    for i, (src, dst) in enumerate(steps):
        if src == START:
            if MARBLES - int((w == colour).sum()) == 0:
                return _no(f"there is no marble in s{colour}", key="kugler.start_empty",
                           place=f"s{colour}", places=("place",))
        elif w[src] != colour:
            if colour == seat:
                return _no(f"there is no marble of yours on {geo.names[src]}",
                           key="kugler.no_own_marble", place=geo.names[src],
                           places=("place",))
            return _no(f"there is no marble of your partner (seat {colour}) on "
                       f"{geo.names[src]}", key="kugler.no_partner_marble",
                       seat=colour, place=geo.names[src], places=("place",))
        if i == 1 and src == steps[0][1]:
            return _no("a split 7 moves two different marbles", key="kugler.split_same")
        reason, amount = _step_reason(state, w, colour, card, rank, src, dst,
                                      len(steps) == 2)
        if reason is not None:
            return reason
        total += amount
        if not kernel.do_step(w, kernel.GEO[state.seats], colour, src, dst):
            p = geo.partner[colour]
            return _no(f"your partner's marble on its home entry cannot go in: h{p}.1 is "
                       "taken", key="kugler.partner_entry_taken", place=f"h{p}.1",
                       places=("place",))
    if len(steps) == 2 and total != 7:
        return _no(f"the two parts of a split 7 must add up to 7, not {total}",
                   key="kugler.split_sum", total=total)
    return _no(f"{short!r} is not a legal action here", key="core.not_legal", action=short)


def _distance(state: KuglerState, c: int, src: int, dst: int) -> int | IllegalActionError:
    geo = state.geo
    track = geo.track
    if dst >= track:
        if geo.home_owner(dst) != c:
            return _no(f"{geo.names[dst]} is not your home", key="kugler.not_your_home",
                       place=geo.names[dst], places=("place",))
        if src >= track:
            if dst <= src:
                return _no("in home marbles move only forward", key="kugler.home_forward")
            return dst - src
        return geo.to_entry[c][src] + dst - geo.home_base[c] + 1
    if src >= track:
        return _no("a marble never leaves its home", key="kugler.leaves_home")
    return (dst - src) % track or track


def _step_reason(state: KuglerState, w: np.ndarray, c: int, card: str, rank: str, src: int,
                 dst: int, split: bool) -> tuple[IllegalActionError | None, int]:
    geo = state.geo
    names = geo.names
    track = geo.track
    if split and src == START:
        return _no("no part of a split 7 may move a marble from the start area",
                   key="kugler.split_from_start"), 0
    if rank == "JK":
        if src >= track and src != START:
            return _no("a joker never moves a marble in home",
                       key="kugler.joker_in_home"), 0
        if dst >= track or w[dst] == EMPTY:
            return _no("the joker lands only on another player's marble on the track",
                       key="kugler.joker_target"), 0
        if w[dst] == c:
            return _no("the joker cannot land on your own marble",
                       key="kugler.joker_own"), 0
        return None, 0
    if src == START:
        if rank not in ("A", "J", "Q", "K"):
            return _no(f"a {rank} cannot bring a marble out of the start area",
                       key="kugler.cannot_start", card=card, cards=("card",)), 0
        if dst != geo.start[c]:
            return _no(f"a marble comes out onto its start field {names[geo.start[c]]}",
                       key="kugler.start_field", place=names[geo.start[c]],
                       places=("place",)), 0
        if w[dst] == c:
            return _no(f"{names[dst]} is taken by your own marble",
                       key="kugler.own_marble_on", place=names[dst], places=("place",)), 0
        return None, 0
    if rank == "8":
        if src >= track or dst >= track:
            return _no("an 8 never moves a marble into or inside home",
                       key="kugler.eight_home"), 0
        path = [(src - i) % track for i in range(1, 9)]
        if path[-1] != dst:
            return _no(f"an 8 moves {names[src]} back to {names[path[-1]]}, not "
                       f"{names[dst]}", key="kugler.eight_to", card=card, cards=("card",),
                       place=names[src], to=names[path[-1]], wrong=names[dst],
                       places=("place", "to", "wrong")), 0
        return _path_reason(w, c, path, names, track), 0
    dist = _distance(state, c, src, dst)
    if isinstance(dist, IllegalActionError):
        return dist, 0
    k = dist if split else VALUE[rank]
    if split and not 1 <= k <= 6:
        return _no("each part of a split 7 moves 1 to 6 fields", key="kugler.split_part"), 0
    around = dst < track and src < track and k > geo.to_entry[c][src]
    if around and not state.flags["optional_home_entry"]:
        e = names[geo.entry[c]]
        return _no(f"a marble passing its home entry {e} must enter its home",
                   key="kugler.must_enter_home", place=e, places=("place",)), 0
    walk = _forward_path(state, c, src, k, around)
    if isinstance(walk, IllegalActionError):
        return walk, 0
    if walk[-1] != dst:
        return _no(f"a {rank} moves {names[src]} to {names[walk[-1]]}, not {names[dst]}",
                   key="kugler.moves_to", card=card, cards=("card",), place=names[src],
                   to=names[walk[-1]], wrong=names[dst], places=("place", "to", "wrong")), 0
    return _path_reason(w, c, walk, names, track), k


def _forward_path(state: KuglerState, c: int, x: int, k: int,
                  around: bool) -> list[int] | IllegalActionError:
    geo = state.geo
    track = geo.track
    hb = geo.home_base[c]

    def overshoot() -> IllegalActionError:
        return _no(f"overshooting home is illegal: {k} from {geo.names[x]} passes h{c}.5",
                   key="kugler.overshoot", steps=k, place=geo.names[x], last=f"h{c}.5",
                   places=("place", "last"))

    if x >= track:
        if x - hb + k >= HOME_SIZE:
            return overshoot()
        return [x + i for i in range(1, k + 1)]
    d = geo.to_entry[c][x]
    if k > d and not around:
        if k - d > HOME_SIZE:
            return overshoot()
        return [(x + i) % track for i in range(1, d + 1)] + [hb + i for i in range(k - d)]
    return [(x + i) % track for i in range(1, k + 1)]


def _path_reason(w: np.ndarray, c: int, path: list[int], names: tuple[str, ...],
                 track: int) -> IllegalActionError | None:
    for f in path[:-1]:
        if w[f] == c:
            return _no(f"you cannot jump your own marble on {names[f]}",
                       key="kugler.jump_own", place=names[f], places=("place",))
        if f >= track and w[f] != EMPTY:
            return _no(f"a marble in home never jumps ({names[f]} is taken)",
                       key="kugler.home_jump", place=names[f], places=("place",))
    if w[path[-1]] == c:
        return _no(f"{names[path[-1]]} is taken by your own marble",
                   key="kugler.own_marble_on", place=names[path[-1]],
                   places=("place",))
    return None
