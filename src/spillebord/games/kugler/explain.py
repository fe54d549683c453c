"""Reasons for refused Kugler og Jokere actions ("you cannot jump your own marble on
t14").  Only used when an action text is not legal, so clarity beats speed here.

No rule is decided here: whether a card can take a marble somewhere, where it takes it,
and which marble is in the way are all asked of the rules kernel (kernel.py) — its
moves on the real board, on the board with only the moving marble (where the card takes
it at all; the fields it passes, step by step), and on boards with the mover and one
other marble (the first of those that stops the move is the one named).  This module
only reads the action text, checks what the text names (the card held, whose marble is
where) and picks the words for the kernel's answer.  The words cover rulings 3 (what
each card may do, the split 7's parts), 4 (no jumping or landing on own marbles), 5
(forced and exact home entry, home moves), 6 (the partner on its home entry with home
field 1 taken), 7 (discarding) and 8 (finished players).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from spillebord.core.cards import is_card_code
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.core.errors import refuse as _no
from spillebord.games.kugler import kernel
from spillebord.games.kugler.board import EMPTY, MARBLES, START

if TYPE_CHECKING:
    from spillebord.games.kugler.state import KuglerState


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
    if len(steps) == 2 and total != kernel.STEP[kernel.R_7]:
        return _no(f"the two parts of a split 7 must add up to 7, not {total}",
                   key="kugler.split_sum", total=total)
    return _no(f"{short!r} is not a legal action here", key="core.not_legal", action=short)


def _alone(w: np.ndarray, x: int) -> np.ndarray:
    """``w`` with every marble but the one on ``x`` taken off (none: ``x`` = START)."""
    out = np.full_like(w, EMPTY)
    if x >= 0:
        out[x] = w[x]
    return out


def _options(w: np.ndarray, g: np.ndarray, c: int, r: int,
             optional: bool) -> list[tuple[int, int]]:
    """The kernel's one-step moves (from, to) of a card of rank ``r`` for colour ``c``."""
    opts = np.empty(kernel.CAP, dtype=np.int64)
    roff = np.zeros(kernel.NRANKS + 1, dtype=np.int64)
    alias = np.empty((512, 2), dtype=np.int64)
    kernel.rank_options(w, g, c, 1 << r, optional, opts, roff, alias)
    return [((int(k) >> 24 & 255) - 1, (int(k) >> 16 & 255) - 1)
            for k in opts[roff[r]:roff[r + 1]] if not int(k) & 255]


def _blocker(w: np.ndarray, c: int, src: int, order: list[int],
             reaches: Callable[[np.ndarray], bool]) -> int | None:
    """The first field in ``order`` whose marble alone stops the move (``reaches`` asks
    the kernel on a board with the mover and that one marble); None if none does."""
    for f in order:
        if f < 0 or f == src or w[f] == EMPTY:
            continue
        probe = _alone(w, src)
        probe[f] = w[f]
        if not reaches(probe):
            return f
    return None


def _blocked(w: np.ndarray, c: int, f: int, dst: int, names: tuple[str, ...],
             track: int) -> IllegalActionError:
    """Words for the marble on ``f`` that the kernel says stops the move."""
    if f == dst:
        return _no(f"{names[f]} is taken by your own marble", key="kugler.own_marble_on",
                   place=names[f], places=("place",))
    if w[f] == c:
        return _no(f"you cannot jump your own marble on {names[f]}",
                   key="kugler.jump_own", place=names[f], places=("place",))
    return _no(f"a marble in home never jumps ({names[f]} is taken)",
               key="kugler.home_jump", place=names[f], places=("place",))


