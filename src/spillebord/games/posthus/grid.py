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


def left_of(grid: Grid, gap: int) -> str | None:
    return grid[gap - 1] if gap % COLUMNS else None


def right_of(grid: Grid, gap: int) -> str | None:
    return grid[gap + 1] if gap % COLUMNS != COLUMNS - 1 else None


def is_open_gap(grid: Grid, gap: int) -> bool:
    """Under ``open_gaps``: the gap has a gap as left or right neighbour."""
    col = gap % COLUMNS
    return (col > 0 and grid[gap - 1] is None) or (
        col < COLUMNS - 1 and grid[gap + 1] is None
    )


def accepted_cards(grid: Grid, gap: int, open_gaps: bool) -> set[str]:
    """Every card the gap ``gap`` accepts on ``grid`` (the grid before any card moves)."""
    left = left_of(grid, gap)
    if left is not None and left[0] == "K":
        return set()
    if open_gaps and is_open_gap(grid, gap):
        return {c for c in grid if c is not None}
    out: set[str] = set()
    if left is not None:
        nxt = successor(left)
        if nxt is not None:
            out.add(nxt)
    right = right_of(grid, gap)
    if right is not None:
        prev = predecessor(right)
        if prev is not None:
            out.add(prev)
    if gap % COLUMNS == 0:
        out.update("7" + s for s in "CDHS")
    return out


def why_not(grid: Grid, card: str, gap: int, open_gaps: bool) -> str:
    """The reason ``card`` does not fit the gap (the caller knows it does not)."""
    name = place_name(gap)
    left = left_of(grid, gap)
    if left is not None and left[0] == "K":
        return (
            f"{card} does not fit {name}: nothing goes right of a King"
            f" (the left neighbour is {left})"
        )
    parts: list[str] = []
    col = gap % COLUMNS
    if col == 0:
        parts.append("column a takes a 7")
    else:
        parts.append(f"the left neighbour is {left if left else 'a gap'}")
    if col < COLUMNS - 1:
        right = right_of(grid, gap)
        parts.append(f"the right neighbour is {right if right else 'a gap'}")
    return f"{card} does not fit {name}: " + " and ".join(parts)


def run_length(grid: Sequence[str | None], row: int) -> int:
    """How many cards of ``row`` form its run (0 … 7)."""
    base = row * COLUMNS
    first = grid[base]
    if first is None or first[0] != "7":
        return 0
    suit = first[1]
    n = 1
    while n < 7:
        card = grid[base + n]
        if card is None or card[1] != suit or card[0] != RUN_RANKS[n]:
            break
        n += 1
    return n


def run_lengths(grid: Sequence[str | None]) -> tuple[int, ...]:
    return tuple(run_length(grid, r) for r in range(ROWS))


def is_won(grid: Grid) -> bool:
    return all(n == 7 for n in run_lengths(grid))


def moves(grid: Grid, open_gaps: bool) -> list[str]:
    """Every card move as action text ``<card> <place>``, unsorted, unique."""
    out: list[str] = []
    for gap, code in enumerate(grid):
        if code is None:
            name = place_name(gap)
            out.extend(f"{card} {name}" for card in accepted_cards(grid, gap, open_gaps))
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
