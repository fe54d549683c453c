"""Studenterkabalen's fast legal-move generation and successor building (state.py's
``_moves`` on rank tables, ``_with`` instead of ``dataclasses.replace``; issue 32) equal
the rules as the state's own helpers state them — ``sources``, ``foundations_taking``,
``goes_down_on``, ``can_redeal``, ``can_move_left`` — and ``dataclasses.replace``, along
random games of many deals (redeals, the left card, wins and resigning included)."""

from __future__ import annotations

import random
from dataclasses import fields, replace

from spillebord.core.registry import load
from spillebord.games.studenter.rules import FOUNDATION_NAMES, goes_down_on
from spillebord.games.studenter.state import DRAW, LEFT, REDEAL, RESIGN, StudenterState

GAME = load("studenter")


def reference_moves(state: StudenterState) -> list[str]:
    """The legal actions as the rule helpers say, resigning included."""
    if state.resigned or state.is_won:
        return []
    moves: list[str] = []
    row_end = state.row[-1] if state.row else None
    waste_top = state.waste[-1] if state.waste else None
    for place, card in state.sources():
        moves.extend(f"{place}>{FOUNDATION_NAMES[i]}" for i in state.foundations_taking(card))
        if place == "row":
            if waste_top is not None and goes_down_on(card, waste_top):
                moves.append("row>waste")
        elif row_end is not None and goes_down_on(card, row_end):
            moves.append(f"{place}>row")
    if state.stock:
        moves.append(DRAW)
    if state.can_redeal():
        moves.append(REDEAL)
    if state.can_move_left():
        moves.append(LEFT)
    return sorted([*moves, RESIGN]) if moves else []


def same_fields(a: StudenterState, b: StudenterState) -> bool:
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(StudenterState))


def test_random_games_list_the_rules_moves_and_build_the_same_successors() -> None:
    rng = random.Random(32)
    seen: set[str] = set()
    for deal in range(1, 121):
        state = GAME.new(deal=deal)
        for _ in range(400):
            legal = state.legal_actions()
            assert legal == reference_moves(state), GAME.format_position(state)
            assert (state.to_move is None) == (not legal)
            if not legal:
                break
            # rarely resign, so games reach redeals and their ends
            choice = rng.choice([a for a in legal if a != RESIGN] or legal)
            if rng.random() < 0.002:
                choice = RESIGN
            seen.add(choice.split(">")[0] if ">" in choice else choice)
            after = state.apply_legal(choice)
            if rng.random() < 0.05:  # value equality and a text round trip cost ≈ 50 µs
                assert after == state.apply(choice)
                assert GAME.format_position(after) == GAME.format_position(
                    GAME.parse_position(GAME.format_position(after)))
            state = after
        assert state.legal_actions() == reference_moves(state)
    assert {DRAW, REDEAL, "left", "row", "waste", "h1"} <= seen


def test_a_successor_has_every_field_and_no_cached_answers() -> None:
    state = GAME.new(deal=3)
    state.legal_actions()
    after = state.apply(DRAW)
    want = replace(state, stock=state.stock[1:], waste=(*state.waste, state.stock[0]))
    assert same_fields(after, want)
    assert after.legal_actions() == reference_moves(after)
    assert after.deal == state.deal and after.flags is state.flags