def _step_reason(state: KuglerState, w: np.ndarray, c: int, card: str, rank: str, src: int,
                 dst: int, split: bool) -> tuple[IllegalActionError | None, int]:
    """Why one step of ``card`` cannot go ``src`` → ``dst`` (None: it can), and the
    fields it moves.  Every yes/no comes from the kernel: its moves on the real board,
    on the board with only the moving marble (where the card takes it at all), and on
    boards with the mover and one other marble (which marble is in the way)."""
    geo = state.geo
    names = geo.names
    track = geo.track
    g = kernel.GEO[state.seats]
    optional = state.flags["optional_home_entry"]
    r = kernel.RANK_INDEX[rank]
    if split and src == START:
        return _no("no part of a split 7 may move a marble from the start area",
                   key="kugler.split_from_start"), 0
    if r == kernel.R_JK:
        mine = [d for s, d in _options(w, g, c, r, optional) if s == src]
        if dst in mine:
            return None, 0
        if not mine and src >= track:
            return _no("a joker never moves a marble in home",
                       key="kugler.joker_in_home"), 0
        if dst < track and w[dst] == c:
            return _no("the joker cannot land on your own marble",
                       key="kugler.joker_own"), 0
        return _no("the joker lands only on another player's marble on the track",
                   key="kugler.joker_target"), 0
    if src == START:
        outs = [d for s, d in _options(_alone(w, START), g, c, r, optional) if s == START]
        if not outs:
            return _no(f"a {rank} cannot bring a marble out of the start area",
                       key="kugler.cannot_start", card=card, cards=("card",)), 0
        if dst not in outs:
            return _no(f"a marble comes out onto its start field {names[outs[0]]}",
                       key="kugler.start_field", place=names[outs[0]],
                       places=("place",)), 0
        if (START, dst) in _options(w, g, c, r, optional):
            return None, 0
        return _blocked(w, c, dst, dst, names, track), 0
    if r == kernel.R_8:
        back = [d for s, d in _options(_alone(w, src), g, c, r, optional) if s == src]
        if not back or dst >= track:
            return _no("an 8 never moves a marble into or inside home",
                       key="kugler.eight_home"), 0
        if dst != back[0]:
            return _no(f"an 8 moves {names[src]} back to {names[back[0]]}, not "
                       f"{names[dst]}", key="kugler.eight_to", card=card, cards=("card",),
                       place=names[src], to=names[back[0]], wrong=names[dst],
                       places=("place", "to", "wrong")), 0
        if (src, dst) in _options(w, g, c, r, optional):
            return None, 0
        order = sorted(range(track), key=lambda f: (src - f) % track)
        f = _blocker(w, c, src, order,
                     lambda b: (src, dst) in _options(b, g, c, r, optional))
        return (None if f is None else _blocked(w, c, f, dst, names, track)), 0
    alone = _alone(w, src)
    if split:  # the part's length: the first that takes the marble to dst at all
        part = kernel.STEP[kernel.R_7] - 1
        k = next((i for i in range(1, part + 1)
                  if dst in kernel.forward(alone, g, c, src, i, True)), 0)
    else:
        k = int(kernel.STEP[r])
    reach = kernel.forward(alone, g, c, src, k, optional) if k else (-1, -1)
    if dst not in reach:
        if dst >= track and geo.home_owner(dst) != c:
            return _no(f"{names[dst]} is not your home", key="kugler.not_your_home",
                       place=names[dst], places=("place",)), 0
        if src >= track and dst < track:
            return _no("a marble never leaves its home", key="kugler.leaves_home"), 0
        if src >= track and dst <= src:
            return _no("in home marbles move only forward", key="kugler.home_forward"), 0
        if not k:
            return _no("each part of a split 7 moves 1 to 6 fields",
                       key="kugler.split_part"), 0
        if (dst < track and src < track and reach[1] < 0
                and kernel.forward(alone, g, c, src, k, True)[1] >= 0):
            # the kernel would go on around the track only with optional_home_entry
            e = names[geo.entry[c]]
            return _no(f"a marble passing its home entry {e} must enter its home",
                       key="kugler.must_enter_home", place=e, places=("place",)), 0
        forced = kernel.forward(alone, g, c, src, k, False)
        if forced == (-1, -1) and (dst >= track or reach == (-1, -1)):
            return _no(f"overshooting home is illegal: {k} from {names[src]} passes "
                       f"h{c}.5", key="kugler.overshoot", steps=k, place=names[src],
                       last=f"h{c}.5", places=("place", "last")), 0
        to = names[reach[1] if reach[1] >= 0 and (dst < track or reach[0] < 0)
                   else reach[0]]
        return _no(f"a {rank} moves {names[src]} to {to}, not {names[dst]}",
                   key="kugler.moves_to", card=card, cards=("card",), place=names[src],
                   to=to, wrong=names[dst], places=("place", "to", "wrong")), 0
    if dst in kernel.forward(w, g, c, src, k, optional):
        return None, k
    home = dst >= track
    path = []  # the fields passed, in order, as the kernel moves the marble alone
    for i in range(1, k + 1):
        h, t = kernel.forward(alone, g, c, src, i, optional)
        path.append(h if h >= 0 and (home or t < 0) else t)
    f = _blocker(w, c, src, path,
                 lambda b: dst in kernel.forward(b, g, c, src, k, optional))
    return (None if f is None else _blocked(w, c, f, dst, names, track)), k
