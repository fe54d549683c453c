"""What the compiled batches share (``JomfruBatch``, ``KuglerBatch``; docs/research.md,
"Vector engine"): reading one step's actions, so both refuse the same bad input alike."""

from __future__ import annotations

from typing import Any

import numpy as np


def step_actions(actions: Any, num_envs: int) -> np.ndarray:
    """``actions`` as an int64 array of one action id per game (−1: none); a wrong
    shape, a non-integer array or an id below −1 raises ``ValueError`` (the batch then
    checks each id against its game's mask, before any game moves)."""
    a = np.asarray(actions)
    if a.shape != (num_envs,) or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{num_envs} integer actions needed, got shape {a.shape} of "
                         f"{a.dtype}")
    low = np.flatnonzero(a < -1)
    if len(low):
        b = int(low[0])
        raise ValueError(f"action {int(a[b])} is not legal in game {b} (−1 plays none)")
    return a.astype(np.int64, copy=False)
