"""Gymnasium environments for the two solitaires (docs/research.md), registered as
``spillebord/Posthus-v0`` and ``spillebord/Studenter-v0`` (``gymnasium.make(id,
open_gaps=True)``: flags as keyword arguments).

The observation is a float32 array built from the player's ``view`` only (Studenter's
stock order stays hidden in pass 1); ``info["action_mask"]`` (int8) marks the legal
action indices.  The deal number comes from ``reset(seed=…)`` or ``options={"deal":
n}``, or a position text in the rule book's notation from ``options={"position":
text}``.  An index outside the mask changes nothing: reward 0, ``info["illegal_action"]``
True.  The reward comes at the end: the rule book's bonus (3, 2, 1 for a win in round or
pass 1, 2, 3; 0 for a loss).  Both games allow endless play, so the registered
environments truncate after ``MAX_STEPS`` steps.

Encodings (cards in ``core.cards`` order):

- Posthus: per grid place (32, row by row, a1 … h4) its card (28 one-hot, all 0 for a
  gap); the run length of each row / 7; round one-hot (3); redeals left / 2.  Actions:
  0 ``redeal``, 1 ``resign``, ``2 + card·32 + place`` for ``CARD place``.
- Studenter: the base rank (13 one-hot); the row: its length / 104, its first and last
  card (52 one-hot each) and its cards (52 counts / 2); each foundation's size / 13 (8);
  each helper's card (6 × 52 one-hot); the waste: size / 104, top (52 one-hot), cards
  (52 counts / 2); stock size / 104; pass one-hot (3); turn-overs left / 2; the
  leftmost-card move used (0/1).  Actions: 0 ``resign``, 1 ``draw``, 2 ``redeal``, 3
  ``left>row``, then ``4 + source·10 + target`` for ``source>target`` with sources
  ``row, waste, h1 … h6`` and targets ``f1 … f8, row, waste``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

import spillebord.games  # noqa: F401  (registers the games)
from spillebord.core.cards import one_deck, stripped_deck
from spillebord.core.protocol import JSON, Action, State
from spillebord.core.registry import load
from spillebord.research.codec import Codec, EncodingError, start_state

MAX_STEPS = 2_000

POSTHUS_CARDS = tuple(stripped_deck())
POSTHUS_CARD = {c: i for i, c in enumerate(POSTHUS_CARDS)}
CARDS = tuple(one_deck())
CARD = {c: i for i, c in enumerate(CARDS)}
N = len(CARDS)
COLUMNS = "abcdefgh"


class PosthusCodec(Codec):
    places = 32
    n_actions = 2 + len(POSTHUS_CARDS) * 32
    size = 32 * len(POSTHUS_CARDS) + 4 + 3 + 1

    def observe(self, view: JSON) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        k = len(POSTHUS_CARDS)
        for r, row in enumerate(view["grid"]):
            for c, code in enumerate(row):
                if code is not None:
                    out[(r * 8 + c) * k + POSTHUS_CARD[code]] = 1.0
        at = 32 * k
        for r, run in enumerate(view["runs"]):
            out[at + r] = run / 7
        out[at + 4 + view["round"] - 1] = 1.0
        out[at + 7] = view["redeals_left"] / 2
        return out

    def index(self, view: JSON, action: Action) -> int:
        text = str(action)
        if text == "redeal":
            return 0
        if text == "resign":
            return 1
        card, _, place = text.partition(" ")
        if card in POSTHUS_CARD and len(place) == 2 and place[0] in COLUMNS:
            cell = (int(place[1]) - 1) * 8 + COLUMNS.index(place[0])
            return 2 + POSTHUS_CARD[card] * 32 + cell
        raise EncodingError(f"posthus has no action index for {text!r}")


STUDENTER_FIXED = {"resign": 0, "draw": 1, "redeal": 2, "left>row": 3}
SOURCES = ("row", "waste", *(f"h{i}" for i in range(1, 7)))
TARGETS = (*(f"f{i}" for i in range(1, 9)), "row", "waste")
RANKS = "A23456789TJQK"


class StudenterCodec(Codec):
    n_actions = 4 + len(SOURCES) * len(TARGETS)
    size = 13 + (1 + 3 * N) + 8 + 6 * N + (1 + 2 * N) + 1 + 3 + 1 + 1

    def observe(self, view: JSON) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        out[RANKS.index(view["base"])] = 1.0
        at = 13
        row = view["row"]
        out[at] = len(row) / 104
        if row:
            out[at + 1 + CARD[row[0]]] = 1.0
            out[at + 1 + N + CARD[row[-1]]] = 1.0
        for code in row:
            out[at + 1 + 2 * N + CARD[code]] += 0.5
        at += 1 + 3 * N
        for i, pile in enumerate(view["foundations"]):
            out[at + i] = len(pile) / 13
        at += 8
        for i, code in enumerate(view["helpers"]):
            if code is not None:
                out[at + i * N + CARD[code]] = 1.0
        at += 6 * N
        waste = view["waste"]
        out[at] = len(waste) / 104
        if waste:
            out[at + 1 + CARD[waste[-1]]] = 1.0
        for code in waste:
            out[at + 1 + N + CARD[code]] += 0.5
        at += 1 + 2 * N
        out[at] = view["stock_size"] / 104
        out[at + 1 + min(view["pass"], 3) - 1] = 1.0
        out[at + 4] = view["turn_overs_left"] / 2
        out[at + 5] = float(view["left_used"])
        return out

    def index(self, view: JSON, action: Action) -> int:
        text = str(action)
        fixed = STUDENTER_FIXED.get(text)
        if fixed is not None:
            return fixed
        source, _, target = text.partition(">")
        if source in SOURCES and target in TARGETS:
            return 4 + SOURCES.index(source) * len(TARGETS) + TARGETS.index(target)
        raise EncodingError(f"studenter has no action index for {text!r}")


class SolitaireEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One solitaire game; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, game: str, codec: Codec, render_mode: str | None = None,
                 **flags: bool) -> None:
        self.game = load(game)
        self.flags = self.game.check_flags(flags)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.codec = codec
        self.observation_space = spaces.Box(0.0, 1.0, (codec.size,), np.float32)
        self.action_space = spaces.Discrete(codec.n_actions)
        self.state_: State | None = None
        self._legal: dict[int, Action] = {}

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        assert self.state_ is not None
        mask = np.zeros(self.codec.n_actions, dtype=np.int8)
        mask[list(self._legal)] = 1
        info: dict[str, Any] = {"action_mask": mask}
        if self.state_.is_over:  # before, the deal number would rebuild hidden cards
            info["deal"] = self.state_.deal
        if illegal:
            info["illegal_action"] = True
        return info

    def _set(self, state: State) -> np.ndarray:
        self.state_ = state
        view = state.view(0)
        self._legal = self.codec.actions(view, state.legal_actions())
        return self.codec.observe(view)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        state = start_state(self.game, options, self.np_random, **self.flags)
        obs = self._set(state)
        return obs, self._info()

    def step(self, action: np.int64 | int
             ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        assert self.state_ is not None, "reset() first"
        chosen = self._legal.get(int(action))
        if chosen is None:
            obs = self.codec.observe(self.state_.view(0))
            return obs, 0.0, self.state_.is_over, False, self._info(illegal=True)
        obs = self._set(self.state_.apply_legal(chosen))
        outcome = self.state_.outcome
        gain = float(outcome.bonus) if outcome is not None else 0.0
        return obs, gain, outcome is not None, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None or self.state_ is None:
            return None
        return self.game.format_position(self.state_)


def posthus_env(render_mode: str | None = None, **flags: bool) -> SolitaireEnv:
    return SolitaireEnv("posthus", PosthusCodec(), render_mode, **flags)


def studenter_env(render_mode: str | None = None, **flags: bool) -> SolitaireEnv:
    return SolitaireEnv("studenter", StudenterCodec(), render_mode, **flags)


def register_envs() -> None:
    """Register both environments with Gymnasium (once)."""
    for env_id, entry in (("spillebord/Posthus-v0", "posthus_env"),
                          ("spillebord/Studenter-v0", "studenter_env")):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"spillebord.research.solitaire:{entry}",
                               max_episode_steps=MAX_STEPS)
