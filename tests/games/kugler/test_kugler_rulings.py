"""One test per ruling of the rule book's kugler section (named after it), built from
positions in the rule book's JSON.  4 seats unless said: track t0 … t71, start fields
t0/t18/t36/t54, home entries t67/t13/t31/t49, partners 0–2 and 1–3."""

from __future__ import annotations

import pytest

from spillebord.core.errors import IllegalActionError
from spillebord.core.rng import shuffled
from spillebord.games.kugler import GAME
from spillebord.games.kugler.board import geometry

from .helpers import legal, marbles, position

FILLER = ["2C", "3C", "4C", "6C"]


# -- ruling 1: cards, hands, reshuffle ---------------------------------------------------


def test_r1_deal_five_each_play_one_draw_one() -> None:
    state = GAME.new(deal=7, seats=6)
    assert [len(h) for h in state.hands] == [5] * 6
    assert len(state.draw) == 134 - 30 and state.to_move == 0
    move = state.legal_actions()[0]
    after = state.apply(move)
    assert len(after.hands[0]) == 5 and len(after.draw) == 134 - 31
    assert after.discard == (move.card,) and after.to_move == 1


def test_r1_reshuffle_keeps_the_last_played_card() -> None:
    start = GAME.new(deal=3, seats=4)
    # the same deal with every undealt card already played: the draw pile is empty
    data = {"seats": 4, "turn": 0, "marbles": {str(s): [f"s{s}"] * 5 for s in range(4)},
            "hands": {str(s): list(start.hands[s]) for s in range(4)},
            "draw": [], "discard": list(start.draw), "deal": 3}
    import json

    state = GAME.parse_position(json.dumps(data))
    move = state.legal_actions()[0]
    after = state.apply(move)
    assert after.discard == (move.card,)
    assert after.reshuffles == 1
    expected = shuffled(sorted(start.draw), "kugler", 4, 3, "reshuffle/1")
    assert after.draw == tuple(expected[1:])
    assert expected[0] in after.hands[0]


# -- ruling 2: geometry ------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "starts", "entries"), [
    (4, (0, 18, 36, 54), (67, 13, 31, 49)),
    (6, (0, 18, 36, 54, 72, 90), (103, 13, 31, 49, 67, 85)),
    (8, (0, 18, 36, 54, 72, 90, 108, 126), (139, 13, 31, 49, 67, 85, 103, 121)),
])
def test_r2_board_geometry(seats: int, starts: tuple[int, ...],
                           entries: tuple[int, ...]) -> None:
    geo = geometry(seats)
    assert geo.track == 18 * seats and geo.start == starts and geo.entry == entries
    assert geo.partner[0] == seats // 2 and geo.names[geo.home_base[1] + 4] == "h1.5"


def test_r2_start_fields_give_no_protection() -> None:
    hit = position({0: ["t0"], 1: ["t62"]}, ["TH", *FILLER], turn=1).apply("TH t62-t0")
    assert marbles(hit, 0) == ["s0"] * 5 and "t0" in marbles(hit, 1)


# -- ruling 3: the cards -----------------------------------------------------------------


def test_r3_ace_brings_a_marble_out_or_moves_one() -> None:
    state = position({0: ["t5"]}, ["AS", "2C", "3C", "4C", "5C"])
    assert {"AS s0-t0", "AS t5-t6"} <= set(legal(state))


def test_r3_jack_queen_king_bring_out_or_move_ten() -> None:
    state = position({0: ["t5"]}, ["JS", "QH", "KD", "2C", "3C"])
    for card in ("JS", "QH", "KD"):
        assert f"{card} s0-t0" in legal(state) and f"{card} t5-t15" in legal(state)


def test_r3_number_cards_move_forward_only_from_the_track() -> None:
    state = position({0: ["t5"]}, ["9H", "TH", "2C", "3C", "4C"])
    assert "9H t5-t14" in legal(state) and "TH t5-t15" in legal(state)
    assert not any(a.startswith("9H s0") for a in legal(state))


def test_r3_split_seven_second_part_only_legal_after_first() -> None:
    state = position({0: ["t10", "t12"]}, ["7C", *FILLER])
    assert "7C t12-t15 t10-t14" in legal(state)
    assert "7C t10-t14 t12-t15" not in legal(state)
    with pytest.raises(IllegalActionError, match="jump your own marble on t12"):
        state.apply("7C t10-t14 t12-t15")


