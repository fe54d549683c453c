"""Legal actions of Gammel Jomfru and the reasons an action text is refused.

Actions are plain strings (the rule book's text notation):

- ``turn`` — turn the top card of your face-down pile (rule 2; rule 4 when it is empty);
- ``centre`` — a turned ace starts a new centre pile (rule 2: an ace *always* does, so it
  is then the only legal action);
- ``c1`` … ``c4`` — onto centre pile N, numbered from 1 in the order the piles were
  started (rule 2: same suit, one rank lower, A K Q … 2);
- ``p0`` … ``p7`` — onto seat N's face-up top (rule 2: one rank higher or lower, suit
  ignored; never your own seat);
- ``keep`` — face up on your own pile; legal only when nothing else is (rule 3).

Rule 3: a card that fits must be played; with several places the player chooses — or,
with the flag ``nearest_first``, a fitting centre pile comes first, else the nearest
fitting player to the left (seat + 1, seat + 2, …).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.errors import IllegalActionError
from spillebord.core.errors import refuse as no
from spillebord.games.gammel_jomfru.rules import CENTRE_NEXT, PLAYER_FITS

if TYPE_CHECKING:
    from spillebord.games.gammel_jomfru.state import JomfruState

CENTRE_LABELS: tuple[str, ...] = tuple(f"c{i + 1}" for i in range(4))
PLAYER_LABELS: tuple[str, ...] = tuple(f"p{i}" for i in range(8))
CENTRE_INDEX: dict[str, int] = {label: i for i, label in enumerate(CENTRE_LABELS)}
PLAYER_INDEX: dict[str, int] = {label: i for i, label in enumerate(PLAYER_LABELS)}

_TURN = ["turn"]
_CENTRE = ["centre"]
_KEEP = ["keep"]


def legal_actions(state: JomfruState) -> list[str]:
    """Sorted by text and unique (``c…`` before ``p…``, indices ascending)."""
    if state.done:
        return []
    card = state.turned
    if card is None:
        return _TURN
    if card[0] == "A":
        return _CENTRE
    acts = [CENTRE_LABELS[i] for i, pile in enumerate(state.centre)
            if CENTRE_NEXT[pile[-1]] == card]
    fits = PLAYER_FITS[card]
    t, n, up = state.turn, state.seats, state.up
    if state.nearest_first:
        if acts:
            return acts
        for k in range(1, n):
            p = (t + k) % n
            if up[p] and up[p][-1] in fits:
                return [PLAYER_LABELS[p]]
        return _KEEP
    for p in range(n):
        if p != t and up[p] and up[p][-1] in fits:
            acts.append(PLAYER_LABELS[p])
    return acts or _KEEP


def refusal(state: JomfruState, text: str) -> IllegalActionError:
    """Why ``text`` is not legal in ``state`` — a one-line human reason with its message
    key (see spillebord.core.errors); ``choices`` params are action texts."""
    shown = text if len(text) <= 20 and text.isprintable() else repr(text[:20])
    legal = state.cached_legal()
    choices = ", ".join(legal)

    if state.done:
        return no("the game is over", key="core.game_over")
    card = state.turned
    t = state.turn
    if text == "turn":
        return no(f"{card} is turned and must be placed first ({choices})",
                  key="gammel_jomfru.place_first", card=card, choices=choices,
                  cards=("card",))
    placing = text in ("centre", "keep") or text in CENTRE_INDEX or text in PLAYER_INDEX
    if placing and card is None:
        return no(f"seat {t} must turn a card first (turn)",
                  key="gammel_jomfru.turn_first", seat=t)
    if text == "centre":
        return no(f"only an ace starts a centre pile, not {card}",
                  key="gammel_jomfru.centre_ace_only", card=card, cards=("card",))
    if card is not None and card[0] == "A" and text != "centre":
        return no(f"{card} is an ace and always goes to the centre (centre)",
                  key="gammel_jomfru.ace_to_centre", card=card, cards=("card",))
    if text == "keep":
        return no(f"{card} fits ({choices}) and must be played",
                  key="gammel_jomfru.must_play", card=card, choices=choices, cards=("card",))
    if text in CENTRE_INDEX:
        i = CENTRE_INDEX[text]
        if i >= len(state.centre):
            return no(f"there is no centre pile {i + 1}",
                      key="gammel_jomfru.no_centre_pile", pile=i + 1)
        top = state.centre[i][-1]
        if CENTRE_NEXT[top] != card:
            return no(f"{card} does not fit centre pile {i + 1}'s {top}",
                      key="gammel_jomfru.centre_no_fit", card=card, pile=i + 1, top=top,
                      cards=("card", "top"))
        return no(f"nearest_first: {card} must go to {choices}",
                  key="gammel_jomfru.nearest_first", card=card, choices=choices,
                  cards=("card",))
    if text in PLAYER_INDEX:
        p = PLAYER_INDEX[text]
        if p >= state.seats:
            return no(f"there is no seat {p} at a table of {state.seats}",
                      key="gammel_jomfru.no_seat", seat=p, seats=state.seats)
        if p == t:
            return no("never onto your own face-up pile (keep it instead)",
                      key="gammel_jomfru.own_pile")
        if not state.up[p]:
            return no(f"seat {p} has no face-up card to play on",
                      key="gammel_jomfru.no_face_up", seat=p)
        top = state.up[p][-1]
        assert card is not None
        if top not in PLAYER_FITS[card]:
            return no(f"{card} does not fit seat {p}'s {top}",
                      key="gammel_jomfru.seat_no_fit", card=card, seat=p, top=top,
                      cards=("card", "top"))
        return no(f"nearest_first: {card} must go to {choices}",
                  key="gammel_jomfru.nearest_first", card=card, choices=choices,
                  cards=("card",))
    return no(
        f"{shown!r} is not an action: use turn, centre, c1-c4, p0-p7 or keep ({choices})",
        key="gammel_jomfru.not_action", text=shown, choices=choices,
    )
