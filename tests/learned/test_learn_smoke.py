"""Smoke test of the learned baselines' training (docs/research.md, "Learned
baselines"), in the learning environment: each game's recipe trains MaskablePPO for a
few seconds, the export is checked against torch (and a wrong export is caught), and the
written file plays through ``LearnedBot`` without torch's help."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from spillebord import bots, games
from spillebord.research.learned import MlpPolicy, load_bot
from spillebord.research.learned_env import SeatEnv
from spillebord.research.learned_train import (
    RECIPES,
    ExportError,
    Recipe,
    check_export,
    export,
    make_model,
    sample_positions,
    train,
)


def _small(game: str) -> Recipe:
    return dataclasses.replace(RECIPES[game], envs=2, n_steps=64, batch_size=64, epochs=2)


@pytest.mark.parametrize("game", ["gammel_jomfru", "kugler"])
def test_training_for_a_few_seconds_exports_a_checked_policy(game: str,
                                                             tmp_path: Path) -> None:
    out = tmp_path / f"{game}.npz"
    reports: list[tuple[int, int, float]] = []
    policy = train(_small(game), steps=512, seed=7, out=out, samples=64, chunk=256,
                   report=lambda *r: reports.append(r))
    assert out.exists() and policy.meta["steps"] >= 512 and reports
    assert policy.meta["checked_samples"] == 64
    meta = MlpPolicy.load(out).meta
    assert meta["seed"] == 7 and meta["game"] == game and meta["cpu_seconds"] > 0
    # the file plays, in numpy, through the bot interface
    bot = load_bot(game, path=out)
    state = games.load(game).new(deal=3, seats=4)
    rng = random.Random(1)
    for _ in range(60):
        if state.to_move is None:
            break
        action = bot.choose(bots.Observation(state, state.to_move, rng))
        assert action in state.legal_actions()
        state = state.apply(action)


def test_check_export_catches_a_wrong_export() -> None:
    model, _ = make_model(_small("gammel_jomfru"), seed=3)
    policy = export(model, {"game": "gammel_jomfru", "seats": 4})
    probe = SeatEnv("gammel_jomfru", 4)
    obs, masks = sample_positions(probe, 32, seed=4)
    assert check_export(model, policy, obs, masks) == 32
    w, b = policy.layers[-1]
    wrong = MlpPolicy([*policy.layers[:-1], (w, b + np.float32(0.01))], policy.meta)
    with pytest.raises(ExportError, match="logits"):
        check_export(model, wrong, obs, masks)