def test_r3_split_seven_same_board_by_both_orders_is_one_action() -> None:
    state = position({0: ["t10", "t30"]}, ["7C", "7H", *FILLER[:3]])
    texts = legal(state)
    assert "7C t10-t13 t30-t34" in texts and "7C t30-t34 t10-t13" not in texts
    assert state.apply("7C t30-t34 t10-t13").position() == \
        state.apply("7C t10-t13 t30-t34").position()
    # two different sevens: one action each
    assert "7H t10-t13 t30-t34" in texts
    splits = [t for t in texts if t.startswith("7C") and t.count("-") == 2]
    assert len(splits) == 6  # 12 ordered splits, 6 distinct boards


def test_r3_split_seven_takes_no_part_from_the_start_area() -> None:
    state = position({0: ["t10"]}, ["7C", *FILLER])
    assert [t for t in legal(state) if t.startswith("7C")] == ["7C t10-t17"]
    with pytest.raises(IllegalActionError, match="start area"):
        state.apply("7C s0-t0 t10-t16")


def test_r3_split_seven_moves_two_different_marbles() -> None:
    state = position({0: ["t10", "t40"]}, ["7C", *FILLER])
    with pytest.raises(IllegalActionError, match="two different marbles"):
        state.apply("7C t10-t13 t13-t17")


def test_r3_eight_backward_past_own_start_then_home() -> None:
    state = position({0: ["t2"]}, ["8D", *FILLER])
    after = state.apply("8D t2-t66")
    assert "t66" in marbles(after, 0)
    near = position({0: ["t66"]}, ["5H", *FILLER])
    assert "5H t66-h0.4" in legal(near) and "5H t66-t71" not in legal(near)
    assert marbles(near.apply("5H t66-h0.4"), 0)[-1] == "h0.4"


def test_r3_eight_never_into_or_inside_home() -> None:
    state = position({0: ["h0.2"]}, ["8D", *FILLER])
    assert not any(t.startswith("8D ") for t in legal(state))
    assert "discard 8D" in legal(state)
    with pytest.raises(IllegalActionError, match="never moves a marble into or inside"):
        state.apply("8D h0.2-t62")


def test_r3_eight_backward_cannot_jump_own_marble() -> None:
    state = position({0: ["t20", "t15"]}, ["8D", *FILLER])
    assert "8D t15-t7" in legal(state) and "8D t20-t12" not in legal(state)
    with pytest.raises(IllegalActionError, match="jump your own marble on t15"):
        state.apply("8D t20-t12")


def test_r3_joker_jumps_onto_another_players_marble() -> None:
    state = position({0: ["t5"], 1: ["t40", "h1.5"], 3: ["s3"]}, ["JK", *FILLER])
    texts = [t for t in legal(state) if t.startswith("JK")]
    assert texts == ["JK s0-t40", "JK t5-t40"]
    after = state.apply("JK t5-t40")
    assert marbles(after, 1) == ["s1"] * 4 + ["h1.5"] and "t40" in marbles(after, 0)


def test_r3_joker_not_onto_start_area_home_or_own_marble() -> None:
    state = position({0: ["t5", "t9"], 1: ["h1.5"]}, ["JK", *FILLER])
    assert not any(t.startswith("JK") for t in legal(state))
    for text, reason in [("JK t5-t9", "own marble"), ("JK t5-h1.5", "on the track"),
                         ("JK t5-s1", "start area")]:
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(text)


# -- ruling 4: one marble a field, no jumping own marbles --------------------------------


def test_r4_other_players_marbles_may_be_jumped() -> None:
    state = position({0: ["t10"], 1: ["t12"], 2: ["t13"]}, ["5H", *FILLER])
    after = state.apply("5H t10-t15")
    assert "t12" in marbles(after, 1) and "t13" in marbles(after, 2)


def test_r4_no_jumping_own_marbles_on_the_track() -> None:
    state = position({0: ["t10", "t14"]}, ["5H", *FILLER])
    assert "5H t10-t15" not in legal(state)
    with pytest.raises(IllegalActionError, match="you cannot jump your own marble on t14"):
        state.apply("5H t10-t15")


