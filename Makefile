# fives: developer targets. Everything runs from the project's own venv (.venv).
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp

.PHONY: venv run test bench bench-peers clean

venv: $(STAMP)

# Rebuilt only when pyproject.toml changes (or the venv is missing).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --upgrade pip
	@$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

run: venv
	$(BIN)/fives replay ../shared/examples/seed-all-fives-spinner.json

test: venv
	$(BIN)/ruff check src tests
	$(BIN)/mypy src/fives/core
	$(BIN)/pytest

bench: venv
	$(BIN)/fives bench engine

bench-peers:
	bash bench/peers.sh

clean:
	rm -rf build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
