"""Training the learned baselines (docs/research.md, "Learned baselines"): sb3-contrib's
MaskablePPO on ``SeatEnv`` (research/learned_env.py), CPU only, then the actor exported
to the numpy file ``research/learned.py`` plays.

This is the one module that imports torch, Stable-Baselines3 and sb3-contrib; they live
in the learning environment only (``make install-learn`` → ``.venv-learn``, locked in
requirements/learn.txt), never in the default or test installs.  mypy sees them as
``Any`` (pyproject.toml's ``ignore_missing_imports``), so the module type-checks where
torch is absent.

``RECIPES`` holds each game's recipe (seats, opponents, network, PPO settings, reward
shaping).  ``train(recipe, steps, seed, out)`` trains, exports and **checks the export**:
on observations sampled from the env, the numpy policy's logits must equal the torch
actor's and its masked argmax MaskablePPO's deterministic ``predict`` (else
``ExportError``, and no file is written).  ``main(game)`` is the command line of
``scripts/train_<game>.py`` (seed, steps or a CPU-minutes budget, Rich progress).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import sb3_contrib
import stable_baselines3
import torch
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from spillebord.research.learned import MlpPolicy, agent_path
from spillebord.research.learned_env import SeatEnv


class ExportError(RuntimeError):
    """The exported numpy policy does not act as the trained torch policy."""


@dataclass(frozen=True)
class Recipe:
    game: str
    seats: int = 4
    opponents: tuple[str, ...] = ("random", "L1", "self")
    shaping: float = 0.0
    net: tuple[int, ...] = (64, 64)
    envs: int = 8
    n_steps: int = 256  # per env and update
    batch_size: int = 256
    epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.99
    ent_coef: float = 0.01
    steps: int = 200_000  # the default training length (decisions of the learner)
    flags: dict[str, bool] = field(default_factory=dict)


RECIPES: dict[str, Recipe] = {
    # mostly forced moves: the env asks only where there is a choice (≈ 1 step in 20);
    # the cards held against the others' as potential-based shaping
    "gammel_jomfru": Recipe("gammel_jomfru", shaping=1.0),
    # long games (≈ 200 turns): the public board's progress as potential-based shaping
    "kugler": Recipe("kugler", opponents=("random", "L1", "L2", "self"), shaping=1.0,
                     net=(128, 64), steps=400_000),
}


def make_model(recipe: Recipe, seed: int) -> tuple[Any, list[SeatEnv]]:
    """A fresh MaskablePPO and its envs (one generator seed each: seed + i)."""
    torch.set_num_threads(1)  # the training machine is shared: one core
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    envs = [SeatEnv(recipe.game, recipe.seats, recipe.opponents, shaping=recipe.shaping,
                    **recipe.flags) for _ in range(recipe.envs)]

    def thunk(env: SeatEnv) -> Callable[[], SeatEnv]:
        return lambda: env

    vec = DummyVecEnv([thunk(e) for e in envs])
    vec.seed(seed)
    model = MaskablePPO(
        "MlpPolicy", vec, learning_rate=recipe.learning_rate, n_steps=recipe.n_steps,
        batch_size=recipe.batch_size, n_epochs=recipe.epochs, gamma=recipe.gamma,
        ent_coef=recipe.ent_coef, seed=seed, device="cpu", verbose=0,
        policy_kwargs={"net_arch": {"pi": list(recipe.net), "vf": list(recipe.net)},
                       "activation_fn": torch.nn.Tanh})
    return model, envs


def export(model: Any, meta: dict[str, Any]) -> MlpPolicy:
    """The model's actor as a numpy ``MlpPolicy`` (tanh hidden layers, linear logits)."""
    policy = model.policy
    if not isinstance(policy.features_extractor, torch.nn.Flatten) and \
            type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ExportError("only a flattening feature extractor is exported")
    layers: list[tuple[np.ndarray, np.ndarray]] = []
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, torch.nn.Linear):
            layers.append(_linear(module))
        elif not isinstance(module, torch.nn.Tanh):
            raise ExportError(f"cannot export a {type(module).__name__} layer")
    layers.append(_linear(policy.action_net))
    return MlpPolicy(layers, meta)


def _linear(module: Any) -> tuple[np.ndarray, np.ndarray]:
    weight = module.weight.detach().cpu().numpy().astype(np.float32).T.copy()
    bias = module.bias.detach().cpu().numpy().astype(np.float32).copy()
    return weight, bias


def torch_logits(model: Any, obs: np.ndarray) -> np.ndarray:
    """The torch actor's logits of a batch of observations."""
    policy = model.policy
    with torch.no_grad():
        x = torch.as_tensor(obs, dtype=torch.float32)
        latent = policy.mlp_extractor.forward_actor(policy.features_extractor(x))
        out: np.ndarray = policy.action_net(latent).cpu().numpy()
    return out


