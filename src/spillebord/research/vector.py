"""A batch of table environments stepped together (docs/research.md, "Vector envs").

``TableVecEnv(make, num_envs)`` holds ``num_envs`` independent ``TableEnv``s made by
``make()`` (any options: ``auto_forced``, ``flat`` …) and steps each one's **seat to
move** with one action per env.  Arrays come batched: observations ``(num_envs, size)``
and masks ``(num_envs, n_actions)`` of each env's mover, ``movers`` the seat numbers.
A finished game's per-seat rewards come back in that step's ``rewards[i]`` (shape
``(num_envs, seats)``; 0 elsewhere), ``dones[i]`` is True, and env ``i`` starts its next
game at once (auto-reset: the observation returned is the new game's).  Seeding:
``reset(seed=s)`` seeds env ``i`` with ``s + i``; the next games follow from each env's
own generator.  The solitaires need no wrapper: Gymnasium's ``gymnasium.make_vec``
works on their ids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from spillebord.research.codec import reward
from spillebord.research.table import TableEnv


class TableVecEnv:
    """``num_envs`` table envs stepped together; see the module docstring."""

    def __init__(self, make: Callable[[], TableEnv], num_envs: int) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        self.envs = [make() for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.seats = first.seats
        self.single_observation_size = first.codec.size
        self.single_n_actions = first.codec.n_actions

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Observations, masks and movers of every env's first position."""
        for i, env in enumerate(self.envs):
            env.reset(seed=None if seed is None else seed + i)
            self._start(env)
        return self._batch()

    def step(self, actions: Sequence[int] | np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per env for its seat to move: observations, masks, movers, rewards
        ``(num_envs, seats)`` and dones; a finished env has already been reset.  An
        action outside an env's mask raises ``ValueError`` before any env moves."""
        if len(actions) != self.num_envs:
            raise ValueError(f"{self.num_envs} actions needed, got {len(actions)}")
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if int(action) not in env._legal:
                raise ValueError(f"action {int(action)} is not legal in env {i} "
                                 f"(legal: {sorted(env._legal)})")
        rewards = np.zeros((self.num_envs, self.seats), dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            env.step(int(action))
            if env._to_move is None:  # the game is over
                rewards[i] = self._rewards(env)
                dones[i] = True
                env.reset()
                self._start(env)
        obs, masks, movers = self._batch()
        return obs, masks, movers, rewards, dones

    @staticmethod
    def _start(env: TableEnv) -> None:
        """Deal again while a new game is over at once (all forced, ``auto_forced``)."""
        while env._to_move is None:
            env.reset()

    def _rewards(self, env: TableEnv) -> np.ndarray:
        assert env.state_ is not None and env.state_.outcome is not None
        return np.array([reward(env.state_.outcome, s) for s in range(self.seats)],
                        dtype=np.float32)

    def _batch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs = np.stack([e._observe(e.agent_selection)["observation"] for e in self.envs])
        masks = np.stack([e._mask for e in self.envs])
        movers = np.array([e._to_move for e in self.envs], dtype=np.int64)
        return obs, masks, movers

    def close(self) -> None:
        for env in self.envs:
            env.close()
