# Reverie: `make run` starts the game server, `make test` runs every check,
# `make deck` rebuilds the default deck (DECK_ARGS="--art /tmp/art" to re-extract the art).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
DECK_ARGS ?=

.PHONY: run test lint typecheck unit bench deck clean

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/reverie serve --host $(HOST) --port $(PORT)

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(BIN)/.installed
	$(BIN)/mypy

unit: $(BIN)/.installed
	$(BIN)/pytest

test: lint typecheck unit

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/engine.py

# The generator is a build tool outside the installed package: it runs from the checkout.
deck: $(BIN)/.installed
	$(BIN)/python -m tools.deckgen build $(DECK_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
