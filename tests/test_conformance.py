"""The conformance suite: every registered game, every seat count (design.md, Tests).

A game that registers is tested here automatically: random playouts to the end, sorted
unique legal actions, notation and record round-trips, ``apply`` never mutates, views
are JSON and leak nothing (resampling the hidden cards never changes a seat's view).
"""

from __future__ import annotations

import json
import random

import pytest

from spillebord import games
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.core.protocol import State
from spillebord.core.record import GameRecord

PARAMS = [(g.key, n) for g in games.all_games() for n in g.seat_counts]
DEALS = (1, 2, 3, 17, 1000)
MAX_ACTIONS = 20_000


def fingerprint(state: State) -> str:
    """Everything observable about a state: position text plus every view."""
    views = [state.view(s) for s in range(state.seats)] + [state.view(None)]
    return state.game.format_position(state) + json.dumps(views, sort_keys=True)


def check_state(state: State, rng: random.Random, deep: bool) -> list[object]:
    game = state.game
    legal = state.legal_actions()
    texts = [str(a) for a in legal]
    assert texts == sorted(set(texts)), "legal actions must be sorted by text and unique"
    assert (state.to_move is None) == (not legal)
    assert (state.outcome is None) == (state.to_move is not None)
    for a in legal if deep else legal[:3]:
        assert game.parse_action(state, str(a)) == a, f"round-trip of {a}"
    if deep:
        text = game.format_position(state)
        again = game.parse_position(text, **state.flags)
        assert game.format_position(again) == text, "position text must round-trip"
        assert [str(a) for a in again.legal_actions()] == texts
        for seat in [*range(state.seats), None]:
            view = state.view(seat)
            json.dumps(view)
            resampled = state.resample(seat, rng)
            assert resampled.view(seat) == view, f"seat {seat}'s view leaks hidden cards"
            assert [str(a) for a in resampled.legal_actions()] == texts or seat != state.to_move
    return legal


def playout(key: str, seats: int, deal: int, deep_every: int) -> tuple[State, list[str]]:
    game = games.load(key)
    rng = random.Random(deal * 7919 + seats)
    state = game.new(deal=deal, seats=seats)
    actions: list[str] = []
    for step in range(MAX_ACTIONS):
        legal = check_state(state, rng, deep=step % deep_every == 0)
        if not legal:
            return state, actions
        action = rng.choice(legal)
        before = fingerprint(state) if step % deep_every == 0 else None
        nxt = state.apply(action)
        if before is not None:
            assert fingerprint(state) == before, "apply must not mutate the state"
        actions.append(str(action))
        state = nxt
    raise AssertionError(f"{key} did not end within {MAX_ACTIONS} actions")


@pytest.mark.parametrize(("key", "seats"), PARAMS)
@pytest.mark.parametrize("deal", DEALS)
def test_random_playout_to_the_end(key: str, seats: int, deal: int) -> None:
    final, actions = playout(key, seats, deal, deep_every=7)
    outcome = final.outcome
    assert outcome is not None
    json.dumps(outcome.to_json())
    record = GameRecord(key, seats, deal, dict(final.flags), tuple(actions))
    again = GameRecord.loads(record.dumps())
    assert again == record
    assert fingerprint(again.replay()) == fingerprint(final), "records must replay exactly"


@pytest.mark.parametrize(("key", "seats"), PARAMS)
def test_deal_numbers_replay_exactly(key: str, seats: int) -> None:
    game = games.load(key)
    a = game.new(deal=42, seats=seats)
    b = game.new(deal=42, seats=seats)
    c = game.new(deal=43, seats=seats)
    assert fingerprint(a) == fingerprint(b)
    assert game.format_position(a) != game.format_position(c)


@pytest.mark.parametrize(("key", "seats"), PARAMS)
def test_illegal_and_malformed_actions_change_nothing(key: str, seats: int) -> None:
    game = games.load(key)
    state = game.new(deal=5, seats=seats)
    before = fingerprint(state)
    for text in ("", "nonsense", "zz>yy", "JK t999-t1000", "\x00", "x" * 5000):
        with pytest.raises((IllegalActionError, NotationError)) as info:
            state.apply(text)
        assert str(info.value) and "\n" not in str(info.value)
    assert fingerprint(state) == before


@pytest.mark.parametrize(("key", "seats"), PARAMS)
def test_broken_positions_are_refused(key: str, seats: int) -> None:
    game = games.load(key)
    for text in ("", "{", "[]", "not a position", '{"seats": "x"}'):
        with pytest.raises(NotationError):
            game.parse_position(text)


@pytest.mark.parametrize("key", games.keys())
def test_unknown_flags_and_seats_are_refused(key: str) -> None:
    game = games.load(key)
    with pytest.raises(NotationError):
        game.new(deal=1, no_such_flag=True)
    with pytest.raises(NotationError):
        game.new(deal=1, seats=99)
    with pytest.raises(NotationError):
        game.new(deal=-1)


@pytest.mark.parametrize(("key", "seats"), PARAMS)
def test_views_hold_no_hidden_cards(key: str, seats: int) -> None:
    """Resample many times in mid-game: each seat's view never changes, and where a game
    has hidden cards the resampled states really differ (the resample is not a no-op)."""
    game = games.load(key)
    rng = random.Random(99)
    state = game.new(deal=11, seats=seats)
    for _ in range(40):
        if state.to_move is None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    for seat in [*range(seats), None]:
        view = state.view(seat)
        for _ in range(5):
            assert state.resample(seat, rng).view(seat) == view


def test_every_game_is_named_in_danish_and_english() -> None:
    for game in games.all_games():
        assert game.name_da and game.name_en and game.blurb_da and game.blurb_en
        info = game.info()
        json.dumps(info)
