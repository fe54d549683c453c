"""One test per ruling of the rule book's gammel_jomfru section, built from positions in
the rule book's JSON (helpers.position)."""

from __future__ import annotations

import pytest

from spillebord.core.cards import one_deck
from spillebord.core.errors import IllegalActionError
from spillebord.core.rng import shuffled
from spillebord.games.gammel_jomfru import GAME, deal_piles
from spillebord.games.gammel_jomfru.rules import TURN_LIMIT

from .helpers import play, position


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7, 8])
def test_rule1_deal_one_at_a_time_uneven_piles_ok(seats: int) -> None:
    state = GAME.new(deal=7, seats=seats)
    cards = shuffled(one_deck(), "gammel_jomfru", seats, 7)
    sizes = [len(p) for p in state.down]
    assert sum(sizes) == 52 and max(sizes) - min(sizes) <= 1
    assert sizes == [len(range(s, 52, seats)) for s in range(seats)]  # seat 0 first
    for s in range(seats):
        # card i goes to seat i mod seats; the first dealt lies at the bottom
        assert state.down[s] == tuple(reversed(cards[s::seats]))
    assert deal_piles(seats, 7) == state.down
    assert sorted(c for p in state.down for c in p) == sorted(one_deck())
    assert state.to_move == 0 and state.legal_actions() == ["turn"]
    assert state.up == ((),) * seats and state.centre == () and state.turned is None


def test_rule1_ranks_two_low_ace_high() -> None:
    # J is between T and Q; 2 is the lowest: nothing is laid below it
    state = position(turn=0, up={1: ["QD"], 2: ["3C"]}, turned="JS")
    assert state.legal_actions() == ["p1"]
    state = position(turn=0, up={1: ["TD"], 2: ["3C"]}, turned="2S")
    assert state.legal_actions() == ["p2"]
    state = position(turn=0, up={1: ["KD"]}, turned="2S")
    assert state.legal_actions() == ["keep"]  # no wrap from 2 to the king/ace


def test_rule2_ace_always_starts_centre_pile() -> None:
    state = position(turn=0, down={0: ["2D"]}, up={1: ["KD"]}, centre=[["AC"]], turned="AS")
    assert state.legal_actions() == ["centre"]
    with pytest.raises(IllegalActionError, match="always goes to the centre"):
        state.apply("p1")
    after = play(state, "centre")
    assert after.centre == (("AC",), ("AS",))
    assert after.to_move == 0 and after.turned is None


def test_rule2_centre_pile_built_in_suit_A_K_Q_down_to_2() -> None:
    state = position(turn=0, centre=[["AS"], ["AH", "KH"]], turned="KS")
    assert state.legal_actions() == ["c1"]
    assert play(state, "c1").centre[0] == ("AS", "KS")
    state = position(turn=0, centre=[["AS"], ["AH", "KH"]], turned="QH")
    assert state.legal_actions() == ["c2"]
    state = position(turn=0, centre=[["AS"]], turned="QS")  # not K: no fit
    assert state.legal_actions() == ["keep"]
    with pytest.raises(IllegalActionError, match="QS does not fit centre pile 1's AS"):
        state.apply("c1")
    state = position(turn=0, centre=[["AD"]], turned="KH")  # suit must follow
    assert state.legal_actions() == ["keep"]
    full = ["AC", *[r + "C" for r in "KQJT98765432"]]
    state = position(turn=0, centre=[full[:-1]], turned="2C")
    assert play(state, "c1").centre[0] == tuple(full)


def test_rule2_plus_minus_one_onto_other_players_top_suit_ignored() -> None:
    for card in ("8C", "TC", "TH", "8S"):
        state = position(turn=0, up={2: ["9H"]}, turned=card)
        assert state.legal_actions() == ["p2"], card
        assert play(state, "p2").up[2] == ("9H", card)
    state = position(turn=0, up={2: ["9H"]}, turned="5C")
    with pytest.raises(IllegalActionError, match=r"^5C does not fit seat 2's 9H$"):
        state.apply("p2")
    # only the top card counts
    state = position(turn=0, up={2: ["6D", "9H"]}, turned="5C")
    assert state.legal_actions() == ["keep"]


def test_rule2_never_onto_own_pile() -> None:
    state = position(turn=1, up={1: ["9H"]}, turned="8C")
    assert state.legal_actions() == ["keep"]
    with pytest.raises(IllegalActionError, match="never onto your own"):
        state.apply("p1")
    after = play(state, "keep")
    assert after.up[1] == ("9H", "8C") and after.to_move == 2


def test_rule3_must_play_when_fits() -> None:
    state = position(turn=0, up={1: ["9H"]}, turned="8C")
    with pytest.raises(IllegalActionError, match=r"fits .*p1.* must be played"):
        state.apply("keep")
    assert "keep" not in state.legal_actions()


def test_rule3_player_chooses_among_several() -> None:
    state = position(seats=4, turn=0, up={1: ["QH"], 3: ["QD"]}, centre=[["AS"]],
                     turned="KS")
    assert state.legal_actions() == ["c1", "p1", "p3"]
    assert play(state, "c1").centre[0] == ("AS", "KS")
    assert play(state, "p1").up[1] == ("QH", "KS")
    assert play(state, "p3").up[3] == ("QD", "KS")


