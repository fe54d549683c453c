"""Card arithmetic of Gammel Jomfru: rank values, what fits where, the turn limit.

Rule-book rulings covered (README, section gammel_jomfru):

- rule 1: ranks low → high are 2 … 10, J, Q, K, A (``VALUE``: 2 … 14);
- rule 2: an ace always starts a centre pile; a centre pile is built in suit
  A, K, Q, J, 10 … 2 (``CENTRE_NEXT``: the one card that fits on a centre top); a card
  fits another player's face-up top when exactly one rank higher or lower, suit ignored
  (``PLAYER_FITS``: the tops a card fits on — an ace is never among them, since an ace
  always goes to the centre);
- rule 6: the documented turn limit (``default_turn_limit``).

Everything here is a precomputed table over the 52 codes, so the engine's hot path is
dictionary look-ups only.
"""

from __future__ import annotations

from spillebord.core.cards import one_deck

DECK: tuple[str, ...] = tuple(one_deck())
DECK_SET: frozenset[str] = frozenset(DECK)

# Rule 1: 2 is lowest, ace highest.
VALUE: dict[str, int] = {c: (14 if c[0] == "A" else "23456789TJQK".index(c[0]) + 2)
                         for c in DECK}
SUIT: dict[str, str] = {c: c[1] for c in DECK}

_BY_VALUE_SUIT: dict[tuple[int, str], str] = {(VALUE[c], SUIT[c]): c for c in DECK}

# Rule 2: on a centre top, the one card of the same suit one rank lower (A → K … 3 → 2).
CENTRE_NEXT: dict[str, str | None] = {
    c: _BY_VALUE_SUIT.get((VALUE[c] - 1, SUIT[c])) if VALUE[c] > 2 else None for c in DECK
}

# Rule 2: the face-up tops a turned card may be laid on (±1 rank, suit ignored).  Aces
# never go to a player's pile, and no ace ever lies on one.
PLAYER_FITS: dict[str, frozenset[str]] = {
    c: (frozenset() if c[0] == "A"
        else frozenset(t for t in DECK if t[0] != "A" and abs(VALUE[t] - VALUE[c]) == 1))
    for c in DECK
}


def is_ace(card: str) -> bool:
    return card[0] == "A"


def fits_centre(card: str, top: str) -> bool:
    """Rule 2: ``card`` may go onto a centre pile whose top card is ``top``."""
    return CENTRE_NEXT[top] == card


def fits_player(card: str, top: str) -> bool:
    """Rule 2: ``card`` may go onto another player's face-up top ``top``."""
    return top in PLAYER_FITS[card]


# Rule 6 (our documented choice): a game stops after this many completed turns, at every
# table size.  A turn is completed when it passes to the next player (after ``keep``, or
# when the mover goes out).  Measured with random play over 1,500 deals each at 2, 4 and
# 8 seats (docs/rules/gammel_jomfru.md): every game ended by itself, the longest after
# 233 turns (median 88-122), so the limit only stops a game that really cycles.
TURN_LIMIT = 1000


# The most actions a game started by ``new`` can take: a turn is at most 52 card
# placements (the mover's cards only go away during its turn), each after a ``turn``,
# plus the closing ``turn`` and ``keep``; ``TURN_LIMIT`` turns at most.
MAX_ACTIONS = TURN_LIMIT * (2 * len(DECK) + 2)


def default_turn_limit(seats: int) -> int:
    """The turn limit of a new game (the same for 2-8 seats)."""
    del seats
    return TURN_LIMIT
