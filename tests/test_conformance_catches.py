"""The conformance checks catch broken games: each deliberately broken variant of the
reference game (tests/reference_game) breaks one promise, and the check for that promise
fails for it — while the unbroken reference game passes the same check; and each
manifest that promises what the reference game does not keep fails the manifest check."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable

import pytest
from tests import conformance, manifest_checks
from tests.reference_game import GAME, MANIFEST
from tests.reference_game.game import HighCard
from tests.reference_game.state import HighCardState

from spillebord.core.manifest import Manifest
from spillebord.core.protocol import JSON, Outcome, State

SEATS = 3


class LeakyViewState(HighCardState):
    """Shows the draw pile in every view (its resample is the correct one)."""

    def view(self, seat: int | None) -> JSON:
        return {**super().view(seat), "draw": list(self.draw)}


class NoResampleState(LeakyViewState):
    """Leaks the draw pile and keeps the protocol's default ``resample`` (returns self),
    so a resample check that only compares views would pass it."""

    def resample(self, seat: int | None, rng: random.Random) -> State:
        return self


class RanksTwiceState(HighCardState):
    """Its outcome ranks the winner twice."""

    @property
    def outcome(self) -> Outcome | None:
        out = super().outcome
        if out is None or not out.winners:
            return out
        return Outcome(out.winners, (*out.ranking, (out.winners[0],)), out.reason,
                       losers=out.losers)


class BonusOnLossState(HighCardState):
    """Gives a bonus when nobody wins."""

    @property
    def outcome(self) -> Outcome | None:
        out = super().outcome
        return None if out is None else Outcome((), out.ranking, out.reason, bonus=1)


def broken(state_class: type[HighCardState],
           format_position: Callable[[HighCard, State], str] | None = None) -> HighCard:
    """A reference game whose states are ``state_class`` (and whose position text is
    written by ``format_position``)."""
    game = HighCard()
    game.state_class = state_class
    if format_position is not None:
        game.format_position = format_position.__get__(game)  # type: ignore[method-assign]
    return game


def drop_key(key: str) -> Callable[[HighCard, State], str]:
    """A ``format_position`` that leaves ``key`` out (parse then uses its default)."""

    def format_position(self: HighCard, state: State) -> str:
        data = json.loads(HighCard.format_position(self, state))
        del data[key]
        return json.dumps(data)

    return format_position


def run_all(game: HighCard) -> None:
    """Every conformance check that a single game and seat count can fail."""
    for deal in (1, 2, 3):
        conformance.playout(game, SEATS, deal, deep_every=1)
    conformance.check_hidden_cards_are_redrawn(game, SEATS, deal=11)
    assert any(conformance.check_futures(game, SEATS, deal) for deal in (1, 2, 3))


def test_the_reference_game_passes() -> None:
    run_all(broken(HighCardState))


@pytest.mark.parametrize(("game", "message"), [
    pytest.param(broken(LeakyViewState), "view leaks hidden cards", id="leaks-a-card"),
    pytest.param(broken(NoResampleState), "resample must redraw the hidden cards",
                 id="leaks-without-resample"),
    pytest.param(broken(RanksTwiceState), "every seat ranked exactly once",
                 id="ranks-a-seat-twice"),
    pytest.param(broken(BonusOnLossState), "a bonus only on a win", id="bonus-on-a-loss"),
    pytest.param(broken(HighCardState, format_position=drop_key("deal")),
                 "lost part of its future", id="position-loses-its-deal"),
    pytest.param(broken(HighCardState, format_position=drop_key("reshuffles")),
                 "lost part of its future", id="position-loses-its-stream"),
])
def test_a_broken_game_fails_conformance(game: HighCard, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        run_all(game)


def promising(**changes: object) -> Manifest:
    """The reference game's manifest with ``changes``: each promises something the game
    does not keep (or hides something it does)."""
    return dataclasses.replace(MANIFEST, **changes)  # type: ignore[arg-type]


def test_the_reference_manifest_passes() -> None:
    manifest_checks.check_manifest(MANIFEST)


@pytest.mark.parametrize(("manifest", "message"), [
    pytest.param(promising(reasons=("tricks",)), "'tie' is not declared",
                 id="an-undeclared-reason"),
    pytest.param(promising(reasons=("tricks", "tie", "sweep")), "lacks reason.hojt_kort.sweep",
                 id="a-reason-without-words"),
    pytest.param(promising(describe=True), "promises describe", id="describe-missing"),
    pytest.param(promising(click=True), "promised but not implemented", id="click-missing"),
    pytest.param(promising(bots="tests.reference_game"), "registers no bot",
                 id="bots-missing"),
    pytest.param(promising(solver="tests.reference_game"), "the solver has no solve",
                 id="solver-missing"),
    pytest.param(promising(renderer="hojt_kort"), "hojt_kort.js does not exist",
                 id="renderer-missing"),
    pytest.param(promising(rules_page=True), "hojt_kort.md is missing",
                 id="rules-page-missing"),
    pytest.param(promising(refusals=True), "no refusal of the game's own key",
                 id="refusals-missing"),
    pytest.param(promising(glossary="hk"), "no term for hk", id="glossary-missing"),
])
def test_a_broken_manifest_fails_conformance(manifest: Manifest, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        manifest_checks.check_manifest(manifest, GAME)


def test_a_game_that_hides_its_describe_fails() -> None:
    """A game whose describe gives facts its manifest does not declare."""

    class Describing(HighCard):
        def describe(self, state: State, action: str, after: State | None = None) -> JSON:
            return {"card": action}

    with pytest.raises(AssertionError, match="describe gives move facts, undeclared"):
        manifest_checks.check_manifest(MANIFEST, Describing())
