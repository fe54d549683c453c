"""Posthus position text and action notation (rule book, posthus "Position text" and
"Actions").

Position text: an optional first line ``round N`` (N = 1, 2 or 3; 1 when absent), an
optional line ``deal N`` (the deal number whose streams ``redeal/<round>`` shuffle the
later redeals; 0 when absent), then 4 lines of 8 tokens, each a card code or ``--`` for a
gap.  ``format_position`` always writes the ``round`` line and the ``deal`` line unless
the deal is 0: with the round the deal decides every later redeal, so a parsed position
continues exactly like the original.  A resigned game (over, though its grid is not) is
written with a last line ``resigned`` — the one addition to the rule book's text, needed
so that every state round-trips.  Blank lines and extra spaces are tolerated on input.

Actions: ``<card> <place>`` (``8H c2``), ``redeal``, ``resign``.  ``parse_action``
gives the reason an action is refused ("8H does not fit c2: the left neighbour is 9S").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spillebord.core.cards import is_card_code
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.games.posthus import grid as g
from spillebord.games.posthus.state import REDEAL, RESIGN, ROUNDS, PosthusState

if TYPE_CHECKING:
    from spillebord.games.posthus.game import PosthusGame

GAP_TOKEN = "--"


def format_position(state: PosthusState) -> str:
    lines = [f"round {state.round}", *([f"deal {state.deal}"] if state.deal else [])]
    for row in range(g.ROWS):
        cells = state.grid[row * g.COLUMNS : (row + 1) * g.COLUMNS]
        lines.append(" ".join(GAP_TOKEN if c is None else c for c in cells))
    if state.resigned:
        lines.append("resigned")
    return "\n".join(lines) + "\n"


def _parse_round(line: str) -> int:
    words = line.split()
    if len(words) != 2 or words[1] not in ("1", "2", "3"):
        raise NotationError(f"line 1: {line.strip()!r} is not 'round 1', 'round 2' or 'round 3'")
    return int(words[1])


def _parse_deal(lineno: int, line: str) -> int:
    words = line.split()
    if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 19:
        raise NotationError(f"line {lineno}: {line.strip()[:40]!r} is not 'deal N' "
                            "(N a non-negative integer)")
    return int(words[1])


def parse_grid_and_round(text: str) -> tuple[g.Grid, int, int, bool]:
    """The grid, the round, the deal number and the resigned mark of a position text
    (NotationError naming the line, row and column of the first fault)."""
    if not isinstance(text, str):
        raise NotationError("a posthus position is text")
    numbered = [(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]
    if not numbered:
        raise NotationError("empty position: expected 'round N' and 4 rows of 8 places")
    round_ = 1
    if numbered[0][1].split()[0] == "round":
        round_ = _parse_round(numbered[0][1])
        numbered = numbered[1:]
    deal = 0
    if numbered and numbered[0][1].split()[0] == "deal":
        deal = _parse_deal(*numbered[0])
        numbered = numbered[1:]
    resigned = False
    if numbered and numbered[-1][1].strip() == "resigned":
        resigned = True
        numbered = numbered[:-1]
    if len(numbered) != g.ROWS:
        raise NotationError(f"a position has {g.ROWS} rows of places, this one has {len(numbered)}")
    cells: list[str | None] = []
    seen: dict[str, str] = {}
    for row, (lineno, line) in enumerate(numbered):
        tokens = line.split()
        if len(tokens) != g.COLUMNS:
            raise NotationError(
                f"line {lineno} (row {row + 1}) has {len(tokens)} places, not {g.COLUMNS}"
            )
        for col, token in enumerate(tokens):
            where = f"line {lineno}, place {g.place_name(row * g.COLUMNS + col)}"
            if token == GAP_TOKEN:
                cells.append(None)
                continue
            if not is_card_code(token):
                raise NotationError(f"{where}: {token[:12]!r} is not a card or '--'")
            if token not in g.DECK_SET:
                raise NotationError(f"{where}: {token} is not in the posthus deck (7–K)")
            if token in seen:
                raise NotationError(f"{where}: {token} appears twice (also at {seen[token]})")
            seen[token] = g.place_name(row * g.COLUMNS + col)
            cells.append(token)
    gaps = [g.place_name(i) for i, c in enumerate(cells) if c is None]
    if len(gaps) != g.GAPS:
        # Distinct deck cards only get here, so more gaps means missing cards.
        missing = ", ".join(c for c in g.DECK if c not in seen)
        raise NotationError(
            f"the grid has {len(gaps)} gaps ({', '.join(gaps)}), not {g.GAPS}: "
            f"missing {missing}"
        )
    return tuple(cells), round_, deal, resigned


def parse_position(game: PosthusGame, text: str, flags: dict[str, bool]) -> PosthusState:
    grid, round_, deal, resigned = parse_grid_and_round(text)
    return PosthusState(game, grid, round_, deal, flags, resigned)


def parse_action(state: PosthusState, wanted: str) -> str:
    """The legal action written ``wanted`` (normalised by ``Game.parse_action``);
    IllegalActionError with the reason otherwise."""
    words = wanted.split()
    if state.outcome is not None:
        raise IllegalActionError("the game is over", key="core.game_over")
    if wanted == RESIGN:
        return RESIGN
    if wanted == REDEAL:
        if state.redeals_left == 0:
            raise IllegalActionError(f"no redeal left: at most {ROUNDS - 1} redeals per game",
                                     key="posthus.no_redeal", params={"redeals": ROUNDS - 1})
        return REDEAL
    if len(words) != 2:
        raise IllegalActionError(
            f"{wanted[:40]!r} is not an action: write '<card> <place>' (8H c2), "
            "'redeal' or 'resign'", key="posthus.not_action", params={"text": wanted[:40]}
        )
    card, place = words
    if not is_card_code(card):
        raise IllegalActionError(f"{card[:12]!r} is not a card",
                                 key="posthus.not_card", params={"text": card[:12]})
    if card not in g.DECK_SET:
        raise IllegalActionError(f"{card} is not in the posthus deck (7–K)",
                                 key="posthus.not_in_deck", params={"card": card},
                                 cards=["card"])
    target = g.parse_place(place)
    if target is None:
        raise IllegalActionError(f"{place[:12]!r} is not a place: columns a–h, rows 1–4",
                                 key="posthus.not_place", params={"text": place[:12]})
    occupant = state.grid[target]
    if occupant is not None:
        raise IllegalActionError(f"{place} is not a gap: it holds {occupant}",
                                 key="posthus.not_gap",
                                 params={"place": place, "occupant": occupant},
                                 cards=["occupant"], places=["place"])
    if card not in g.accepted_cards(state.grid, target, state.open_gaps):
        raise g.why_not(state.grid, card, target, state.open_gaps)
    return f"{card} {place}"
