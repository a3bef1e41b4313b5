#!/usr/bin/env bash
# Side-by-side benchmark of fives against peer domino engines (OpenSpiel, `dominoes`).
# The peers get their own venv (bench/.venv-peers) so they never touch the project's .venv;
# fives runs from this checkout, compiled by `make venv` first (FIVES_PURE=1 measures the pure
# modules instead; the output says which ran).
# Usage: bash bench/peers.sh [--seconds N] [--seed S]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

make -s venv

PYTHON="${PYTHON:-python3.11}"
VENV=bench/.venv-peers
STAMP="$VENV/.stamp"

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
# Reinstall only when missing or when pyproject.toml / this script changed.
if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ] || [ setup.py -nt "$STAMP" ] \
    || [ bench/peers.sh -nt "$STAMP" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q open-spiel dominoes
    # an editable install of this checkout, pure: the compiled core is the one make venv
    # builds in place, so the two venvs never build it twice
    FIVES_PURE=1 "$VENV/bin/python" -m pip install -q -e .
    touch "$STAMP"
fi

exec "$VENV/bin/python" bench/peers.py "$@"
