# fives: developer targets. Everything runs from the project's own venv (.venv).
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp
NATIVE := $(VENV)/.compiled
# The sources mypyc compiles (listed once, in src/fives/compiled.py).
COMPILED := $(shell $(PYTHON) src/fives/compiled.py 2>/dev/null)
# The core's tests run again on the pure modules, limited to what the compiled run cannot
# prove: tests/test_compiled.py already replays thousands of records and bots' decisions on
# both builds and compares them, so what is left is each build's own paths (refusals and the
# errors that quote them, hand-built positions, views, docstrings, the sampler's odds).
CORE_TESTS := tests/test_rules.py tests/test_examples.py tests/test_seeds.py \
              tests/test_rejections.py tests/test_view.py tests/test_docstrings.py \
              tests/test_config_header.py \
              tests/bots/test_sampling.py tests/bots/test_search_pinned.py \
              tests/bots/test_ismcts_pinned.py tests/bots/test_inference.py \
              tests/bots/test_halving_pinned.py tests/test_pickling.py
# pytest-xdist workers: more than the 2 cores, since much of the suite waits on servers, child
# processes and the browser rather than computing (docs/testing.md has the measurements).
JOBS ?= 4
PYTEST := $(BIN)/pytest -n $(JOBS)
# The browser tests' workers: three, though two cores, since each test waits on the page's own
# timers (a banner held two seconds, a line down for twenty) more than it computes: beside the
# long tests, 205 s against 267 s with two, the same hour on this machine (docs/testing.md).
BROWSER_JOBS ?= 3
# The quick loop's tests: the core, the bots, the server, the store and the command line, on
# the compiled build, without the long ones (marked slow), the terminal, the cluster and browser.
CHECK_TESTS := tests --ignore=tests/browser --ignore=tests/tui --ignore=tests/cluster \
               --ignore=tests/test_compiled.py -m "not slow"

.PHONY: venv run lint check test prepare system services chromium axe playthroughs bench bench-peers mutate clean

venv: $(NATIVE)

# Rebuilt only when pyproject.toml or setup.py changes (or the venv is missing). The editable
# install itself is pure; the compiled core is built in place below.
$(STAMP): pyproject.toml setup.py
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --upgrade pip "setuptools>=68"
	@FIVES_PURE=1 $(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

# The compiled core (mypyc), rebuilt in place whenever one of its sources changes. A build
# older than its sources is never used: fives.compiled checks each source's digest at import.
$(NATIVE): $(STAMP) setup.py src/fives/compiled.py $(COMPILED)
	@echo "compiling the core with mypyc (about a minute)"
	@touch $(NATIVE).start
	@# a module taken off the list must not leave its extension behind: Python imports it first
	@find src -name '*.cpython-*.so' -delete
	@env -u FIVES_PURE $(BIN)/python setup.py -q build_ext --inplace --force
	@mv $(NATIVE).start $(NATIVE)  # dated when the build began: a source edited since is newer

# The browser game on http://127.0.0.1:8000/ (it prints the address); Ctrl-C stops it.
run: venv
	$(BIN)/fives serve

# The quick loop while working (under 3 minutes): lint, types, and the unit tests of the core
# and the server. `make test` is the whole suite, what CI runs.
check: lint services
	FIVES_EXPECT_COMPILED=1 $(PYTEST) $(CHECK_TESTS)

lint: venv
	$(BIN)/ruff check src tests
	$(BIN)/mypy src/fives  # the core --strict (pyproject.toml), the layers around it checked

# The whole suite, in steps: lint and types (make lint); every test but the long and the browser ones, on
# the compiled core; the core's own paths again on the pure modules; then the long ones (marked
# slow: kills, partitions, the packaging build, a load run) beside the browser tests (their own
# pytest run: the sync Playwright API runs its own event loop): the long ones mostly wait, and
# both passed three times in a row beside two CPU hogs (docs/testing.md). (The pure rerun
# beside the long ones too was tried: 628 s against 583 s, the two slowing each other.)
test: prepare lint
	FIVES_EXPECT_COMPILED=1 $(PYTEST) --durations=8 --ignore=tests/browser -m "not slow"
	FIVES_PURE=1 $(BIN)/pytest -n 2 $(CORE_TESTS)
	@mkdir -p build/logs
	@echo "the long tests (marked slow) run beside the browser tests; their report follows"
	@FIVES_EXPECT_COMPILED=1 $(PYTEST) --durations=8 --ignore=tests/browser -m slow \
	    > build/logs/slow-tests.log 2>&1 & long=$$!; \
	  $(BIN)/pytest -n $(BROWSER_JOBS) --durations=12 tests/browser; browser=$$?; \
	  wait $$long; slow=$$?; cat build/logs/slow-tests.log; \
	  test $$browser -eq 0 && test $$slow -eq 0

# Debian's packages the tests use, each installed when missing: PostgreSQL and Redis (the store
# and cluster tests start their own throwaway servers, on free ports, in temporary folders) and
# tmux (the terminal game's widths are checked in a real terminal); Chromium with fonts for Latin
# and Devanagari for the browser tests (../shared/BROWSER-TESTS.md, never `playwright install`).
SERVICE_PACKAGES := postgresql redis-server tmux
BROWSER_PACKAGES := chromium fonts-liberation fonts-dejavu-core fonts-noto-core
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing with apt-get (once)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

services:
	$(call apt_install,$(SERVICE_PACKAGES))

chromium:
	$(call apt_install,$(BROWSER_PACKAGES))

# both in one apt-get (one update, one run of dpkg)
system:
	$(call apt_install,$(SERVICE_PACKAGES) $(BROWSER_PACKAGES))

# axe-core for the accessibility tests (tests/browser/test_browser_axe.py): its tarball from the
# npm registry, checked against its pinned SHA-512 (tools/fetch_axe.py; once, into build/npm).
# Debian's npm did this before: some 375 packages more for a fresh machine to unpack.
AXE := build/npm/node_modules/axe-core/axe.min.js
axe:
	@test -f $(AXE) || { echo "fetching axe-core from the npm registry (once)"; \
	  $(PYTHON) tools/fetch_axe.py $(AXE); }

# What the whole suite needs, the venv (pip, then mypyc: the CPU) beside Debian's packages and
# axe-core (apt-get and the registry: the network and the disk), which waited on each other.
prepare:
	@$(MAKE) --no-print-directory -j 2 venv system axe

# A mutation run bounded to one module and its guarding tests (tools/mutate.py), in
# build/mutate/<module>/: make mutate MODULE=src/fives/core/outcome.py [TESTS="..."] [MINUTES=60]
mutate: venv
	@test -n "$(MODULE)" || { echo "usage: make mutate MODULE=src/fives/core/NAME.py"; exit 2; }
	$(BIN)/python tools/mutate.py $(MODULE) $(TESTS)

# OpenSpiel's playthroughs of the bridge, written again (tests/bridges/playthroughs): after a
# change meant to alter the bridge's behaviour; read the diff before committing it.
playthroughs: venv
	$(BIN)/python tests/bridges/playthroughs/generate.py

bench: venv
	$(BIN)/fives bench engine

bench-peers:
	bash bench/peers.sh

clean:
	rm -rf build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache $(NATIVE)
	find src -name '*.so' -delete
	rm -f src/fives/_compiled_sources.py
