#!/usr/bin/env bash
# tests/tools/check_key_strings.sh: each key of the bound option tables (the X-macro rows of every header that defines a *_KEYS(X) table) is written as a string in its table only (readers use its fields, messages name keys inside longer text)
set -euo pipefail
root=$1
fail=0
total=0
tables=$(grep -rlE '^#define [A-Z_]+_KEYS\(X\)' "$root/src" --include='*.h' | sort)
ntables=$(printf '%s\n' "$tables" | grep -c . || true)
[ "$ntables" -ge 8 ] || { echo "FAIL: only $ntables bound tables found under src/"; exit 1; }
for table in $tables; do
  keys=$(grep -o '^  X([a-z_0-9]*, "[a-z_.0-9]*"' "$table" | sed 's/.*"\(.*\)"/\1/')
  count=$(printf '%s\n' "$keys" | grep -c . || true)
  [ "$count" -ge 1 ] || { echo "FAIL: no key rows found in $table"; exit 1; }
  total=$((total + count))
  for k in $keys; do
    others=$(grep -rlF "\"$k\"" "$root/src" | grep -vx "$table" || true)
    if [ -n "$others" ]; then
      echo "FAIL: \"$k\" is written outside ${table#"$root"/}, in: $(tr "\n" " " <<< "$others")"
      fail=1
    fi
  done
done
[ "$fail" -eq 0 ] && echo "OK: $total keys of $ntables bound tables, each written once"
exit "$fail"
