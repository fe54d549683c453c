# Spillebord — the two quick-start commands:
#   make run    install into .venv and serve the app on http://127.0.0.1:8000 (SQLite)
#   make test   install everything the tests need (Python packages, Debian packages
#               chromium, postgresql, redis-server, nginx, nodejs, npm; the npm packages of
#               package-lock.json) and run ruff, mypy, the JS checks (tsc, eslint, node
#               tests), the learned baselines' smoke test (in .venv-learn) and pytest
# Every Python package comes from uv.lock (exact versions with hashes, made by uv from
# pyproject.toml's ranges); `make lock` refreshes it on purpose (docs/dependencies.md).
# The learning environment (.venv-learn: torch, Stable-Baselines3) is locked apart, in
# requirements/learn.txt (`make lock-learn`).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
TOOLS  := .tools
UV     := $(TOOLS)/bin/uv
# uv installs into $(VENV) with the machine's Python; it never downloads an interpreter.
SYNC   := UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never $(UV) sync --locked \
          --python $(PYTHON) --quiet

.PHONY: run test check install install-dev install-research install-test system-deps \
        lint typecheck jscheck pytest bench lock lock-check warm clean install-learn \
        learn-smoke lock-learn

# The installer, pinned with hashes in requirements/uv.txt.
$(UV): requirements/uv.txt
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --no-deps --require-hashes -r requirements/uv.txt
	touch $(UV)

# The app alone (keeps extras a developer already has: --inexact).
install: $(UV)
	$(SYNC) --inexact

# The test tools and the scale-out drivers (PostgreSQL, Redis), without the research extra.
install-dev: $(UV)
	$(SYNC) --extra dev --extra scale

# The research adapters and Ray batch tables on top (PettingZoo, Gymnasium, OpenSpiel, Ray).
install-research: $(UV)
	$(SYNC) --extra dev --extra scale --extra research

# What `make test` runs on: every extra.
install-test: install-research

# The compiled kernels (Kugler's rules and bots, the Posthus solver) built once per
# checkout into numba's cache, so neither the server's start nor a first move waits.
WARM := $(VENV)/.kernels-warm
$(WARM): uv.lock $(shell find src -name '*.py') | install
	$(BIN)/spillebord warm
	touch $(WARM)

warm: $(WARM)

run: install $(WARM)
	$(BIN)/spillebord serve --host $(HOST) --port $(PORT)

system-deps:
	bash scripts/system-deps.sh

# Refresh uv.lock to the newest releases pyproject.toml's ranges allow; review with
# `git diff --stat uv.lock`, `make lock-diff` and `make test` (docs/dependencies.md).
lock: $(UV)
	cp uv.lock $(TOOLS)/uv.lock.before 2>/dev/null || true
	$(UV) lock --upgrade --python $(PYTHON)
	$(BIN)/python scripts/lock_diff.py $(TOOLS)/uv.lock.before uv.lock || true

# Fails when uv.lock no longer matches pyproject.toml.
lock-check: $(UV)
	$(UV) lock --check --python $(PYTHON)

lint: install-test lock-check
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/mypy

# The web pages' JavaScript: type check (tsc over JSDoc, strict), ESLint, node unit tests.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

jscheck: node_modules/.package-lock.json
	npx --no-install tsc -p jsconfig.json
	npx --no-install eslint
	node --test tests/js/*.test.js

# The fast tier: rules, conformance, core, CLI (no server, browser, services or research
# tests, nothing marked slow).  With ruff, mypy and the JS checks: the inner loop.
FAST := not slow and not browser and not services and not server and not research
JOBS ?= 3

check: install-dev lock-check jscheck
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/mypy
	$(BIN)/pytest -m "$(FAST)" -n 2

# Every tier at once (scripts/pytest_tiers.sh): the services tests (tests/scale: real
# PostgreSQL, Redis, nginx, worker processes; mostly waiting on starts and fail-overs) in
# a pytest of their own, one at a time, BESIDE one pytest-xdist run of every other tier
# (--dist loadfile keeps a file's tests on one worker, so its module server starts once;
# --no-loadscope-reorder starts the files in tests/conftest.py's order, longest chains
# first).  SERVICES=after runs the services tests after the rest (docs/testing.md).
pytest: install-test $(WARM)
	BIN=$(BIN) JOBS=$(JOBS) bash scripts/pytest_tiers.sh

test: system-deps install-test lint jscheck learn-smoke pytest

# The learned baselines' training environment (docs/research.md, "Learned baselines"):
# torch (the CPU wheel on disk in $(WHEELS), never PyPI's CUDA build), Stable-Baselines3
# and sb3-contrib, every package locked with hashes in requirements/learn.txt and
# installed by pip into its own venv, apart from .venv; the project's src is put on its
# path (a .pth file), so it runs this checkout.
LEARN  ?= .venv-learn
WHEELS ?= /opt/wheels
$(LEARN)/.installed: requirements/learn.txt
	$(PYTHON) -m venv $(LEARN)
	$(LEARN)/bin/python -m pip install --quiet --disable-pip-version-check \
	    --require-hashes --find-links $(WHEELS) -r requirements/learn.txt
	echo "$(CURDIR)/src" > "$$($(LEARN)/bin/python -c \
	    'import sysconfig; print(sysconfig.get_paths()["purelib"])')/spillebord-src.pth"
	touch $@

install-learn: $(LEARN)/.installed

# Trains both games for a few seconds and checks the numpy export against torch (the
# kernels warmed first: numba's cache in src/ serves .venv-learn too).
learn-smoke: install-learn $(WARM)
	$(LEARN)/bin/python -m pytest tests/learned -p no:cacheprovider -W ignore::pytest.PytestConfigWarning

# Refresh requirements/learn.txt (after `make lock`, or to move torch/SB3 on purpose).
lock-learn: $(UV)
	$(UV) export --frozen --all-extras --no-hashes --no-emit-project \
	    --format requirements-txt --quiet > $(TOOLS)/learn-constraints.txt
	$(UV) pip compile --quiet --python-version 3.11 --generate-hashes \
	    --find-links $(WHEELS) --constraint $(TOOLS)/learn-constraints.txt \
	    --output-file requirements/learn.txt pyproject.toml requirements/learn.in

bench: install-test
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(LEARN) $(TOOLS) .mypy_cache .ruff_cache .pytest_cache node_modules
