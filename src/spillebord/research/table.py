"""PettingZoo AEC environments for the table games (docs/research.md):
``jomfru_env(seats=4, **flags)`` (Gammel Jomfru, 2–8 seats) and ``kugler_env(seats=4,
**flags)`` (Kugler og Jokere, 4/6/8).

Agents are ``player_0`` … ``player_{n−1}`` (seat numbers).  An observation is
``{"observation": float32 array, "action_mask": int8 array}`` built from that seat's
``view`` only (the mask is all zeros for a seat not to move).  Every seat stays in the
game until it ends (a Gammel Jomfru seat that went out is simply never selected again);
then every agent is terminated with its reward from the outcome (+1 winner, −1 loser, 0
otherwise; a kugler team shares it).  A deal number comes from ``reset(seed=…)`` (or
``options={"deal": n}``), so one seed always gives the same game; ``options={"position":
text}`` starts from a position in the rule book's notation (``game.parse_position``).

Options: ``auto_forced=True`` plays every action a seat has no choice about (exactly
one legal action) for it, so an agent is selected only where it chooses
(``forced_steps`` counts them; rewards are the same); ``flat=True`` makes the
observation the float32 Box itself, the mask in ``infos[agent]["action_mask"]`` and
``action_mask(agent)``.  ``state()`` / ``state_space`` is the whole state, hidden cards
included, for centralised critics in training only.  An action index
outside the mask raises ``ValueError`` and changes nothing.

Speed (docs/research.md): a codec's ``tracker()`` encodes observations without building
the view; with ``seat_only_actions`` the index map and mask of each (seat, legal list)
are built once from the view and then shared — masks are read-only arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import spillebord.games  # noqa: F401  (registers the games)
from spillebord.core.protocol import JSON, Action, State
from spillebord.core.registry import load
from spillebord.research.codec import Codec, reward, start_state
from spillebord.research.jomfru import JomfruCodec

ObsDict = dict[str, np.ndarray]


class TableEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """One game of a table game at a fixed seat count and flags."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's)
        "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, codec: Codec, seats: int,
                 render_mode: str | None = None, *, auto_forced: bool = False,
                 flat: bool = False, **flags: bool) -> None:
        super().__init__()
        self.game = load(game)
        self.seats = self.game.check_seats(seats)
        self.flags = self.game.check_flags(flags)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.codec = codec
        self.metadata = {**self.metadata, "name": f"spillebord_{game}_{seats}"}
        self.possible_agents = [f"player_{s}" for s in range(self.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.auto_forced = auto_forced
        self.flat = flat
        self.forced_steps = 0  # actions auto-played since reset (auto_forced)
        box = spaces.Box(0.0, 1.0, (codec.size,), np.float32)
        obs: spaces.Space[Any] = box if flat else spaces.Dict({
            "observation": box,
            "action_mask": spaces.Box(0, 1, (codec.n_actions,), np.int8),
        })
        # the whole state, hidden cards included: for centralised critics only
        self.state_space = spaces.Box(0.0, 1.0, (codec.state_size,), np.float32)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(codec.n_actions)
                              for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.state_: State | None = None
        self._to_move: int | None = None
        self._cache: dict[int, ObsDict] = {}
        self._legal: dict[int, Action] = {}
        self._no_moves = _frozen(np.zeros(codec.n_actions, dtype=np.int8))
        self._mask: np.ndarray = self._no_moves
        self._views: dict[int, JSON] = {}
        self._views_of: State | None = None  # the state whose views _views holds
        self._tracker = codec.tracker()
        self._masks: dict[tuple[Any, ...], tuple[dict[int, Action], np.ndarray]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        state = start_state(self.game, options, self._np_random, self.seats, **self.flags)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.forced_steps = 0
        self._advance(state)

    def _set(self, state: State) -> None:
        self.state_ = state
        self._cache = {}
        mover = self._to_move = state.to_move
        if mover is None:
            self._legal, self._mask = {}, self._no_moves
            return
        legal = state.legal_actions()
        key = (mover, *legal)
        known = self._masks.get(key)
        if known is None:
            known = self._encode_legal(mover, legal)
            if self.codec.seat_only_actions:
                self._masks[key] = known
        self._legal, self._mask = known

    def _encode_legal(self, mover: int, legal: Sequence[Action]) -> tuple[dict[int, Action],
                                                                      np.ndarray]:
        """Index → legal action and the (read-only) mask of the seat to move."""
        # a seat-only codec's index reads nothing of the view but the seat
        view = {"seat": mover} if self.codec.seat_only_actions else self._view(mover)
        actions = self.codec.actions(view, legal)
        row = bytearray(self.codec.n_actions)
        for i in actions:
            row[i] = 1
        return actions, np.frombuffer(bytes(row), dtype=np.int8)  # read-only: shared

    def _view(self, seat: int) -> JSON:
        """The seat's view of the current state, built once per state."""
        assert self.state_ is not None
        if self._views_of is not self.state_:
            self._views, self._views_of = {}, self.state_
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state_.view(seat)
        return view

    def _mover(self) -> str:
        mover = self._to_move
        return self.possible_agents[0 if mover is None else mover]

    def observe(self, agent: str) -> Any:
        obs = self._observe(agent)
        return obs["observation"] if self.flat else obs

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's (read-only) action mask: all zeros unless it is to move."""
        return self._observe(agent)["action_mask"]

    def state(self) -> np.ndarray:
        """The **whole** state, every hidden card included (``state_space``;
        docs/research.md): an input for centralised critics in training only — a
        seat's policy must read ``observe``, which holds what that seat may see."""
        assert self.state_ is not None, "reset() first"
        return self.codec.full_state(self.state_)

    def _observe(self, agent: str) -> ObsDict:
        assert self.state_ is not None, "reset() first"
        seat = self._seat[agent]
        cached = self._cache.get(seat)
        if cached is None:
            tracker = self._tracker
            cached = self._cache[seat] = {
                "observation": (self.codec.observe(self._view(seat)) if tracker is None
                                else tracker.observe(self.state_, seat)),
                "action_mask": self._mask if seat == self._to_move else self._no_moves,
            }
        return cached

    def step(self, action: int | None) -> None:
        if self._to_move is None:  # the game is over: every agent is terminated
            self._was_dead_step(action)
            return
        legal = None if action is None else self._legal.get(int(action))
        if legal is None:
            raise ValueError(f"action {action!r} is not legal for {self.agent_selection} "
                             f"(legal: {sorted(self._legal)})")
        # (rewards are all 0 until the game ends, so the mover's cumulative reward
        # already is 0 here)
        assert self.state_ is not None
        self._advance(self.state_.apply_legal(legal))

    def _advance(self, state: State) -> None:
        """Move to ``state`` (with ``auto_forced``: and on through every position whose
        mover has exactly one legal action); the rewards when the game is over."""
        self._set(state)
        if self.auto_forced:
            while len(self._legal) == 1:
                (only,) = self._legal.values()
                assert self.state_ is not None
                self._set(self.state_.apply_legal(only))
                self.forced_steps += 1
        mover = self._to_move
        if mover is None:
            assert self.state_ is not None
            outcome = self.state_.outcome
            assert outcome is not None
            for a in self.agents:
                self.rewards[a] = reward(outcome, self._seat[a])
                self.terminations[a] = True
            self._accumulate_rewards()
            mover = 0
        if self.flat:
            for seat, a in enumerate(self.possible_agents):
                self.infos[a]["action_mask"] = (self._mask if seat == self._to_move
                                                else self._no_moves)
        self.agent_selection = self.possible_agents[mover]

    def render(self) -> str | None:
        if self.render_mode is None or self.state_ is None:
            return None
        text = self.game.format_position(self.state_)
        if self.render_mode == "human":  # PettingZoo's convention: shown, not returned
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _frozen(array: np.ndarray) -> np.ndarray:
    """``array`` made read-only, so one mask can be handed out many times."""
    array.flags.writeable = False
    return array


def jomfru_env(seats: int = 4, render_mode: str | None = None, *, auto_forced: bool = False,
               flat: bool = False, **flags: bool) -> TableEnv:
    """Gammel Jomfru at ``seats`` (2–8); flags as keyword arguments (``nearest_first``);
    ``auto_forced`` and ``flat`` as in the module docstring."""
    return TableEnv("gammel_jomfru", JomfruCodec(seats), seats, render_mode,
                    auto_forced=auto_forced, flat=flat, **flags)


def kugler_env(seats: int = 4, render_mode: str | None = None, *, auto_forced: bool = False,
               flat: bool = False, **flags: bool) -> TableEnv:
    """Kugler og Jokere at ``seats`` (4, 6, 8); flags as keyword arguments.  The env
    steps the compiled turn loop (research/kugler_env.py), the same game as the engine."""
    from spillebord.research.kugler_env import KuglerEnv

    return KuglerEnv(seats, render_mode, auto_forced=auto_forced, flat=flat, **flags)
