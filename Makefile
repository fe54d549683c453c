# Spillebord — the two quick-start commands:
#   make run    install into .venv and serve the app on http://127.0.0.1:8000 (SQLite)
#   make test   install everything the tests need (Python packages, Debian packages
#               chromium, postgresql, redis-server, nginx, nodejs, npm; the npm packages of
#               package-lock.json) and run ruff, mypy, the JS checks (tsc, eslint, node
#               tests) and pytest
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install install-dev system-deps lint typecheck jscheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,research]'

run: install
	$(BIN)/spillebord serve --host $(HOST) --port $(PORT)

system-deps:
	bash scripts/system-deps.sh

lint: install-dev
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

# The web pages' JavaScript: type check (tsc over JSDoc, strict), ESLint, node unit tests.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

jscheck: node_modules/.package-lock.json
	npx --no-install tsc -p jsconfig.json
	npx --no-install eslint
	node --test tests/js/*.test.js

pytest: install-dev
	$(BIN)/pytest

test: system-deps install-dev lint jscheck pytest

bench: install-dev
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache node_modules
