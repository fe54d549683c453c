"""Spillebord's own bots as agents of the research interfaces (docs/research.md):

- ``spiel_bot(game, player, spec)``: a ``pyspiel.Bot`` for a ``python_spillebord_*``
  game, so OpenSpiel's ``evaluate_bots`` (and anything else that takes bots) seats them
  without glue; ``spiel_bots(game, specs)`` one a player;
- ``policy(env, spec)``: a PettingZoo AEC or Gymnasium policy for this package's
  environments — ``policy(observation, agent) -> action index`` (``agent`` is ignored
  by the solitaires' envs) — choosing for the env's seat to move.

``spec`` is what ``spillebord analyse tournament --bots`` takes: ``L1``–``L3`` (the
game's levels) or ``NAME[:OPTION=VALUE…]`` (``bots.names(game)``; ``random`` plays every
game).  ``specs(game)`` lists every bot and level of a game.

A Spillebord bot sees one seat's information set only (``bots.Observation``: the seat's
view, its legal actions and ``sample()``, a determinization by ``State.resample``, which
also draws the future shuffles afresh); the true state behind an OpenSpiel state or an
env stays inside that object, as at a live table.  Each agent draws from its own
``random.Random(seed)``, so a seeded run is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from spillebord import bots
from spillebord.core.protocol import Action, State
from spillebord.research.openspiel import SpielGame, SpielState
from spillebord.research.solitaire import SolitaireEnv
from spillebord.research.table import TableEnv


def specs(game: str) -> list[str]:
    """Every bot (default options) and level of ``game``, as specs."""
    return [*bots.names(game), *(f"L{n}" for n in sorted(bots.levels(game)))]


def _index(legal: Mapping[int, Action], action: Action) -> int:
    for i, a in legal.items():
        if a == action:
            return i
    raise ValueError(f"the bot chose {action}, which has no legal index")  # a bot's bug


class SpillebordBot(pyspiel.Bot):  # type: ignore[misc]
    """One Spillebord bot in one player's seat of a ``python_spillebord_*`` game."""

    def __init__(self, game: SpielGame, player: int, spec: str = "random",
                 seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, SpielGame):
            raise TypeError("a Spillebord bot plays a python_spillebord_* game")
        if not 0 <= player < game.num_players():
            raise ValueError(f"player {player} is not a seat of this game")
        self.key = game.sg.key
        self.player = player
        self.spec = spec
        self.bot = bots.load_spec(self.key, spec)
        self.rng = random.Random(seed)

    def step(self, state: SpielState) -> int:
        inner = state.inner
        if inner is None or state.current_player() != self.player:
            raise ValueError(f"it is not player {self.player}'s turn")
        action = self.bot.choose(bots.Observation(inner, self.player, self.rng))
        return _index(state.pos.legal, action)

    def restart_at(self, state: SpielState) -> None:
        pass

    def inform_action(self, state: SpielState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"SpillebordBot({self.key}, player={self.player}, spec={self.spec!r})"


def spiel_bot(game: SpielGame, player: int, spec: str = "random",
              seed: int = 0) -> SpillebordBot:
    return SpillebordBot(game, player, spec, seed)


def spiel_bots(game: SpielGame, player_specs: list[str], seed: int = 0) -> list[SpillebordBot]:
    """One bot a player (``player_specs[p]`` for player ``p``), seeds ``seed + p``."""
    if len(player_specs) != game.num_players():
        raise ValueError(f"{game.num_players()} players, {len(player_specs)} bots")
    return [SpillebordBot(game, p, s, seed + p) for p, s in enumerate(player_specs)]


class Policy:
    """A Spillebord bot choosing for the seat to move of one of this package's envs:
    ``policy(observation, agent=None) -> int``.  The observation is accepted for the
    usual signature; the bot reads its seat's information set from the env."""

    def __init__(self, env: Any, spec: str = "random", seed: int = 0) -> None:
        inner = getattr(env, "unwrapped", env)
        if not isinstance(inner, TableEnv | SolitaireEnv):
            raise TypeError("a Spillebord policy plays a Spillebord env "
                            "(jomfru_env, kugler_env, spillebord/Posthus-v0, …)")
        self.env = inner
        self.spec = spec
        self.bot = bots.load_spec(inner.game.key, spec)
        self.rng = random.Random(seed)

    def __call__(self, observation: Any = None, agent: str | None = None) -> int:
        env = self.env
        state: State | None = env.state_
        if state is None or state.to_move is None:
            raise ValueError("no seat is to move (reset the env, or the game is over)")
        seat = state.to_move
        if agent is not None and isinstance(env, TableEnv) and agent != env.agent_selection:
            raise ValueError(f"{agent} is not to move ({env.agent_selection} is)")
        action = self.bot.choose(bots.Observation(state, seat, self.rng))
        index = _index(env._legal, action)
        mask = observation.get("action_mask") if isinstance(observation, dict) else None
        assert mask is None or np.asarray(mask)[index] == 1
        return index

    def __repr__(self) -> str:
        return f"Policy({self.env.game.key}, spec={self.spec!r})"


def policy(env: Any, spec: str = "random", seed: int = 0) -> Policy:
    return Policy(env, spec, seed)
