#!/usr/bin/env bash
# tests/tools/check_key_once.sh: every option key `stiffkit run --help-options` lists is written as a whole string in at most one file of src/ and include/ (its table; readers use the table's rows, messages name keys inside longer text; keys built from parts, as the six sides' boundary keys, appear in none)
# usage: check_key_once.sh STIFFKIT ROOT
set -euo pipefail
sk=$1
root=$2
keys=$("$sk" run --help-options | grep -oE '^ *[a-z_0-9]+\.[a-z_.0-9]+' | tr -d ' ' | sort -u)
count=$(printf '%s\n' "$keys" | grep -c . || true)
[ "$count" -ge 150 ] || { echo "FAIL: only $count keys listed by --help-options"; exit 1; }
fail=0
for k in $keys; do
  files=$(grep -rlF "\"$k\"" "$root/src" "$root/include" || true)
  n=$(printf '%s' "$files" | grep -c . || true)
  if [ "$n" -gt 1 ]; then
    echo "FAIL: \"$k\" is written in $n files: $(tr '\n' ' ' <<< "$files")"
    fail=1
  fi
done
[ "$fail" -eq 0 ] && echo "OK: $count keys, each written as a string in at most one file"
exit "$fail"
