# Reverie: `make run` starts the game server, `make test` runs every check,
# `make deck` rebuilds the default deck (DECK_ARGS="--art /tmp/art" to re-extract the art).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
DECK_ARGS ?=
# Extra options for the bench targets, e.g. make bench-load BENCH_ARGS='--rooms 100 --no-write'
BENCH_ARGS ?=
TEST_WORKERS ?= 3

.PHONY: run test lint typecheck unit bench bench-load bench-strokes deck clean jscheck vendor

# The browser client (src/reverie/web/static) has no build step; npm brings only the
# tools that check it (ESLint, TypeScript on the JSDoc-typed JS) and the pinned Preact
# that `make vendor` copies into static/vendor/ (package.json pins every version).
NODE_MODULES := node_modules
NODE_BIN := $(NODE_MODULES)/.bin
VENDOR := src/reverie/web/static/vendor

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

# The tests run in TEST_WORKERS processes (pytest-xdist), each with its own PostgreSQL
# and Redis (tests/services.py): most of the suite waits on servers, sockets and Chromium.
# node_modules first: the accessibility tests read axe-core from it, and under `make test`
# jscheck may be installing it at the same time.
unit: $(BIN)/.installed $(NODE_MODULES)/.installed
	$(BIN)/pytest -n $(TEST_WORKERS)

$(NODE_MODULES)/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Copy Preact's ES module build from the pinned npm package (the source map line dropped).
vendor: $(NODE_MODULES)/.installed
	mkdir -p $(VENDOR)/preact
	sed '/^\/\/# sourceMappingURL=/d' $(NODE_MODULES)/preact/dist/preact.mjs > $(VENDOR)/preact/preact.js
	cp $(NODE_MODULES)/preact/LICENSE $(VENDOR)/preact/LICENSE

jscheck: $(NODE_MODULES)/.installed
	$(NODE_BIN)/eslint --max-warnings=0
	$(NODE_BIN)/tsc --noEmit -p jsconfig.json
	sed '/^\/\/# sourceMappingURL=/d' $(NODE_MODULES)/preact/dist/preact.mjs | cmp - $(VENDOR)/preact/preact.js \
		|| (echo "static/vendor/preact/preact.js is not the pinned preact: run make vendor" && false)

# First what the system lacks: installed as root with apt-get, otherwise named in one line
# and nothing else runs (tools/prepare_tests.py). No service needs to be running.
# Then the four checks side by side (the tests mostly wait; lint, mypy and the JS checks
# fill the gaps), each check's output printed whole when it ends.
test:
	$(PYTHON) -m tools.prepare_tests
	$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck jscheck unit

# Run as modules from the repo root: the benchmarks import each other as `benchmarks.*`.
bench: $(BIN)/.installed
	$(BIN)/python -m benchmarks.engine $(BENCH_ARGS)

bench-load: $(BIN)/.installed
	$(BIN)/python -m benchmarks.load $(BENCH_ARGS)

bench-strokes: $(BIN)/.installed
	$(BIN)/python -m benchmarks.strokes $(BENCH_ARGS)

# The generator is a build tool outside the installed package: it runs from the checkout.
deck: $(BIN)/.installed
	$(BIN)/python -m tools.deckgen build $(DECK_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache $(NODE_MODULES)
