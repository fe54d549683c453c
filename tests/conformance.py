"""The conformance checks, as functions over a ``Game`` object (docs/adding-a-game.md,
"Tests").  tests/test_conformance.py runs them on every registered game and on the
reference game; tests/test_conformance_catches.py shows that each fails for a
deliberately broken game.  A failed check raises AssertionError naming the promise.

What is checked, per game and seat count:

- random playouts end within the declared ``game_type.max_length`` (or ``ENDLESS_CAP``
  actions when the game declares none); legal actions sorted, unique, empty exactly at
  the end; action texts and position texts round-trip; ``apply`` never mutates;
- views are JSON; ``resample(seat)`` keeps ``seat``'s view (and, for the seat to move,
  the legal actions) and changes no position key outside ``game_type.hidden`` and the
  deal number; an
  imperfect-information game's ``resample`` really redraws its hidden cards;
- a parsed position continues exactly like the original (``check_future``), and the
  declared chance agrees: a seeded game's future depends on the deal number, a
  deterministic game's does not;
- resampling draws the future afresh too (``check_resampled_future``): a resample never
  keeps the true deal number nor depends on it (the same ``rng`` gives the same resample
  of the same position under another deal number), and in a seeded game two resamples
  of one information state diverge at the next reshuffle or redeal;
- the outcome is consistent: every seat ranked exactly once, winners and losers
  disjoint, teams whole (``Game.teams``), a bonus only on a win.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from typing import Any

from spillebord.core.protocol import Chance, Game, Information, Outcome, State

ENDLESS_CAP = 20_000  # actions: a random playout of a game that declares no bound
FUTURE_HORIZON = 200  # actions compared after each parse(format(s))
FUTURE_LINE = 1_500  # the longest random playout the future checks follow
RESAMPLE_TRIES = 8


def fingerprint(state: State) -> str:
    """Everything observable about a state: position text plus every view."""
    views = [state.view(s) for s in range(state.seats)] + [state.view(None)]
    return state.game.format_position(state) + json.dumps(views, sort_keys=True)


def position_json(game: Game, state: State) -> dict[str, Any] | None:
    """The position as a JSON object, or None for a game with a text position."""
    try:
        data = json.loads(game.format_position(state))
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def with_deal(text: str, deal: int) -> str:
    """The position text with another deal number (a JSON ``"deal"`` field or a
    ``deal N`` line, the rule book's two forms)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        changed, n = re.subn(r"(?m)^deal \d+$", f"deal {deal}", text)
        assert n == 1, "the position text names no deal number (a 'deal N' line)"
        return changed
    assert isinstance(data, dict), "a JSON position is an object"
    data["deal"] = deal
    return json.dumps(data)


def check_outcome(game: Game, state: State) -> None:
    outcome = state.outcome
    assert isinstance(outcome, Outcome), "a finished game has an Outcome"
    json.dumps(outcome.to_json())
    seats = list(range(state.seats))
    ranked = [s for group in outcome.ranking for s in group]
    assert sorted(ranked) == seats, f"every seat ranked exactly once: {outcome.ranking}"
    assert all(outcome.ranking), "no empty ranking group"
    winners, losers = set(outcome.winners), set(outcome.losers)
    assert len(winners) == len(outcome.winners) and len(losers) == len(outcome.losers)
    assert winners <= set(seats) and losers <= set(seats), "winners and losers are seats"
    assert not winners & losers, f"winners and losers disjoint: {outcome}"
    for team in game.teams(state.seats):
        members = set(team)
        for name, group in (("winners", winners), ("losers", losers),
                            *((f"rank {i + 1}", set(g)) for i, g in
                              enumerate(outcome.ranking))):
            assert members <= group or not members & group, \
                f"team {team} split in {name}: {outcome}"
    assert outcome.bonus >= 0, "a bonus is never negative"
    assert outcome.bonus == 0 or winners, f"a bonus only on a win: {outcome}"


def check_resample(game: Game, state: State, rng: random.Random) -> bool:
    """Each seat's view (and the mover's legal actions) survive ``resample``, and only
    the declared hidden keys change; returns whether some resample changed anything."""
    hidden = {*game.game_type.hidden, "deal"}  # the deal number: future shuffles
    before = position_json(game, state)
    text = game.format_position(state)
    texts = [str(a) for a in state.legal_actions()]
    changed = False
    for seat in [*range(state.seats), None]:
        view = state.view(seat)
        json.dumps(view)
        for _ in range(RESAMPLE_TRIES if seat is None else 2):
            other = state.resample(seat, rng)
            assert other.view(seat) == view, f"seat {seat}'s view leaks hidden cards"
            if seat == state.to_move:
                assert [str(a) for a in other.legal_actions()] == texts, \
                    "resample changed the legal actions of the seat to move"
            after = position_json(game, other)
            if before is not None and after is not None:
                moved = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
                assert moved <= hidden, \
                    f"resample changed {sorted(moved - hidden)}, not declared hidden"
            changed = changed or same_deal(game, other, state.deal) != text
    return changed


def check_state(state: State, rng: random.Random, deep: bool) -> list[Any]:
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
        check_resample(game, state, rng)
    return legal


def same_deal(game: Game, state: State, deal: int) -> str:
    """``state``'s position text with the deal number ``deal`` (a resample draws a fresh
    one, which is not a hidden card)."""
    return with_deal(game.format_position(state), deal)


def check_hidden_cards_are_redrawn(game: Game, seats: int, deal: int) -> None:
    """An imperfect-information game's start has hidden cards, and ``resample`` (for
    every seat and the spectator) redraws them; a perfect one's ``resample`` is
    ``self``'s copy but for the deal number (its future shuffles)."""
    state = game.new(deal=deal, seats=seats)
    rng = random.Random(deal)
    imperfect = game.game_type.information is Information.IMPERFECT
    for seat in [*range(seats), None]:
        text = game.format_position(state)
        redrawn = any(same_deal(game, state.resample(seat, rng), deal) != text
                      for _ in range(RESAMPLE_TRIES))
        assert redrawn == imperfect, (
            f"seat {seat}: resample must redraw the hidden cards"
            if imperfect else "a perfect-information game has nothing to redraw")
    check_resample(game, state, rng)


def check_resample_ignores_the_deal(game: Game, text: str, seat: int | None) -> None:
    """A resample of the position ``text`` for ``seat`` neither keeps its deal number nor
    depends on it: under another deal number, the same ``rng`` seed gives the same
    resample (the deal number holds the future shuffles, which no seat has seen)."""
    state = game.parse_position(text)
    stranger = game.parse_position(with_deal(text, deal_of(text) + 1), **state.flags)
    for seed in range(3):
        one = state.resample(seat, random.Random(seed))
        two = stranger.resample(seat, random.Random(seed))
        assert game.format_position(one) == game.format_position(two), \
            "resample depends on the true deal number (the future shuffles)"
        assert one.deal != state.deal, "a resample kept the true deal number"


def check_resampled_future(game: Game, seats: int, deal: int, starts: int = 6,
                           avoid: tuple[str, ...] = ()) -> bool:
    """From ``starts`` positions spread over a random playout: ``resample`` ignores the
    true deal number (``check_resample_ignores_the_deal``), and two resamples of one
    information state that differ only in their deal number (the second one's deal put
    into the first one's position) continue differently under the same random actions
    somewhere within ``FUTURE_HORIZON`` actions when the game has future chance.  Returns
    whether some did; a deterministic game's never do."""
    texts, actions = random_line(game, seats, deal, FUTURE_LINE, avoid)
    every = max(1, len(actions) // starts)
    diverged = False
    for start in range(0, len(actions) + 1, every):
        state = game.parse_position(texts[start])
        seat = state.to_move
        check_resample_ignores_the_deal(game, texts[start], seat)
        one = state.resample(seat, random.Random(start))
        other_deal = state.resample(seat, random.Random(start + 1)).deal
        two = game.parse_position(with_deal(game.format_position(one), other_deal),
                                  **state.flags)
        rng = random.Random(start)
        for _ in range(FUTURE_HORIZON):
            legal = one.legal_actions()
            if not legal:
                break
            action = rng.choice([a for a in legal if str(a) not in avoid] or legal)
            one = one.apply_legal(action)
            try:
                two = two.apply(str(action))
            except ValueError:  # the other future made the action impossible
                diverged = True
                break
            if game.format_position(two) != with_deal(game.format_position(one), two.deal):
                diverged = True
                break
    if game.game_type.chance is Chance.DETERMINISTIC:
        assert not diverged, "a deterministic game's future depends on the deal number"
    return diverged


def deal_of(text: str) -> int:
    """The deal number a position text names (JSON ``"deal"`` or a ``deal N`` line; the
    rule book's default is 0)."""
    if text.startswith("{"):
        return int(json.loads(text).get("deal", 0))
    found = re.search(r"(?m)^deal (\d+)$", text)
    return int(found.group(1)) if found else 0


def check_future(game: Game, texts: list[str], actions: list[str], start: int) -> bool:
    """``parse(format(s))`` of the state at ``start`` continues exactly like ``s`` for
    ``FUTURE_HORIZON`` actions; returns whether the same position with another deal
    number continued differently (its future depends on the deal)."""
    flags = dict(game.parse_position(texts[start]).flags)
    copy = game.parse_position(texts[start], **flags)
    deal = deal_of(texts[start])
    stranger: State | None = game.parse_position(with_deal(texts[start], deal + 1), **flags)
    differs = False
    for i in range(start, min(len(actions), start + FUTURE_HORIZON)):
        copy = copy.apply(actions[i])
        assert game.format_position(copy) == texts[i + 1], (
            f"the position parsed at action {start} continued differently at action "
            f"{i + 1}: the position text lost part of its future")
        if stranger is not None:
            try:
                stranger = stranger.apply(actions[i])
            except ValueError:  # the other deal's shuffle made the action impossible
                stranger, differs = None, True
                continue
            differs = differs or with_deal(game.format_position(stranger), deal) != texts[i + 1]
    return differs


def random_line(game: Game, seats: int, deal: int, limit: int,
                avoid: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The position texts and actions of a random playout of at most ``limit`` actions
    (without checks); actions in ``avoid`` are chosen only when nothing else is legal
    (a solitaire then reaches its redeals instead of resigning)."""
    rng = random.Random(deal * 7919 + seats)
    state = game.new(deal=deal, seats=seats)
    texts, actions = [game.format_position(state)], []
    while len(actions) < limit:
        legal = state.legal_actions()
        if not legal:
            break
        action = rng.choice([a for a in legal if str(a) not in avoid] or legal)
        state = state.apply_legal(action)
        actions.append(str(action))
        texts.append(game.format_position(state))
    return texts, actions


def check_futures(game: Game, seats: int, deal: int, starts: int = 6,
                  avoid: tuple[str, ...] = ()) -> bool:
    """``check_future`` from ``starts`` positions spread over a random playout; a
    deterministic game's future must never depend on the deal number.  Returns whether
    some future did (a seeded game's shuffles were exercised)."""
    texts, actions = random_line(game, seats, deal, FUTURE_LINE, avoid)
    every = max(1, len(actions) // starts)
    depends = any([check_future(game, texts, actions, i)
                   for i in range(0, len(actions) + 1, every)])
    if game.game_type.chance is Chance.DETERMINISTIC:
        assert not depends, "a deterministic game's future depends on the deal number"
    return depends


def playout(game: Game, seats: int, deal: int, deep_every: int) -> tuple[State, list[str]]:
    """A random playout with ``check_state`` on every state (deep every ``deep_every``
    actions) and ``check_outcome`` at the end, within the declared length bound."""
    rng = random.Random(deal * 7919 + seats)
    state = game.new(deal=deal, seats=seats)
    cap = game.game_type.max_length or ENDLESS_CAP
    actions: list[str] = []
    for step in range(cap + 1):
        legal = check_state(state, rng, deep=step % deep_every == 0)
        if not legal:
            check_outcome(game, state)
            return state, actions
        action = rng.choice(legal)
        before = fingerprint(state) if step % deep_every == 0 else None
        nxt = state.apply(action)
        if before is not None:
            assert fingerprint(state) == before, "apply must not mutate the state"
        actions.append(str(action))
        state = nxt
    bound = "its declared max_length" if game.game_type.max_length else "the endless cap"
    raise AssertionError(f"{game.key} did not end within {cap} actions ({bound})")


def check_value_equality(game: Game, seats: int, deal: int, limit: int = 60) -> None:
    """States are equal by value (core.protocol.State): equal exactly when their game,
    flags and position texts are; equal states hash alike; a state class does not
    override the rule.  Over the positions of a random line, each parsed back twice."""
    cls = type(game.new(deal=deal, seats=seats))
    for name in ("__eq__", "__hash__"):
        assert getattr(cls, name) is getattr(State, name), \
            f"{cls.__name__} defines its own {name}: states are equal by position text"
    texts, actions = random_line(game, seats, deal, limit)
    state = game.new(deal=deal, seats=seats)
    states = [state]
    for action in actions:
        state = state.apply(action)
        states.append(state)
    for text, s in zip(texts, states, strict=True):
        flags = dict(s.flags)
        a, b = game.parse_position(text, **flags), game.parse_position(text, **flags)
        assert a is not b and a == b == s and s == a, "equal texts, unequal states"
        assert hash(a) == hash(b) == hash(s), "equal states hash differently"
        assert copy.deepcopy(s) == s
        if pickle.loads(pickle.dumps(game)) is game:  # a registered game (Game.__reduce_ex__)
            assert pickle.loads(pickle.dumps(s)) == s
        assert s != text and text != s, "a state never equals its text"
        for i, spec in enumerate(game.flag_specs):  # another variant: another state
            flipped = {**flags, spec.name: not s.variant()[i]}
            assert game.parse_position(text, **flipped) != s, f"== ignores flag {spec.name}"
    by_text = {t: s for t, s in zip(texts, states, strict=True)}
    assert len(set(states)) == len(by_text), "a set holds one state per position text"
    for i in range(len(states) - 1):
        assert (states[i] == states[i + 1]) == (texts[i] == texts[i + 1])
