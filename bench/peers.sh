#!/usr/bin/env bash
# Side-by-side benchmark of fives against peer domino engines (OpenSpiel, `dominoes`).
# The peers get their own venv (bench/.venv-peers) so they never touch the project's .venv.
# Usage: bash bench/peers.sh [--seconds N] [--seed S]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON="${PYTHON:-python3.11}"
VENV=bench/.venv-peers
STAMP="$VENV/.stamp"

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
# Reinstall only when missing or when pyproject.toml / this script changed.
if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ] || [ bench/peers.sh -nt "$STAMP" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q open-spiel dominoes
    "$VENV/bin/python" -m pip install -q -e .
    touch "$STAMP"
fi

exec "$VENV/bin/python" bench/peers.py "$@"
