"""OpenSpiel registration of the four games as Python games (docs/research.md).

``import spillebord.research.openspiel`` registers ``python_spillebord_<key>`` for every
registered game whose manifest names a research codec (the four games) with
``pyspiel.register_game``; then
``pyspiel.load_game("python_spillebord_kugler", {"players": 6, "strict_discard": True})``
(flags as boolean parameters).

- Chance: one explicit chance node at the start picks the deal number, uniformly among
  ``0 … deals − 1`` (parameter ``deals``, default 1,000); everything after the deal
  (kugler's reshuffles, posthus' redeals) follows from the deal number, as in the
  engine.
- Information: imperfect for Gammel Jomfru, kugler and Studenter (the stock in pass 1),
  perfect for Posthus; the observation tensor and string come from the player's
  ``view`` only (the adapters' codecs); ``resample_from_infostate`` is
  ``State.resample``.
- Actions: the same fixed spaces and indices as the PettingZoo and Gymnasium adapters.
- Utility: general-sum, terminal rewards from the outcome (+1 winner, −1 loser, 0
  otherwise; a kugler team shares it); the solitaires pay the rule book's bonus 3/2/1
  (0 for a loss).  OpenSpiel needs a bounded game: a solitaire not over after
  ``SOLITAIRE_CAP`` actions ends as a loss.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import spillebord.games  # noqa: F401  (registers the games)
from spillebord.core.protocol import Action, Information, State
from spillebord.core.protocol import Game as SpillebordGame
from spillebord.core.registry import load, manifests
from spillebord.research.codec import Codec, codec_for, reward

DEALS = 1_000
SOLITAIRE_CAP = 2_000
PREFIX = "python_spillebord_"

def codec_keys() -> list[str]:
    """The registered games with a research codec, in the registry's order."""
    return [m.key for m in manifests() if m.codec is not None]


def game_type(key: str) -> Any:
    game = load(key)
    params: dict[str, Any] = {"players": game.default_seats, "deals": DEALS}
    params.update({f.name: f.default for f in game.flag_specs})
    imperfect = game.game_type.information is Information.IMPERFECT
    return pyspiel.GameType(
        short_name=PREFIX + key,
        long_name=f"Spillebord {game.name_en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if imperfect
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.seat_counts),
        min_num_players=min(game.seat_counts),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Spillebord game at a seat count, flags and deal range."""

    def __init__(self, key: str, params: dict[str, Any] | None = None) -> None:
        game = load(key)
        params = dict(params or {})
        seats = game.check_seats(int(params.get("players", game.default_seats)))
        deals = int(params.get("deals", DEALS))
        if deals < 1:
            raise ValueError("deals is a positive number of deal numbers")
        flags = game.check_flags({f.name: bool(params[f.name])
                                  for f in game.flag_specs if f.name in params})
        codec = codec_for(key, seats)
        bound = game.game_type.max_length
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.n_actions,
            max_chance_outcomes=deals,
            num_players=seats,
            min_utility=0.0 if game.is_solitaire else -1.0,
            max_utility=3.0 if game.is_solitaire else 1.0,
            max_game_length=SOLITAIRE_CAP if bound is None else bound,
        )
        kind = game_type(key)
        super().__init__(kind, info, {**kind.parameter_specification, "players": seats,
                                      "deals": deals, **flags})
        self.sg: SpillebordGame = game
        self.seats = seats
        self.deals = deals
        self.flags = flags
        self.codec = codec
        self.solitaire = game.is_solitaire

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            # information_state_string/tensor: the view is not perfect recall, and the
            # GameType says so; answering with it would mislead CFR, NFSP and the like
            raise NotImplementedError(
                "no information state (perfect recall) is provided; use the observation")
        return ViewObserver(self.codec)


class Position:
    """The Spillebord state behind an OpenSpiel state, its step count and its legal
    index map — immutable, so OpenSpiel's clone (a deep copy of the state's attributes)
    shares it instead of copying the game objects inside."""

    __slots__ = ("inner", "legal", "steps")

    def __init__(self, inner: State | None, steps: int, legal: dict[int, Action]) -> None:
        self.inner = inner
        self.steps = steps
        self.legal = legal

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self


class SpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.pos = Position(None, 0, {})

    @property
    def inner(self) -> State | None:
        return self.pos.inner

    @property
    def steps(self) -> int:
        return self.pos.steps

    @property
    def _legal(self) -> dict[int, Action]:
        return self.pos.legal

    @property
    def g(self) -> SpielGame:
        game: SpielGame = self.get_game()
        return game

    def _set(self, state: State, steps: int) -> None:
        game = self.g
        mover = None if game.solitaire and steps >= SOLITAIRE_CAP else state.to_move
        legal = ({} if mover is None else
                 game.codec.actions(state.view(mover), state.legal_actions()))
        self.pos = Position(state, steps, legal)

    def _capped(self) -> bool:
        return self.steps >= SOLITAIRE_CAP and self.g.solitaire

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        mover = self.inner.to_move
        assert mover is not None
        return mover

    def is_terminal(self) -> bool:
        return self.inner is not None and (self.inner.is_over or self._capped())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.g.deals
        return [(d, p) for d in range(self.g.deals)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal)

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            game = self.g
            self._set(game.sg.new(deal=int(action), seats=game.seats, **game.flags), 0)
            return
        self._set(self.inner.apply_legal(self._legal[int(action)]), self.steps + 1)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        chosen = self._legal.get(int(action))
        return str(chosen) if chosen is not None else f"#{action}"

    def returns(self) -> list[float]:
        n = self.g.seats
        outcome = None if self.inner is None or self._capped() else self.inner.outcome
        if outcome is None:
            return [0.0] * n
        if self.g.solitaire:
            return [float(outcome.bonus)]
        return [reward(outcome, s) for s in range(n)]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> SpielState:
        """A state of ``player_id``'s information set: ``State.resample`` seeded by a draw
        of OpenSpiel's sampler (a uniform float in [0, 1))."""
        clone: SpielState = self.clone()
        if self.inner is not None:
            rng = random.Random(int(probability_sampler() * 2**53))
            clone._set(self.inner.resample(player_id, rng), self.steps)
        return clone

    def __str__(self) -> str:
        return "" if self.inner is None else self.g.sg.format_position(self.inner)


class ViewObserver:
    """OpenSpiel's PyObserver: the codec's array of the player's view."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.tensor = np.zeros(codec.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.codec.observe(state.inner.view(player))

    def string_from(self, state: SpielState, player: int) -> str:
        if state.inner is None:
            return ""
        return json.dumps(state.inner.view(player), sort_keys=True)


def game_class(key: str) -> type[SpielGame]:
    """The ``pyspiel.Game`` class of one game (pyspiel builds it with the params only)."""

    def __init__(self: SpielGame, params: dict[str, Any] | None = None) -> None:
        SpielGame.__init__(self, key, params)

    return type(f"SpielGame_{key}", (SpielGame,), {"__init__": __init__})


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for key in codec_keys():
        if PREFIX + key not in registered:
            pyspiel.register_game(game_type(key), game_class(key))


_register()
