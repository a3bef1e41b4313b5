# fives: developer targets. Everything runs from the project's own venv (.venv).
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp

.PHONY: venv run test services chromium bench bench-peers clean

venv: $(STAMP)

# Rebuilt only when pyproject.toml changes (or the venv is missing).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --upgrade pip
	@$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

# The browser game on http://127.0.0.1:8000/ (it prints the address); Ctrl-C stops it.
run: venv
	$(BIN)/fives serve

test: venv services
	$(BIN)/ruff check src tests
	$(BIN)/mypy src/fives/core
	$(BIN)/pytest --ignore=tests/browser
	@$(MAKE) --no-print-directory chromium
	$(BIN)/pytest tests/browser

# The store and cluster tests start their own throwaway PostgreSQL and Redis servers (on free
# ports, in temporary folders) from Debian's packages, installed here when missing.
services:
	@if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || ! command -v redis-server >/dev/null 2>&1; then \
	  echo "installing postgresql and redis-server with apt-get (once)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql redis-server >/dev/null; \
	fi

# The browser tests drive Debian's Chromium (../shared/BROWSER-TESTS.md, never `playwright
# install`); installed here when missing, with fonts for Latin and Devanagari.
chromium:
	@if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s fonts-noto-core >/dev/null 2>&1; then \
	  echo "installing chromium and fonts with apt-get (once)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    chromium fonts-liberation fonts-dejavu-core fonts-noto-core >/dev/null; \
	fi

bench: venv
	$(BIN)/fives bench engine

bench-peers:
	bash bench/peers.sh

clean:
	rm -rf build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache
