"""Move facts of Gammel Jomfru (games/gammel_jomfru/describe.py): every action names the
card and the place it went, so a log never says just "turns a card"."""

from __future__ import annotations

import random

from spillebord import games

GAME = games.load("gammel_jomfru")


def test_every_action_of_random_games_names_its_card_and_place() -> None:
    rng = random.Random(3)
    kinds: set[str] = set()
    for deal in range(4):
        st = GAME.new(deal=deal, seats=4)
        while st.to_move is not None:
            action = rng.choice(st.legal_actions())
            after = st.apply(action)
            facts = GAME.describe(st, action, after)
            assert facts is not None
            kinds.add(action[0] if action[0] in "cp" and action != "centre" else action)
            if action == "turn":
                assert facts["card"] == after.turned and facts["place"] is None
                assert GAME.describe(st, action)["card"] is None  # not yet known
            else:
                assert facts["card"] == st.turned
            if action == "centre":
                assert facts["pile"] == len(st.centre) + 1 == len(after.centre)
                assert facts["card"][0] == "A"
            elif action[0] == "c":
                assert facts["place"] == "pile" and facts["pile"] == int(action[1:])
                assert after.centre[facts["pile"] - 1][-1] == facts["card"]
            elif action[0] == "p":
                seat = int(action[1:])
                assert (facts["seat"], facts["onto"]) == (seat, st.up[seat][-1])
            elif action == "keep":
                assert facts["place"] == "own"
            assert facts["out"] == (st.to_move in after.out and st.to_move not in st.out)
            st = after
    assert kinds == {"turn", "centre", "c", "p", "keep"}
