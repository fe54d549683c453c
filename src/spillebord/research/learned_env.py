"""The learned baselines' training environment (docs/research.md, "Learned baselines"):
a table game seen by one learning side as a single-agent Gymnasium env with action
masks (the ``action_masks()`` method sb3-contrib's MaskablePPO reads).

``SeatEnv(game, seats, opponents)``: each episode is one game from a fresh deal.  The
learner plays one seat — with its partners in a team game (``game.teams``: Kugler og
Jokere's partners share the result, so one trajectory holds both partners' decisions)
— chosen at random each game; every other seat is played by an opponent drawn from
``opponents`` for the whole game (Spillebord bots by spec, ``random``/``L1``…, or
``"self"``: the learner's own latest exported policy, ``set_self``).  The learner is
asked only where it decides: an action it has no choice about is played for it, as
``auto_forced`` does in the PettingZoo envs.

Observation and mask are exactly the PettingZoo table env's for the seat to move
(``codec.observe(view)``, ``codec.actions(view, legal)``: the view only, never a hidden
card).  Reward at the end: +1 won, −1 lost, 0 otherwise (``codec.reward``), plus
optional shaping ``shaping × (Φ(next) − Φ(now))`` between the learner's decisions, with
Φ a public potential (``POTENTIALS``: Gammel Jomfru's cards held against the others',
Kugler og Jokere's board progress) and Φ = 0 at the end (potential-based shaping: it
leaves the best policy unchanged, and gives the sparse ±1 a signal between decisions).
An index outside the mask raises ``ValueError`` and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import spillebord.games  # noqa: F401  (registers the games)
from spillebord import bots
from spillebord.core.protocol import Action, State
from spillebord.core.registry import load
from spillebord.research.codec import MAX_DEAL, reward
from spillebord.research.codec import codec_for as _codec_for
from spillebord.research.learned import LearnedBot, MlpPolicy

Potential = Callable[[State, int], float]


def kugler_progress(state: State, seat: int) -> float:
    """Kugler og Jokere: the seat's team's marble progress minus the other teams' mean
    (the ``advance`` bot's board value, public board only), about −1 … 1."""
    from spillebord.bots.kugler.fastplay import ADVANCE, team_values
    from spillebord.games.kugler.kernel import GEO
    from spillebord.games.kugler.state import KuglerState

    assert isinstance(state, KuglerState)
    half = state.seats // 2
    vals = np.zeros(half)
    team_values(state._arr, GEO[state.seats], vals, ADVANCE)
    own = float(vals[seat % half])
    others = (float(vals.sum()) - own) / (half - 1)
    return (own - others) / 1000.0  # ten marbles home ≈ 10 × 100


def jomfru_cards(state: State, seat: int) -> float:
    """Gammel Jomfru: the other seats' mean number of cards held minus the seat's own
    (face-down and face-up counts are public), / 52: the last to hold cards loses."""
    from spillebord.games.gammel_jomfru.state import JomfruState

    assert isinstance(state, JomfruState)
    others = [state.cards_held(s) for s in range(state.seats) if s != seat]
    return (sum(others) / len(others) - state.cards_held(seat)) / 52


POTENTIALS: dict[str, Potential] = {"gammel_jomfru": jomfru_cards, "kugler": kugler_progress}


class SeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning side of a table game against opponents; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's)

    def __init__(self, game: str, seats: int = 4, opponents: Sequence[str] = ("random",),
                 *, shaping: float = 0.0, **flags: bool) -> None:
        self.game = load(game)
        if self.game.is_solitaire:
            raise ValueError(f"{game} is a solitaire: it has no opponents")
        self.seats = self.game.check_seats(seats)
        self.flags = self.game.check_flags(flags)
        self.codec = _codec_for(game, self.seats)
        if not opponents:
            raise ValueError("at least one opponent")
        self.opponent_specs = tuple(opponents)
        self._bots: dict[str, bots.Bot | None] = {
            spec: None if spec == "self" else bots.load_spec(game, spec)
            for spec in self.opponent_specs}
        self._self: LearnedBot | None = None
        self.potential = POTENTIALS.get(game) if shaping else None
        self.shaping = shaping
        self.teams = {s: team for team in self.game.teams(self.seats) for s in team}
        self.observation_space = spaces.Box(0.0, 1.0, (self.codec.size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.n_actions)
        self._rng = random.Random(0)
        self.state: State | None = None
        self.learner: tuple[int, ...] = ()
        self.opponent = self.opponent_specs[0]
        self._legal: dict[int, Action] = {}
        self._mask = np.zeros(self.codec.n_actions, bool)
        self._phi = 0.0
        self.results: list[float] = []  # each finished game's reward (no shaping)

    def set_self(self, policy: MlpPolicy) -> None:
        """The policy the ``"self"`` opponent plays (the learner's latest export)."""
        self._self = LearnedBot(policy, self.codec)

    def _bot(self, spec: str) -> bots.Bot:
        bot = self._bots[spec]
        if bot is None:
            if self._self is None:  # no export yet: the learner starts as random play
                return bots.RandomBot()
            return self._self
        return bot

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        rng = self._rng
        while True:
            state = self.game.new(deal=rng.randrange(MAX_DEAL), seats=self.seats,
                                  **self.flags)
            self.learner = self.teams[rng.randrange(self.seats)]
            self.opponent = rng.choice(self.opponent_specs)
            self.state = self._advance(state)
            if self.state.to_move is not None:  # (a game over before the learner chose)
                break
        self._phi = self._potential()
        return self._encode(), {}

    def _potential(self) -> float:
        if self.potential is None or self.state is None or self.state.to_move is None:
            return 0.0
        return self.potential(self.state, self.learner[0])

    def _advance(self, state: State) -> State:
        """Play on until one of the learner's seats has a choice or the game is over."""
        opponent = self._bot(self.opponent)
        while (seat := state.to_move) is not None:
            legal = state.legal_actions()
            if len(legal) == 1:
                state = state.apply_legal(legal[0])
            elif seat in self.learner:
                break
            else:
                state = state.apply(opponent.choose(bots.Observation(state, seat, self._rng)))
        return state

    def _encode(self) -> np.ndarray:
        state = self.state
        assert state is not None and state.to_move is not None
        view = state.view(state.to_move)
        self._legal = self.codec.actions(view, state.legal_actions())
        self._mask = np.zeros(self.codec.n_actions, bool)
        self._mask[list(self._legal)] = True
        return self.codec.observe(view)

    def action_masks(self) -> np.ndarray:
        """The legal indices of the learner's seat to move (bool, ``(n_actions,)``)."""
        return self._mask.copy()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool,
                                                     dict[str, Any]]:
        legal = self._legal.get(int(action))
        if legal is None or self.state is None or self.state.to_move is None:
            raise ValueError(f"action {action!r} is not legal (legal: {sorted(self._legal)})")
        self.state = self._advance(self.state.apply_legal(legal))
        phi, before = self._potential(), self._phi
        self._phi = phi
        shaped = self.shaping * (phi - before)
        outcome = self.state.outcome
        if outcome is None:
            return self._encode(), shaped, False, False, {}
        result = reward(outcome, self.learner[0])
        self.results.append(result)
        self._legal, self._mask = {}, np.zeros(self.codec.n_actions, bool)
        obs = np.zeros(self.codec.size, np.float32)
        return obs, result + shaped, True, False, {"result": result}
