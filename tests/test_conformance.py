"""The conformance suite: every registered game and the reference game of
docs/adding-a-game.md, every seat count (docs/architecture.md; the checks are in
tests/conformance.py).

A game that registers is tested here automatically: random playouts to the end within
its declared length, sorted unique legal actions, notation and record round-trips,
``apply`` never mutates, views are JSON and leak nothing (resampling the hidden cards
never changes a seat's view, and an imperfect-information game's resample really
redraws them), outcomes are consistent, and a parsed position continues exactly like
the original.  Each game's manifest keeps its every promise (tests/manifest_checks.py):
a game green here can be registered.
"""

from __future__ import annotations

import json

import pytest
from tests import conformance, manifest_checks
from tests.reference_game import GAME as REFERENCE
from tests.reference_game import MANIFEST as REFERENCE_MANIFEST

from spillebord import games
from spillebord.core.errors import IllegalActionError, NotationError
from spillebord.core.manifest import Manifest
from spillebord.core.protocol import Chance, Game, GameType
from spillebord.core.record import GameRecord

GAMES: list[Game] = [*games.all_games(), REFERENCE]
MANIFESTS = [pytest.param(m, id=m.key) for m in (*games.manifests(), REFERENCE_MANIFEST)]
PARAMS = [pytest.param(g, n, id=f"{g.key}-{n}") for g in GAMES for n in g.seat_counts]
BY_GAME = [pytest.param(g, id=g.key) for g in GAMES]
DEALS = (1, 2, 3, 17, 1000)
# Resigning ends a solitaire at once; the future test avoids it to reach the redeals.
AVOID = ("resign",)


@pytest.mark.parametrize(("game", "seats"), PARAMS)
@pytest.mark.parametrize("deal", DEALS)
def test_random_playout_to_the_end(game: Game, seats: int, deal: int) -> None:
    final, actions = conformance.playout(game, seats, deal, deep_every=7)
    record = GameRecord(game.key, seats, deal, dict(final.flags), tuple(actions))
    again = GameRecord.loads(record.dumps())
    assert again == record
    assert conformance.fingerprint(again.replay(game)) == conformance.fingerprint(final), \
        "records must replay exactly"


@pytest.mark.parametrize(("game", "seats"), PARAMS)
def test_positions_keep_their_future(game: Game, seats: int) -> None:
    """parse(format(s)) continues exactly like s — from every few positions of random
    playouts, across redeals and reshuffles; a seeded game's future depends on its deal
    number somewhere in these playouts (so its shuffles were exercised), a deterministic
    game's never does."""
    depends = [conformance.check_futures(game, seats, deal, avoid=AVOID)
               for deal in DEALS[:3]]
    if game.game_type.chance is Chance.SEEDED:
        assert any(depends), "no later shuffle was exercised (or the deal is ignored)"


@pytest.mark.parametrize(("game", "seats"), PARAMS)
def test_states_are_equal_by_position_text(game: Game, seats: int) -> None:
    """python-chess style value equality and a hash consistent with it, for every game
    the registry holds (and the reference game)."""
    conformance.check_value_equality(game, seats, DEALS[1])


@pytest.mark.parametrize(("game", "seats"), PARAMS)
def test_resamples_redraw_the_future(game: Game, seats: int) -> None:
    """A resample never keeps the true deal number nor depends on it, and in a seeded
    game (kugler's reshuffles, posthus' redeals) two resamples of one information state
    diverge at the next reshuffle or redeal: a determinizing bot does not know what the
    table does not."""
    diverged = [conformance.check_resampled_future(game, seats, deal, avoid=AVOID)
                for deal in DEALS[:3]]
    if game.game_type.chance is Chance.SEEDED:
        assert any(diverged), "two resamples never diverged at a reshuffle or redeal"


@pytest.mark.parametrize(("game", "seats"), PARAMS)
def test_hidden_cards_are_redrawn(game: Game, seats: int) -> None:
    conformance.check_hidden_cards_are_redrawn(game, seats, deal=11)


