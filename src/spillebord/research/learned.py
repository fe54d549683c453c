"""Learned baselines at play time, in plain numpy (docs/research.md, "Learned baselines").

A trained policy network (Stable-Baselines3's MaskablePPO, trained by
``scripts/train_<game>.py`` in the learning environment, ``make install-learn``) is
exported to a small ``.npz`` file: the actor's layers (weights and biases, float32) and
its metadata (game, seats, flags, seed, steps, training CPU time, library versions).
This module runs it without torch:

- ``MlpPolicy.load(path)`` / ``policy.logits(obs)`` / ``policy.act(obs, mask)``: the
  actor's forward pass (tanh hidden layers, linear output) and the masked argmax — the
  action MaskablePPO's ``predict(..., deterministic=True)`` picks (the training script
  checks the two equal on sample observations before it writes the file);
- ``LearnedBot``: the policy as a Spillebord bot (``bots.Bot``): it reads the seat's
  ``view`` and legal actions only, encodes them with the game's research codec (the same
  arrays ``jomfru_env``/``kugler_env`` hand an agent) and answers a legal action, so it
  plays anywhere a bot plays (matches, ``spillebord.research.agents``-style seats, the
  live bot client through ``pettingzoo_policy``);
- ``shipped(game)``: the baseline shipped with Spillebord for a game (``learned_agents/``
  beside this module), ``load_bot(game)`` as a bot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from spillebord.bots import Bot, Observation
from spillebord.core.protocol import Action
from spillebord.research.codec import Codec, codec_for

AGENTS = Path(__file__).with_name("learned_agents")
FORMAT = 1  # the file layout below; a reader refuses another


class MlpPolicy:
    """An exported actor: ``layers`` = [(W, b), …] applied as ``x @ W + b``, tanh between
    layers, the last layer's output the action logits.  ``meta`` is the file's metadata."""

    def __init__(self, layers: Sequence[tuple[np.ndarray, np.ndarray]],
                 meta: dict[str, Any] | None = None) -> None:
        if not layers:
            raise ValueError("a policy needs at least one layer")
        for (w, b), nxt in zip(layers, [*layers[1:], None], strict=True):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"bad layer shapes {w.shape}, {b.shape}")
            if nxt is not None and nxt[0].shape[0] != w.shape[1]:
                raise ValueError("layer sizes do not chain")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32))
                       for w, b in layers]
        self.meta: dict[str, Any] = dict(meta or {})

    @property
    def n_inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    @property
    def n_actions(self) -> int:
        return int(self.layers[-1][0].shape[1])

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The action logits of one observation ``(size,)`` or a batch ``(k, size)``."""
        x = np.asarray(obs, np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The legal action with the highest logit (the policy's deterministic choice)."""
        legal = np.asarray(mask, bool)
        if legal.shape != (self.n_actions,) or not legal.any():
            raise ValueError("the mask must mark at least one of the policy's actions")
        return int(np.argmax(np.where(legal, self.logits(obs), -np.inf)))

    def save(self, path: Path) -> None:
        """Write the policy (weights, biases, metadata) to ``path`` (.npz)."""
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        meta = {**self.meta, "format": FORMAT, "layers": len(self.layers)}
        arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> MlpPolicy:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(bytes(data["meta"]).decode())
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: not a learned policy of format {FORMAT}")
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(int(meta["layers"]))]
        return cls(layers, meta)


def agent_path(game: str, seats: int = 4) -> Path:
    """Where the shipped baseline of ``game`` at ``seats`` seats lives."""
    return AGENTS / f"{game}-{seats}.npz"


def shipped(game: str, seats: int = 4) -> MlpPolicy:
    """The learned baseline Spillebord ships for ``game`` (FileNotFoundError if none)."""
    return MlpPolicy.load(agent_path(game, seats))


class LearnedBot(Bot):
    """A learned policy as a Spillebord bot: the seat's view and legal actions, encoded by
    the game's research codec, go through the network; the best legal index is played."""

    name = "learned"

    def __init__(self, policy: MlpPolicy, codec: Codec) -> None:
        if policy.n_inputs != codec.size or policy.n_actions != codec.n_actions:
            raise ValueError(f"the policy takes {policy.n_inputs} inputs and "
                             f"{policy.n_actions} actions, the codec {codec.size} and "
                             f"{codec.n_actions}")
        self.policy = policy
        self.codec = codec

    def decide(self, obs: Observation) -> Action:
        view = obs.view()
        actions = self.codec.actions(view, obs.legal_actions())
        mask = np.zeros(self.codec.n_actions, bool)
        mask[list(actions)] = True
        return actions[self.policy.act(self.codec.observe(view), mask)]


def load_bot(game: str, seats: int = 4, path: Path | None = None) -> LearnedBot:
    """The shipped baseline of ``game`` (or the policy file at ``path``) as a bot."""
    policy = MlpPolicy.load(path or agent_path(game, seats))
    if policy.meta.get("game") != game or policy.meta.get("seats") != seats:
        raise ValueError(f"the policy file is for {policy.meta.get('game')} at "
                         f"{policy.meta.get('seats')} seats, not {game} at {seats}")
    return LearnedBot(policy, codec_for(game, seats))


def pettingzoo_policy(policy: MlpPolicy) -> Callable[[Any, str | None], int]:
    """``fn(observation, agent) -> index`` for the table envs' dict observations (and the
    live bot client's ``--kind pettingzoo``): the policy's best action in the mask."""

    def act(observation: Any, agent: str | None = None) -> int:
        return policy.act(observation["observation"], observation["action_mask"])

    return act
