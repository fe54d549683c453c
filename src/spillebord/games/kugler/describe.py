"""Facts about a Kugler og Jokere move for pages that word it in the player's language.

A page must never show field codes ("t54 → t59"); it says "5 fields forward, into home
field 3, past the partner's marble" instead.  Those words need the rules (which way the
marble went, whether it entered its home, whom it hit), so the game computes the facts
here and the server sends them with the legal actions and the events (docs/protocol.md,
"Move facts").  Pure: the state is only read.

``describe(state, text)`` for a legal action of the seat to move::

    {"card": "7H", "discard": false, "seat": 0, "steps": [
        {"seat": 0, "from": "t12", "to": "t16", "kind": "forward", "fields": 4,
         "home_field": null, "path": ["t13", "t14", "t15", "t16"], "jumps": [2],
         "effects": [{"seat": 1, "from": "t16", "to": "s1"}]}, ...]}

``seat`` of a step is whose marble moves (the partner's once the player is finished);
``kind`` is ``out`` (from the start area onto the start field), ``forward``, ``back``
(an 8) or ``jump`` (a joker, straight onto another marble, from the start area or the
track); ``fields`` counts the fields
moved (1 for ``out``, 0 for ``jump``); ``home_field`` is 1–5 when the marble ends in its
home; ``path`` lists every field passed and the last one; ``jumps`` the seats whose
marbles were jumped over; ``effects`` the other marbles moved by the landing (to ``s<p>``
— back to the start area; to the partner's home entry or first home field — pushed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.protocol import JSON, action_text
from spillebord.games.kugler import kernel
from spillebord.games.kugler.board import EMPTY, START, Geometry
from spillebord.games.kugler.moves import fields_of

if TYPE_CHECKING:
    from spillebord.games.kugler.state import KuglerState


def _path(geo: Geometry, c: int, src: int, dst: int, back: bool) -> list[int]:
    """The fields a marble of colour ``c`` passes from ``src`` to ``dst`` (dst last)."""
    track = geo.track
    if src == START:
        return [dst]
    if back:
        return [(src - i) % track for i in range(1, (src - dst) % track + 1)]
    if src >= track:  # inside the home: forward only
        return list(range(src + 1, dst + 1))
    if dst >= track:  # along the track to the entry, then into the home
        d = geo.to_entry[c][src]
        hb = geo.home_base[c]
        return [(src + i) % track for i in range(1, d + 1)] + list(range(hb, dst + 1))
    return [(src + i) % track for i in range(1, (dst - src) % track + 1)]


def _positions(board: list[int], n: int) -> dict[int, list[int]]:
    return {s: fields_of(board, s) for s in range(n)}


def describe(state: KuglerState, text: str) -> JSON | None:
    """The facts of the legal action ``text`` in ``state`` (None if it is not legal)."""
    move = state.lookup(action_text(text))
    seat = state.to_move
    if move is None or seat is None:
        return None
    out: JSON = {"card": move.card, "discard": move.is_discard, "seat": seat, "steps": []}
    colour = state.colour(seat)
    if move.is_discard or colour is None:
        return out
    geo, names, n = state.geo, state.geo.names, state.seats
    w = state._arr.copy()
    g = kernel.GEO[n]
    for src, dst in move.steps:
        kind = ("jump" if move.card == "JK" else "out" if src == START
                else "back" if move.card[0] == "8" else "forward")
        path = [] if kind == "jump" else _path(geo, colour, src, dst, kind == "back")
        wl = w.tolist()
        jumps = sorted({wl[f] for f in path[:-1] if wl[f] != EMPTY})
        before = _positions(wl, n)
        kernel.do_step(w, g, colour, src, dst)
        after = _positions(w.tolist(), n)
        effects: list[JSON] = []
        for s in range(n):
            if s == colour:
                continue
            gone = [f for f in before[s] if f not in after[s]]
            came = [f for f in after[s] if f not in before[s]]
            for i, f in enumerate(gone):
                to = names[came[i]] if i < len(came) else f"s{s}"
                effects.append({"seat": s, "from": names[f], "to": to})
        home_field = dst - geo.home_base[colour] + 1 if dst >= geo.track else None
        out["steps"].append({
            "seat": colour,
            "from": geo.location_name(colour, src),
            "to": names[dst],
            "kind": kind,
            "fields": 1 if kind == "out" else 0 if kind == "jump" else len(path),
            "home_field": home_field,
            "path": [names[f] for f in path],
            "jumps": jumps,
            "effects": effects,
        })
    return out
