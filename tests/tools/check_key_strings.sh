#!/usr/bin/env bash
# tests/tools/check_key_strings.sh: each solver.* and linsol.* key of steppers/stepper_keys.h is written as a string in that table only (readers use its fields, messages name keys inside longer text)
set -euo pipefail
root=$1
table="$root/src/steppers/stepper_keys.h"
keys=$(grep -o '^  X([a-z_0-9]*, "[a-z_.0-9]*"' "$table" | sed 's/.*"\(.*\)"/\1/')
[ "$(printf '%s\n' "$keys" | grep -c .)" -ge 30 ] || { echo "FAIL: no key rows found in $table"; exit 1; }
fail=0
for k in $keys; do
  others=$(grep -rlF "\"$k\"" "$root/src" | grep -vx "$table" || true)
  if [ -n "$others" ]; then
    echo "FAIL: \"$k\" is written outside $table, in: $(printf '%s ' $others)"
    fail=1
  fi
done
[ "$fail" -eq 0 ] && echo "OK: $(printf '%s\n' "$keys" | wc -l) keys, each written once (steppers/stepper_keys.h)"
exit "$fail"
