"""The Studenterkabalen solver, hint and deal picker (the solver module convention of
``spillebord.solvers``).

- ``solve(state, seconds)``: the *thoughtful* verdict — it knows the stock's order, the
  game's upper bound as published winnability tables use it.  ``winnable`` with a line
  of action texts that replays to a win through ``GAME``; ``unwinnable`` only after an
  exhaustive search (``search.py``: exact symmetries and one proven dominance rule);
  ``unknown`` at the time limit.
- ``hint(state, seconds)``: a move chosen from what the player sees (``hint.py``).
- ``pick_winnable_deal(start, seconds)``: the first deal from ``start`` on proven winnable.
"""

from __future__ import annotations

from spillebord.core.errors import NotationError
from spillebord.core.protocol import State
from spillebord.games.studenter import GAME, StudenterState
from spillebord.games.studenter.rules import FOUNDATION_NAMES, HELPER_NAMES, PASSES, relative
from spillebord.solvers import SolveResult
from spillebord.solvers.studenter import search as engine
from spillebord.solvers.studenter.hint import hint
from spillebord.solvers.studenter.search import Move, OutOfTime, Search, iter_line, node_of

__all__ = ["hint", "pick_winnable_deal", "solve", "to_actions"]


def _studenter(state: State) -> StudenterState:
    if not isinstance(state, StudenterState):
        raise NotationError("the studenter solver needs a studenter state")
    return state


def action_text(state: StudenterState, move: Move) -> str:
    """The game's action text for a compact move in ``state``: the first helper holding
    a card of that relative rank, the first foundation that takes the card."""
    src, dst = move
    if src in ("draw", "redeal"):
        return str(src)
    if src == "left":
        return "left>row"
    if isinstance(src, int):
        source = next(HELPER_NAMES[i] for i, c in enumerate(state.helpers)
                      if c is not None and relative(c, state.base) == src)
        card = state.helpers[HELPER_NAMES.index(source)]
    else:
        source = str(src)
        card = state.row[-1] if src == "row" else state.waste[-1]
    assert card is not None
    if dst == "f":
        return f"{source}>{FOUNDATION_NAMES[state.foundations_taking(card)[0]]}"
    return f"{source}>{dst}"


def to_actions(state: StudenterState, line: list[Move]) -> list[str]:
    """Replay a compact line through the game (each action checked by ``apply``), giving
    the action texts; a line that does not end in a win is a solver bug and raises."""
    out: list[str] = []
    for move in line:
        text = action_text(state, move)
        nxt = state.apply(text)
        assert isinstance(nxt, StudenterState)
        state = nxt
        out.append(text)
    if not state.is_won:
        raise RuntimeError("internal error: the solver's line does not win")
    return out


def solve(state: State, seconds: float = 10.0, node_limit: int | None = None,
          best_bonus: bool = False) -> SolveResult:
    """The thoughtful verdict within ``seconds``.  ``best_bonus``: first look for a win
    without any further turn-over, then with at most one more, and so on (a share of
    the time each); ``extra["bonus_proven_best"]`` says whether every higher bonus was
    proven out of reach."""
    st = _studenter(state)
    start = engine.CLOCK()
    if st.is_won:
        return SolveResult("winnable", (), 0, 0.0, {"bonus": PASSES + 1 - st.pass_no})
    if st.to_move is None:
        return SolveResult("unwinnable", (), 0, 0.0)
    root = node_of(st)
    nodes = 0
    proven_best = True
    first = st.pass_no if best_bonus else PASSES
    for last in range(first, PASSES + 1):
        left = seconds - (engine.CLOCK() - start)
        share = left if last == PASSES else left / (PASSES + 2 - last)
        search = Search(share, None if node_limit is None else node_limit - nodes, last)
        try:
            won = search.solve(root)
        except OutOfTime:
            nodes += search.nodes
            proven_best = False
            continue
        nodes += search.nodes
        if won:
            line = to_actions(st, list(iter_line(search.line)))
            bonus = PASSES + 1 - st.pass_no - line.count("redeal")
            return SolveResult("winnable", tuple(line), nodes, engine.CLOCK() - start,
                               {"bonus": bonus, "iterations": search.iterations,
                                "bonus_proven_best": proven_best and best_bonus})
        if last == PASSES:
            return SolveResult("unwinnable", (), nodes, engine.CLOCK() - start,
                               {"iterations": search.iterations})
    return SolveResult("unknown", (), nodes, engine.CLOCK() - start)


def pick_winnable_deal(start: int, seconds: float = 2.0, tries: int = 1000,
                       **flags: bool) -> int:
    """The first deal ``start``, ``start + 1``, … that the solver proves winnable within
    ``seconds`` each (NotationError if none of ``tries`` deals is)."""
    GAME.check_deal(start)
    for deal in range(start, start + tries):
        if solve(GAME.new(deal=deal, **flags), seconds).verdict == "winnable":
            return deal
    raise NotationError(f"no winnable deal found among {start} … {start + tries - 1}")