def sample_positions(env: SeatEnv, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` observations and masks of the learner, from random play in ``env``."""
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    while len(observations) < count:
        mask = env.action_masks()
        observations.append(obs)
        masks.append(mask)
        obs, _, done, _, _ = env.step(rng.choice(np.flatnonzero(mask).tolist()))
        if done:
            obs, _ = env.reset()
    return np.stack(observations), np.stack(masks)


def check_export(model: Any, policy: MlpPolicy, obs: np.ndarray, masks: np.ndarray,
                 atol: float = 1e-4) -> int:
    """Raise ``ExportError`` unless ``policy`` acts as ``model`` on every sample: equal
    logits (within ``atol``) and the same masked deterministic action.  The samples."""
    ours = policy.logits(obs)
    theirs = torch_logits(model, obs)
    if ours.shape != theirs.shape or not np.allclose(ours, theirs, atol=atol, rtol=1e-4):
        worst = float(np.max(np.abs(ours - theirs))) if ours.shape == theirs.shape else -1
        raise ExportError(f"the numpy logits differ from torch's (max difference {worst})")
    predicted, _ = model.predict(obs, action_masks=masks, deterministic=True)
    mine = np.array([policy.act(o, m) for o, m in zip(obs, masks, strict=True)])
    if not np.array_equal(np.asarray(predicted), mine):
        raise ExportError("the numpy policy's actions differ from MaskablePPO.predict")
    return len(obs)


def versions() -> dict[str, str]:
    return {"torch": torch.__version__, "stable_baselines3": stable_baselines3.__version__,
            "sb3_contrib": sb3_contrib.__version__, "numpy": np.__version__}


def train(recipe: Recipe, *, steps: int | None = None, seed: int = 1,
          out: Path | None = None, cpu_minutes: float | None = None,
          wall_minutes: float | None = None, samples: int = 256,
          report: Callable[[int, int, float], None] | None = None,
          chunk: int | None = None) -> MlpPolicy:
    """Train ``recipe`` for ``steps`` learner decisions (or until ``cpu_minutes`` of this
    process's CPU time or ``wall_minutes`` have passed, checked between chunks), export,
    check the export and write it to ``out`` (default: the shipped agent's path).
    ``report(steps, games, recent share of games won)`` after each chunk."""
    total = recipe.steps if steps is None else steps
    cpu0, wall0 = time.process_time(), time.perf_counter()
    model, envs = make_model(recipe, seed)
    per_update = recipe.envs * recipe.n_steps
    chunk = chunk or per_update * 4
    meta_base = {"game": recipe.game, "seats": recipe.seats, "seed": seed,
                 "recipe": {k: list(v) if isinstance(v, tuple) else v
                            for k, v in dataclasses.asdict(recipe).items()},
                 "algorithm": "MaskablePPO (sb3-contrib)", "versions": versions()}
    while model.num_timesteps < total:
        if cpu_minutes is not None and time.process_time() - cpu0 >= cpu_minutes * 60:
            break
        if wall_minutes is not None and time.perf_counter() - wall0 >= wall_minutes * 60:
            break
        model.learn(total_timesteps=min(chunk, total - model.num_timesteps),
                    reset_num_timesteps=False)
        snapshot = export(model, meta_base)
        for env in envs:
            env.set_self(snapshot)
        if report is not None:
            recent = [r for env in envs for r in env.results[-250:]]  # each env's latest
            share = sum(r > 0 for r in recent) / len(recent) if recent else 0.0
            report(int(model.num_timesteps), sum(len(env.results) for env in envs), share)
    games = sum(len(env.results) for env in envs)
    meta = {**meta_base, "steps": int(model.num_timesteps), "games": games,
            "cpu_seconds": round(time.process_time() - cpu0, 1),
            "wall_seconds": round(time.perf_counter() - wall0, 1),
            "trained": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    policy = export(model, meta)
    probe = SeatEnv(recipe.game, recipe.seats, ("random",), **recipe.flags)
    obs, masks = sample_positions(probe, samples, seed + 10_000)
    policy.meta["checked_samples"] = check_export(model, policy, obs, masks)
    policy.save(out or agent_path(recipe.game, recipe.seats))
    return policy


def main(game: str, argv: Sequence[str] | None = None) -> None:
    """The command line of ``scripts/train_<game>.py``."""
    recipe = RECIPES[game]
    parser = argparse.ArgumentParser(
        description=f"Train the learned {game} baseline (MaskablePPO, CPU) and export it.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=recipe.steps,
                        help=f"learner decisions (default {recipe.steps:,})")
    parser.add_argument("--cpu-minutes", type=float, default=None,
                        help="stop after this much CPU time (the steps are a cap)")
    parser.add_argument("--wall-minutes", type=float, default=None,
                        help="stop after this much wall-clock time")
    parser.add_argument("--out", type=Path, default=agent_path(game, recipe.seats),
                        help="the exported policy (.npz)")
    args = parser.parse_args(argv)
    console = Console()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[note]}"),
                  console=console) as progress:
        task = progress.add_task(f"{game} seed {args.seed}", total=args.steps, note="")

        def report(steps: int, games: int, share: float) -> None:
            note = f"{games:,} games, recent share won: {share:.3f}"
            progress.update(task, completed=steps, note=note)
            if not console.is_terminal:  # a log file: one line a chunk
                console.print(f"{steps:,} steps, {time.process_time():.0f} CPU s, {note}")

        policy = train(recipe, steps=args.steps, seed=args.seed, out=args.out,
                       cpu_minutes=args.cpu_minutes, wall_minutes=args.wall_minutes,
                       report=report)
    meta = policy.meta
    console.print(f"{args.out}: {meta['steps']:,} steps, {meta['games']:,} games, "
                  f"{meta['cpu_seconds']} CPU s, export checked on "
                  f"{meta['checked_samples']} observations")
