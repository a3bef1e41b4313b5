#!/usr/bin/env bash
# Times each step of `make test` (docs/testing.md): the set-up (venv, compiled core, services,
# Chromium) and then every command `make -n test` would run, one by one, with its wall-clock
# seconds. A failing step stops here, as it stops make.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
step() {  # step NAME COMMAND...
  local start=$EPOCHREALTIME
  "$@"
  awk -v a="$start" -v b="$EPOCHREALTIME" -v name="${*: -1}" \
    'BEGIN { printf "%-72s %6.1f s\n", substr(name, 1, 72), b - a }' >> "$TIMES"
}
TIMES=$(mktemp)
step make --no-print-directory venv
step make --no-print-directory services chromium
while IFS= read -r line; do
  step bash -c "$line"
done < <(make -n --no-print-directory test | grep -E '^(\.venv|FIVES_)')
echo
echo "step                                                          seconds"
cat "$TIMES"
rm -f "$TIMES"