def test_r4_no_jumping_own_marbles_in_home() -> None:
    state = position({0: ["h0.1", "h0.3"]}, ["3H", "2H", "AC", "4C", "6C"])
    assert "3H h0.1-h0.4" not in legal(state) and "AC h0.3-h0.4" in legal(state)
    with pytest.raises(IllegalActionError, match=r"jump your own marble on h0\.3"):
        state.apply("3H h0.1-h0.4")
    with pytest.raises(IllegalActionError, match="taken by your own marble"):
        state.apply("2H h0.1-h0.3")


def test_r4_landing_on_own_marble_is_illegal() -> None:
    state = position({0: ["t10", "t15"]}, ["5H", *FILLER])
    with pytest.raises(IllegalActionError, match="t15 is taken by your own marble"):
        state.apply("5H t10-t15")


# -- ruling 5: home ----------------------------------------------------------------------


def test_r5_overshooting_home_is_illegal() -> None:
    state = position({0: ["t66"]}, ["TH", "9H", "6C", "2C", "3C"])
    assert "6C t66-h0.5" in legal(state)
    assert not any(t.startswith(("TH t66", "9H t66")) for t in legal(state))
    with pytest.raises(IllegalActionError, match="overshooting home"):
        state.apply("TH t66-h0.5")


def test_r5_home_field_must_be_free_and_exact() -> None:
    state = position({0: ["t66", "h0.4"]}, ["5H", "6C", "2C", "3C", "4C"])
    texts = legal(state)
    assert "5H t66-h0.4" not in texts and "6C t66-h0.5" not in texts  # jump h0.4
    assert "4C t66-h0.3" in texts


def test_r5_landing_exactly_on_home_entry_stays_on_track_then_enters() -> None:
    state = position({0: ["t62"]}, ["5H", *FILLER])
    after = state.apply("5H t62-t67")
    assert "t67" in marbles(after, 0)
    on_entry = position({0: ["t67"]}, ["2C", "3C", "4C", "6C", "5H"])
    assert "2C t67-h0.2" in legal(on_entry) and "2C t67-t69" not in legal(on_entry)
    with pytest.raises(IllegalActionError, match="must enter its home"):
        on_entry.apply("2C t67-t69")


def test_r5_optional_home_entry_flag() -> None:
    off = position({0: ["t66"]}, ["5H", *FILLER])
    on = position({0: ["t66"]}, ["5H", *FILLER], optional_home_entry=True)
    assert "5H t66-t71" not in legal(off)
    assert {"5H t66-h0.4", "5H t66-t71"} <= set(legal(on))


def test_r5_home_moves_only_forward() -> None:
    state = position({0: ["h0.2"]}, ["2C", "3C", "4C", "5C", "6C"])
    assert [t for t in legal(state) if not t.startswith("discard")] == ["2C h0.2-h0.4",
                                                                        "3C h0.2-h0.5"]


# -- ruling 6: landing on marbles --------------------------------------------------------


def test_r6_landing_on_opponent_sends_it_to_start() -> None:
    after = position({0: ["t10"], 1: ["t15"]}, ["5H", *FILLER]).apply("5H t10-t15")
    assert marbles(after, 1) == ["s1"] * 5 and "t15" in marbles(after, 0)


def test_r6_landing_on_partner_pushes_it_to_its_home_entry() -> None:
    after = position({0: ["t20"], 2: ["t25"]}, ["5H", *FILLER]).apply("5H t20-t25")
    assert "t31" in marbles(after, 2) and "t25" in marbles(after, 0)


def test_r6_push_onto_an_occupied_home_entry_sends_that_marble_to_start() -> None:
    state = position({0: ["t20"], 2: ["t25"], 1: ["t31"]}, ["5H", *FILLER])
    after = state.apply("5H t20-t25")
    assert marbles(after, 1) == ["s1"] * 5 and "t31" in marbles(after, 2)


def test_r6_partner_already_on_its_entry_goes_to_home_field_1() -> None:
    after = position({0: ["t26"], 2: ["t31"]}, ["5H", *FILLER]).apply("5H t26-t31")
    assert marbles(after, 2)[-1] == "h2.1" and "t31" in marbles(after, 0)


def test_r6_partner_on_entry_with_home_field_1_taken_is_illegal() -> None:
    state = position({0: ["t26"], 2: ["t31", "h2.1"]}, ["5H", *FILLER])
    assert "5H t26-t31" not in legal(state)
    with pytest.raises(IllegalActionError, match=r"h2\.1 is taken"):
        state.apply("5H t26-t31")


