# Spillebord — the two quick-start commands:
#   make run    install into .venv and serve the app on http://127.0.0.1:8000 (SQLite)
#   make test   install everything the tests need (Python packages, Debian packages
#               chromium, postgresql, redis-server, nginx) and run ruff, mypy and pytest
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install install-dev system-deps lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'

run: install
	$(BIN)/spillebord serve --host $(HOST) --port $(PORT)

system-deps:
	bash scripts/system-deps.sh

lint: install-dev
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

pytest: install-dev
	$(BIN)/pytest

test: system-deps install-dev lint pytest

bench: install-dev
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