def test_rule3_nearest_first_flag() -> None:
    kwargs = {"seats": 4, "up": {1: ["QH"], 3: ["QD"]}, "centre": [["AS"]], "turned": "KS"}
    assert position(turn=0, nearest_first=True, **kwargs).legal_actions() == ["c1"]
    no_centre = {**kwargs, "centre": []}
    assert position(turn=0, nearest_first=True, **no_centre).legal_actions() == ["p1"]
    assert position(turn=2, nearest_first=True, **no_centre).legal_actions() == ["p3"]
    state = position(turn=2, nearest_first=True, **no_centre)
    with pytest.raises(IllegalActionError, match="nearest_first: KS must go to p3"):
        state.apply("p1")
    # without the flag the player chooses
    assert position(turn=2, **no_centre).legal_actions() == ["p1", "p3"]
    assert GAME.new(deal=1, nearest_first=True).flags == {"nearest_first": True}


def test_rule3_continue_after_successful_play() -> None:
    state = position(turn=0, down={0: ["8C", "2D"]}, up={1: ["9H"]})
    state = play(state, "turn")
    assert state.turned == "8C" and state.legal_actions() == ["p1"]
    state = play(state, "p1")
    assert state.to_move == 0 and state.turned is None and state.turns == 0
    state = play(state, "turn")
    assert state.turned == "2D" and state.legal_actions() == ["keep"]
    state = play(state, "keep")
    assert state.to_move == 1 and state.turns == 1 and state.up[0] == ("2D",)


def test_rule4_face_up_turned_over_unshuffled() -> None:
    state = position(turn=0, up={0: ["5C", "9D", "KH"], 1: ["2S"]})
    assert state.down[0] == ()
    state = play(state, "turn")
    assert state.turned == "5C"  # the first card laid face up is the first turned
    assert state.down[0] == ("9D", "KH") and state.up[0] == ()
    assert state.recycled[0] and not state.recycled[1]
    assert state.view(1)["recycled"] == [0]
    state = play(state, "keep")
    assert state.up[0] == ("5C",) and state.down[0] == ("9D", "KH")
    # until its owner must turn, an emptied face-down pile leaves the face-up pile out:
    # the owner is not out and others may play on it
    state = position(turn=0, down={0: ["8C", "2D"]}, up={1: ["9H"]}, filler=2)
    assert state.down[1] == () and 1 not in state.out
    assert play(state, "turn").legal_actions() == ["p1"]


def test_rule5_out_at_once_and_skipped() -> None:
    state = position(seats=4, turn=0, up={1: ["5H"], 2: ["9H"], 3: ["7S"]}, turned="8C",
                     filler=1)
    state = play(state, "p2")
    assert state.out == (0,) and state.to_move == 1 and state.turns == 1
    assert state.outcome is None
    # seat 3 keeps: seat 0 is skipped, seat 1 moves next
    state = position(seats=4, turn=3, down={3: ["2D"], 2: ["9S"]}, up={1: ["5H"]},
                     out=[0], filler=1)
    state = play(state, "turn", "keep")
    assert state.to_move == 1
    # an out seat has no pile to play on
    assert all(a != "p0" for a in play(state, "turn").legal_actions())


def test_rule5_last_holder_is_gammel_jomfru_ranking_by_order_out() -> None:
    state = position(seats=4, turn=0, up={1: ["5H"]}, turned="4C", out=[3, 2], filler=1)
    assert state.legal_actions() == ["p1"]
    state = play(state, "p1")
    assert state.to_move is None and state.legal_actions() == []
    outcome = state.outcome
    assert outcome is not None
    assert outcome.losers == (1,) and outcome.reason == "out"
    assert outcome.ranking == ((3,), (2,), (0,), (1,))
    assert outcome.winners == (0, 2, 3)
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("turn")


def test_rule6_turn_limit_most_cards_loses_ties_later_in_turn_order() -> None:
    clubs = ["AC", *[r + "C" for r in "KQJT98765432"]]
    others = [c for c in one_deck() if c[1] != "C" and c != "2D"]  # 38 cards

    def last_turn(split: int) -> tuple[tuple[int, ...], ...]:
        # seat 0 turns and keeps the 2D, completing the 10th and last turn
        state = position(seats=3, turn=0, down={0: ["2D"], 1: others[:split],
                                                2: others[split:]},
                         centre=[clubs], turns=9, limit=10, filler=1)
        assert state.legal_actions() == ["turn"]
        state = play(state, "turn", "keep")
        assert state.to_move is None and state.legal_actions() == []
        outcome = state.outcome
        assert outcome is not None and outcome.reason == "turn_limit"
        assert outcome.extra["cards"] == [1, split, 38 - split]
        assert outcome.winners == tuple(s for s in range(3) if s not in outcome.losers)
        return (outcome.losers, *outcome.ranking)

    assert last_turn(20) == ((1,), (0,), (2,), (1,))  # 20 > 18: seat 1 loses
    assert last_turn(17) == ((2,), (0,), (1,), (2,))  # 21 > 17: seat 2 loses
    assert last_turn(19) == ((2,), (0,), (1,), (2,))  # 19 = 19: the later seat loses
    assert GAME.new(deal=3, seats=5).limit == TURN_LIMIT


def test_keep_legal_only_when_nothing_else() -> None:
    state = position(turn=0, up={1: ["9H"], 2: ["4S"]}, turned="6C")
    assert state.legal_actions() == ["keep"]
    state = position(turn=0, up={1: ["9H"], 2: ["5S"]}, turned="6C")
    assert state.legal_actions() == ["p2"]
    state = position(turn=0, up={1: ["9H"]})
    assert state.legal_actions() == ["turn"]
    with pytest.raises(IllegalActionError, match="turn a card first"):
        state.apply("keep")
