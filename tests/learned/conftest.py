"""The learning environment's tests (``make learn-smoke``, run by ``make test`` in
.venv-learn).  They need torch and Stable-Baselines3, which only .venv-learn has
(docs/research.md, "Learned baselines"): where torch is missing (``.venv``), this
folder is not collected, as tests/research is not without the research extra."""

from __future__ import annotations

from importlib.util import find_spec

LEARN_MODULES = ("torch", "stable_baselines3", "sb3_contrib")
collect_ignore_glob = [] if all(find_spec(m) for m in LEARN_MODULES) else ["test_*.py"]
