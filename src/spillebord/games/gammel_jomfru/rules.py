"""Card arithmetic of Gammel Jomfru: rank values, what fits where, the turn limit.

Rule-book rulings covered (/work/shared/rules/README.md, section gammel_jomfru; our
page docs/rules/gammel_jomfru.md):

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

from collections.abc import Callable, Collection, Sequence

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


def next_holder(seat: int, seats: int, out: Collection[int]) -> int:
    """Rule 5: the next seat after ``seat`` (in playing order) that is not out."""
    for k in range(1, seats + 1):
        s = (seat + k) % seats
        if s not in out:
            return s
    return seat  # pragma: no cover - some seat always holds cards


def ranking(seats: int, out: Sequence[int], held: Callable[[int], int]) -> list[int]:
    """Rules 5 and 6: the seats out, in the order they went out, then the others by the
    cards they hold (``held``), fewest first, ties to the earlier seat — so the gammel
    jomfru (the one left, or the one holding the most at the turn limit, ties: the later
    seat) is last."""
    holders = sorted((s for s in range(seats) if s not in out), key=lambda s: (held(s), s))
    return [*out, *holders]


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
