"""The studenter solver against the game package: its lines replay to a win through
GAME, its verdicts agree with a brute-force search of real game states on small
constructed positions, and the hint uses only what the player sees."""

from __future__ import annotations

import json
import random

import pytest

from spillebord.core.protocol import State, replay
from spillebord.games.studenter import GAME, StudenterState
from spillebord.solvers.studenter import hint, pick_winnable_deal, solve

from .builder import position_json


@pytest.mark.parametrize("deal", [1, 2, 5, 12])
def test_winning_lines_replay_to_a_win(deal: int) -> None:
    state = GAME.new(deal=deal)
    result = solve(state, seconds=20)
    assert result.verdict == "winnable"
    final = replay(state, list(result.line))
    assert final.outcome is not None and final.outcome.reason == "won"
    assert final.outcome.bonus == result.extra["bonus"]


def small_position(rng: random.Random) -> StudenterState:
    """All but a handful of cards up; the rest spread over row, waste, helpers, stock."""
    heights = [13] * 8
    for _ in range(rng.randint(7, 14)):
        i = rng.randrange(8)
        if heights[i] > 1:
            heights[i] -= 1
    data = json.loads(position_json(base=rng.choice("A5TK"), heights=heights))
    out: list[str] = data["stock"]
    rng.shuffle(out)
    n = len(out)
    stock_size = rng.randint(0, max(0, n - 7)) if rng.random() < 0.6 else 0
    helpers: list[str | None] = [None] * 6
    k = 6 if stock_size else rng.randint(0, min(6, n))
    for i in rng.sample(range(6), k):
        helpers[i] = out.pop()
    stock = [out.pop() for _ in range(stock_size)]
    cut = rng.randint(len(out) // 2, len(out))
    if rng.random() < 0.5:  # low cards to the left: the row blocks itself
        base = "A23456789TJQK".index(data["base"])
        out[:cut] = sorted(out[:cut], key=lambda c: ("A23456789TJQK".index(c[0]) - base) % 13)
    data.update(row=out[:cut], waste=out[cut:], helpers=helpers, stock=stock,
                left_used=rng.random() < 0.5, **{"pass": rng.choice([1, 2, 3, 3, 3])})
    return GAME.parse_position(json.dumps(data))


def brute_force_winnable(state: State, limit: int = 20_000) -> bool | None:
    """Every reachable state through the game's own rules; None past ``limit`` states."""
    seen: set[State] = set()
    todo = [state]
    while todo:
        if len(seen) > limit:
            return None
        s = todo.pop()
        outcome = s.outcome
        if outcome is not None and outcome.reason == "won":
            return True
        for action in s.legal_actions():
            if action == "resign":
                continue
            nxt = s.apply(action)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


@pytest.mark.slow
def test_verdicts_agree_with_brute_force_on_small_positions() -> None:
    rng = random.Random(2026)
    verdicts = {"winnable": 0, "unwinnable": 0}
    for _ in range(150):
        state = small_position(rng)
        expected = brute_force_winnable(state)
        if expected is None:
            continue
        result = solve(state, seconds=30)
        assert result.verdict == ("winnable" if expected else "unwinnable"), (
            GAME.format_position(state))
        verdicts[result.verdict] += 1
        if result.verdict == "winnable":
            final = replay(state, list(result.line))
            assert final.outcome is not None and final.outcome.reason == "won"
    assert verdicts["winnable"] >= 50 and verdicts["unwinnable"] >= 10, verdicts


def test_unknown_at_the_limit_and_finished_games() -> None:
    state = GAME.new(deal=5)
    assert solve(state, seconds=10, node_limit=1).verdict == "unknown"
    resigned = state.apply("resign")
    assert solve(resigned, seconds=1).verdict == "unwinnable"


def test_hint_is_legal_and_ignores_the_hidden_stock_order() -> None:
    state = GAME.new(deal=3)
    first = hint(state, seconds=5)
    assert first in state.legal_actions() and first != "resign"
    rng = random.Random(4)
    for _ in range(2):
        other = state.resample(0, rng)
        assert other.stock != state.stock
        assert hint(other, seconds=5) == first


def test_hint_gives_none_when_over_and_resign_when_proven_lost() -> None:
    assert hint(GAME.new(deal=3).apply("resign")) is None
    # base 8, f8 needs the 5 under the 7; the 6 can go onto the 7, then nothing moves.
    lost = GAME.parse_position(position_json(row=["5D", "7D"], waste=["6S"], stock=[],
                                             heights=[13] * 7 + [10], pass_no=3,
                                             left_used=True))
    assert lost.legal_actions() == ["resign", "waste>row"]
    assert hint(lost) == "resign"
    assert hint(lost.apply("waste>row")) is None  # stuck: the game is over
    live = GAME.parse_position(position_json(row=["5D", "7D"], waste=["6S"], stock=[],
                                             heights=[13] * 7 + [10], pass_no=3))
    assert hint(live) == "waste>row"  # then the leftmost 5 goes right and all go up


def test_pick_winnable_deal_returns_a_proven_winnable_deal() -> None:
    deal = pick_winnable_deal(40, seconds=5)
    assert deal >= 40
    assert solve(GAME.new(deal=deal), seconds=10).verdict == "winnable"


def test_following_hints_wins_when_the_player_knows_the_stock() -> None:
    """From pass 2 on the hint searches the true state: following it must win every
    winnable position, without shuttling cards between row and waste for ever."""
    rng = random.Random(77)
    played = 0
    while played < 12:
        state = small_position(rng)
        if state.pass_no == 1 or not brute_force_winnable(state, limit=5_000):
            continue
        played += 1
        for _ in range(300):
            if state.to_move is None:
                break
            move = hint(state, seconds=2)
            assert move is not None and move != "resign"
            nxt = state.apply(move)
            assert isinstance(nxt, StudenterState)
            state = nxt
        assert state.outcome is not None and state.outcome.reason == "won"