@pytest.mark.parametrize("game", BY_GAME)
def test_game_type_is_declared(game: Game) -> None:
    assert isinstance(game.game_type, GameType)
    teams = game.teams(max(game.seat_counts))
    assert sorted(s for t in teams for s in t) == list(range(max(game.seat_counts)))


@pytest.mark.parametrize(("game", "seats"), PARAMS)
def test_deal_numbers_replay_exactly(game: Game, seats: int) -> None:
    a = game.new(deal=42, seats=seats)
    b = game.new(deal=42, seats=seats)
    c = game.new(deal=43, seats=seats)
    assert conformance.fingerprint(a) == conformance.fingerprint(b)
    assert game.format_position(a) != game.format_position(c)


@pytest.mark.parametrize(("game", "seats"), PARAMS)
def test_illegal_and_malformed_actions_change_nothing(game: Game, seats: int) -> None:
    state = game.new(deal=5, seats=seats)
    before = conformance.fingerprint(state)
    for text in ("", "nonsense", "zz>yy", "JK t999-t1000", "\x00", "x" * 5000):
        with pytest.raises((IllegalActionError, NotationError)) as info:
            state.apply(text)
        assert str(info.value) and "\n" not in str(info.value)
    assert conformance.fingerprint(state) == before


@pytest.mark.parametrize("game", BY_GAME)
def test_another_games_state_is_one_error(game: Game) -> None:
    """Every method that takes a state refuses another game's state the same way."""
    stranger = next(g for g in GAMES if g is not game).new(deal=1)
    calls = [lambda: game.parse_action(stranger, "x"), lambda: game.format_position(stranger),
             lambda: game.click(stranger, "x"), lambda: game.describe(stranger, "x")]
    for call in calls:
        with pytest.raises(NotationError) as info:
            call()
        assert info.value.key == "core.wrong_game"


@pytest.mark.parametrize("game", BY_GAME)
def test_broken_positions_are_refused(game: Game) -> None:
    for text in ("", "{", "[]", "not a position", '{"seats": "x"}'):
        with pytest.raises(NotationError):
            game.parse_position(text)


@pytest.mark.parametrize("game", BY_GAME)
def test_unknown_flags_and_seats_are_refused(game: Game) -> None:
    with pytest.raises(NotationError):
        game.new(deal=1, no_such_flag=True)
    with pytest.raises(NotationError):
        game.new(deal=1, seats=99)
    with pytest.raises(NotationError):
        game.new(deal=-1)


@pytest.mark.parametrize("game", BY_GAME)
def test_every_game_is_named_in_danish_and_english(game: Game) -> None:
    assert game.name_da and game.name_en and game.blurb_da and game.blurb_en
    json.dumps(game.info())


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_the_manifest_keeps_its_promises(manifest: Manifest) -> None:
    """What the manifest declares (outcome reasons worded in both catalogues, bots and
    levels, solver, describe, click, renderer, rules pages, own refusals, glossary terms,
    research codec) is there, and what it leaves out is not."""
    manifest_checks.check_manifest(manifest)


@pytest.mark.parametrize("game", BY_GAME)
def test_action_text_is_normalised_once_for_every_game(game: Game) -> None:
    """``Game.parse_action`` reads ``"  8H   c2 "`` as ``"8H c2"`` before the game's own
    ``read_action`` sees it, and refuses anything but text with ``core.not_text``."""
    state = game.new(deal=2)
    for action in state.legal_actions():
        spaced = "  " + str(action).replace(" ", "   ") + " \t"
        assert game.parse_action(state, spaced) == action
        assert state.apply(spaced).position() == state.apply(action).position()
    for bad in (5, None, b"x", ["x"]):
        with pytest.raises(IllegalActionError) as info:
            game.parse_action(state, bad)  # type: ignore[arg-type]
        assert info.value.key == "core.not_text"
