"""``spillebord warm`` (make install runs it): every kernel a first move or hint would
compile is run once, so it lands in numba's cache before any player waits for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spillebord import bots, games, solvers
from spillebord.cli.warm import steps


def test_warm_covers_every_game_level_and_solver() -> None:
    labels = [label for label, _ in steps()]
    for key in list(games.keys()):
        assert f"{key}: rules" in labels
        for number in bots.levels(key):
            assert f"{key}: level {number} bot" in labels
        if solvers.has_solver(key):
            assert f"{key}: hint" in labels


@pytest.mark.slow
def test_warm_command_runs_every_step_and_says_so() -> None:
    exe = Path(sys.executable).with_name("spillebord")
    done = subprocess.run([str(exe), "warm", "--quiet"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("kernels ready in ")
