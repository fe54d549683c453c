"""The engine against the golden legal-action lists recorded before the rules kernel
(golden_legal.py): the same sorted action texts, the same other-order split 7 texts
accepted, and the same board after every action, on thousands of positions at 4, 6 and
8 seats under every flag setting."""

from __future__ import annotations

import pytest

from spillebord.games.kugler import GAME

from .golden_legal import board_text, digest, flags_of, load, position_json

RECORDS = load()


def test_the_golden_data_covers_every_seat_count_and_flag_setting() -> None:
    kinds = {(r["s"], r["f"]) for r in RECORDS}
    assert kinds == {(n, f) for n in (4, 6, 8) for f in ("", "o", "s", "f", "osf")}
    assert len(RECORDS) > 4000
    assert sum(bool(r["a"]) for r in RECORDS) > 1000


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_legal_actions_aliases_and_results_equal_the_golden_data(seats: int) -> None:
    for r in RECORDS:
        if r["s"] != seats:
            continue
        state = GAME.parse_position(position_json(r["s"], r["t"], r["b"], r["h"]),
                                    **flags_of(r["f"]))
        assert board_text(state.board) == r["b"]
        moves = state.legal_actions()
        where = position_json(r["s"], r["t"], r["b"], r["h"]) + " flags " + r["f"]
        assert [str(m) for m in moves] == r["l"], where
        for alias, listed in r["a"].items():
            found = state.lookup(alias)
            assert found is not None and str(found) == listed, (where, alias)
        results = [board_text(state._apply(m).board) for m in moves]
        assert digest(results) == r["r"], where
