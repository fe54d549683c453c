"""The posthus grid: places, neighbours, the gap rules and runs.

A grid is a tuple of 32 places, row by row (rows 1–4 top to bottom, columns a–h left
to right); each place holds a card code or ``None`` for a gap.  Place ``c2`` is column c
of row 2.

Rule-book rulings covered here (posthus, rules 2 and 3):

- a gap accepts a card when **either** neighbour allows it: the left neighbour is the
  same suit one rank lower, **or** the right neighbour is the same suit one rank higher,
  **or** the gap is in column a and the card is a 7;
- a gap right of a King accepts nothing, even where the right neighbour would allow it;
- an empty neighbour allows nothing by itself;
- flag ``open_gaps``: a gap next to another gap accepts any card (still never right of
  a King);
- every gap rule is judged on the grid as it is before the card leaves its place (the
  card's own place still counts as a card, never as a gap);
- a run is an unbroken same-suit sequence 7, 8, 9 … from column a of a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spillebord.core.cards import stripped_deck

ROWS = 4
COLUMNS = 8
PLACES = ROWS * COLUMNS
GAPS = 4
RUN_RANKS = "789TJQK"
COLUMN_NAMES = "abcdefgh"
DECK: tuple[str, ...] = tuple(stripped_deck())
DECK_SET = frozenset(DECK)
DECK_ORDER = {code: i for i, code in enumerate(DECK)}

Grid = tuple[str | None, ...]


def place_name(index: int) -> str:
    """``0`` → ``a1``, ``10`` → ``c2``."""
    return f"{COLUMN_NAMES[index % COLUMNS]}{index // COLUMNS + 1}"


def parse_place(text: str) -> int | None:
    """The index of a place such as ``c2``, or None when ``text`` is no place."""
    if len(text) != 2 or text[0] not in COLUMN_NAMES or text[1] not in "1234":
        return None
    return (int(text[1]) - 1) * COLUMNS + COLUMN_NAMES.index(text[0])


def run_rank(code: str) -> int:
    """0 for a 7 … 6 for a King."""
    return RUN_RANKS.index(code[0])


def successor(code: str) -> str | None:
    """The same suit one rank higher (None after the King)."""
    r = run_rank(code)
    return None if r == 6 else RUN_RANKS[r + 1] + code[1]


def predecessor(code: str) -> str | None:
    """The same suit one rank lower (None before the 7)."""
    r = run_rank(code)
    return None if r == 0 else RUN_RANKS[r - 1] + code[1]


PLACE_NAMES: tuple[str, ...] = tuple(place_name(i) for i in range(PLACES))
PLACE_INDEX = {name: i for i, name in enumerate(PLACE_NAMES)}
_SUFFIX = tuple(" " + name for name in PLACE_NAMES)
SEVENS = ("7C", "7D", "7H", "7S")
_SUCCESSOR = {code: successor(code) for code in DECK}
_PREDECESSOR = {code: predecessor(code) for code in DECK}
_RUN_OF_SUIT = {suit: tuple(rank + suit for rank in RUN_RANKS) for suit in "CDHS"}


def left_of(grid: Grid, gap: int) -> str | None:
    return grid[gap - 1] if gap % COLUMNS else None


def right_of(grid: Grid, gap: int) -> str | None:
    return grid[gap + 1] if gap % COLUMNS != COLUMNS - 1 else None


def accepted_cards(grid: Grid, gap: int, open_gaps: bool) -> set[str]:
    """Every card the gap ``gap`` accepts on ``grid`` (the grid before any card moves)."""
    return set(_accepted(grid, gap, open_gaps))


def _accepted(grid: Grid, gap: int, open_gaps: bool) -> Sequence[str]:
    """``accepted_cards`` as a sequence without repeats (the move generator's hot path:
    lookup tables instead of rank arithmetic)."""
    col = gap & 7  # gap % COLUMNS
    left = grid[gap - 1] if col else None
    if left is not None and left[0] == "K":
        return ()
    right = grid[gap + 1] if col != 7 else None
    if open_gaps and ((col and left is None) or (col != 7 and right is None)):
        return [c for c in grid if c is not None]
    nxt = _SUCCESSOR[left] if left is not None else None
    prev = _PREDECESSOR[right] if right is not None else None
    if col == 0:
        if prev is None or prev[0] == "7":  # the right neighbour's 7 is one of the four
            return SEVENS
        return (*SEVENS, prev)
    if nxt is None:
        return () if prev is None else (prev,)
    if prev is None or prev == nxt:
        return (nxt,)
    return (nxt, prev)


def why_not(grid: Grid, card: str, gap: int, open_gaps: bool) -> ValueError:
    """The IllegalActionError (a ValueError) saying why ``card`` does not fit the gap
    (the caller knows it does not): the English reason, a message key naming the
    neighbours and the cards as params (see spillebord.core.errors)."""
    from spillebord.core.errors import IllegalActionError  # only refusals need it

    name = place_name(gap)
    left = left_of(grid, gap)
    if left is not None and left[0] == "K":
        return IllegalActionError(
            f"{card} does not fit {name}: nothing goes right of a King"
            f" (the left neighbour is {left})",
            key="posthus.right_of_king", params={"card": card, "place": name, "left": left},
            cards=("card", "left"), places=("place",))
    col = gap % COLUMNS
    right = right_of(grid, gap) if col < COLUMNS - 1 else None
    parts = ["column a takes a 7" if col == 0
             else f"the left neighbour is {left if left else 'a gap'}"]
    if col < COLUMNS - 1:
        parts.append(f"the right neighbour is {right if right else 'a gap'}")
    # The key names both sides, left_right: "a7" (column a takes a 7), "card" (a card,
    # given as a param), "gap", "end" (no right neighbour in column h).
    sides = ("a7" if col == 0 else "card" if left else "gap",
             "end" if col == COLUMNS - 1 else "card" if right else "gap")
    key = {
        ("a7", "card"): "posthus.no_fit.a7_card", ("a7", "gap"): "posthus.no_fit.a7_gap",
        ("card", "card"): "posthus.no_fit.card_card", ("card", "gap"): "posthus.no_fit.card_gap",
        ("gap", "card"): "posthus.no_fit.gap_card", ("gap", "gap"): "posthus.no_fit.gap_gap",
        ("card", "end"): "posthus.no_fit.card_end", ("gap", "end"): "posthus.no_fit.gap_end",
    }[sides]
    params = {"card": card, "place": name}
    if sides[0] == "card" and left:
        params["left"] = left
    if sides[1] == "card" and right:
        params["right"] = right
    return IllegalActionError(f"{card} does not fit {name}: " + " and ".join(parts),
                              key=key, params=params,
                              cards=[k for k in ("card", "left", "right") if k in params],
                              places=("place",))


def run_length(grid: Sequence[str | None], row: int) -> int:
    """How many cards of ``row`` form its run (0 … 7)."""
    base = row * COLUMNS
    first = grid[base]
    if first is None or first[0] != "7":
        return 0
    run = _RUN_OF_SUIT[first[1]]
    n = 1
    while n < 7 and grid[base + n] == run[n]:
        n += 1
    return n


def run_lengths(grid: Sequence[str | None]) -> tuple[int, ...]:
    return (run_length(grid, 0), run_length(grid, 1), run_length(grid, 2),
            run_length(grid, 3))


def moves(grid: Grid, open_gaps: bool) -> list[str]:
    """Every card move as action text ``<card> <place>``, unsorted, unique."""
    out: list[str] = []
    gap = -1
    try:
        while True:
            gap = grid.index(None, gap + 1)
            suffix = _SUFFIX[gap]
            out.extend([card + suffix for card in _accepted(grid, gap, open_gaps)])
    except ValueError:  # no further gap
        return out


def redeal_grid(grid: Grid, shuffled_cards: Iterable[str]) -> Grid:
    """Runs stay; the shuffled cards fill every other place row by row, left to right,
    leaving one gap right after each row's run (column a without a run, column h after
    a complete run)."""
    runs = run_lengths(grid)
    cards = iter(shuffled_cards)
    out: list[str | None] = []
    for row, n in enumerate(runs):
        base = row * COLUMNS
        out.extend(grid[base : base + n])
        out.append(None)
        out.extend(next(cards) for _ in range(COLUMNS - n - 1))
    return tuple(out)


def gathered_cards(grid: Grid) -> list[str]:
    """The cards a redeal gathers (every card not in a run), in deck order C D H S, 7–K:
    the order the redeal shuffle starts from, whatever the grid looked like."""
    runs = run_lengths(grid)
    keep = {
        grid[row * COLUMNS + i] for row, n in enumerate(runs) for i in range(n)
    }
    return sorted((c for c in grid if c is not None and c not in keep), key=DECK_ORDER.__getitem__)