def test_r6_joker_onto_a_partner() -> None:
    after = position({2: ["t25"]}, ["JK", *FILLER]).apply("JK s0-t25")
    assert "t31" in marbles(after, 2) and "t25" in marbles(after, 0)


# -- ruling 7: discarding ----------------------------------------------------------------


def test_r7_discard_only_unusable_cards() -> None:
    state = position({}, ["5H", "8D", "KS", "2C", "3C"])
    assert legal(state) == ["KS s0-t0", "discard 2C", "discard 3C", "discard 5H",
                            "discard 8D"]
    with pytest.raises(IllegalActionError, match="may not discard KS: it can be used"):
        state.apply("discard KS")


def test_r7_strict_discard_flag() -> None:
    state = position({}, ["5H", "8D", "KS", "2C", "3C"], strict_discard=True)
    assert legal(state) == ["KS s0-t0"]
    stuck = position({}, ["5H", "8D", "2C", "3C", "4C"], strict_discard=True)
    assert legal(stuck) == ["discard 2C", "discard 3C", "discard 4C", "discard 5H",
                            "discard 8D"]


# -- ruling 8: the finished player -------------------------------------------------------

HOME0 = ["h0.1", "h0.2", "h0.3", "h0.4", "h0.5"]


def test_r8_finished_player_moves_the_partners_marbles() -> None:
    state = position({0: HOME0, 2: ["t40"]}, ["5H", "KS", "2C", "3C", "4C"])
    texts = legal(state)
    assert {"5H t40-t45", "KS s2-t36"} <= set(texts)
    after = state.apply("5H t40-t45")
    assert "t45" in marbles(after, 2)


def test_r8_finished_helps_partner_off_only_discards() -> None:
    state = position({0: HOME0, 2: ["t40"]}, ["5H", "KS", "2C", "3C", "4C"],
                     finished_helps_partner=False)
    assert all(t.startswith("discard") for t in legal(state))
    with pytest.raises(IllegalActionError, match="only discard"):
        state.apply("5H t40-t45")


def test_r8_split_seven_fifth_marble_home_does_not_move_the_partner() -> None:
    state = position({0: ["h0.2", "h0.3", "h0.4", "h0.5", "t66"], 2: ["t40"]},
                     ["7C", *FILLER])
    assert not any(t.startswith("7C t") for t in legal(state))
    assert "discard 7C" in legal(state)
    with pytest.raises(IllegalActionError, match="no marble of yours on t40"):
        state.apply("7C t66-h0.1 t40-t45")


# -- ruling 9: the team win --------------------------------------------------------------


def test_r9_team_wins_when_both_partners_are_home() -> None:
    state = position({0: HOME0, 2: ["h2.2", "h2.3", "h2.4", "h2.5", "t30"]},
                     ["2C", "3C", "4C", "5C", "6C"])
    after = state.apply("2C t30-h2.1")
    assert after.to_move is None and after.legal_actions() == []
    out = after.outcome
    assert out is not None and out.winners == (0, 2) and out.reason == "won"
    assert out.ranking[0] == (0, 2) and out.losers == (1, 3)


def test_one_partner_home_is_not_a_win() -> None:
    state = position({0: ["h0.2", "h0.3", "h0.4", "h0.5", "t66"]}, ["2C", *FILLER[1:], "5C"])
    after = state.apply("2C t66-h0.1")
    assert after.outcome is None and after.to_move == 1


def test_turn_limit_ends_the_game_by_most_marbles_home() -> None:
    import json

    state = position({1: ["h1.5"]}, ["2C", *FILLER[1:], "5C"])
    data = json.loads(state.position())
    data["turns"] = state.turn_limit - 1
    near = GAME.parse_position(json.dumps(data))
    after = near.apply(near.legal_actions()[0])
    assert after.outcome is not None and after.outcome.reason == "turn_limit"
    assert after.outcome.winners == (1, 3)


def test_r1_two_identical_cards_give_one_action_per_move() -> None:
    state = position({0: ["t10"]}, ["5H", "5H", "5C", "2C", "3C"])
    texts = legal(state)
    assert texts.count("5H t10-t15") == 1 and "5C t10-t15" in texts


def test_r6_partner_push_at_six_seats_uses_the_opposite_seat() -> None:
    state = position({0: ["t40"], 3: ["t45"]}, ["5H", *FILLER], seats=6)
    after = state.apply("5H t40-t45")
    assert "t49" in marbles(after, 3)  # seat 3 is seat 0's partner; its entry is t49
