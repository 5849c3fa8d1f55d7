#!/usr/bin/env bash
# tests/tools/check_key_strings.sh: each key of the bound option tables (X-macro rows of steppers/stepper_keys.h, io/output_options.h, cli/bench_keys.h and models/bvp_keys.h) is written as a string in its table only (readers use its fields, messages name keys inside longer text)
set -euo pipefail
root=$1
fail=0
total=0
for table in "$root/src/steppers/stepper_keys.h" "$root/src/io/output_options.h" \
  "$root/src/cli/bench_keys.h" \
  "$root/src/models/bvp_keys.h"; do
  keys=$(grep -o '^  X([a-z_0-9]*, "[a-z_.0-9]*"' "$table" | sed 's/.*"\(.*\)"/\1/')
  count=$(printf '%s\n' "$keys" | grep -c . || true)
  [ "$count" -ge 5 ] || { echo "FAIL: no key rows found in $table"; exit 1; }
  total=$((total + count))
  for k in $keys; do
    others=$(grep -rlF "\"$k\"" "$root/src" | grep -vx "$table" || true)
    if [ -n "$others" ]; then
      echo "FAIL: \"$k\" is written outside ${table#"$root"/}, in: $(tr "\n" " " <<< "$others")"
      fail=1
    fi
  done
done
[ "$fail" -eq 0 ] && echo "OK: $total keys of the bound tables, each written once"
exit "$fail"
