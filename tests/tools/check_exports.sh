#!/usr/bin/env bash
# tests/tools/check_exports.sh: libstiffkit.so exports the public API only (no sk__ symbol, every name declared in include/stiffkit/), the commands (PROGRAMS) exactly the same, each module its table and attach function only
set -euo pipefail
lib=$1
include_dir=$2
shift 2
fail=0
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRB]$/ {print $3}' | sort -u)
internal=$(printf '%s\n' "$exported" | grep '^sk__' || true)
if [ -n "$internal" ]; then
  echo "FAIL: $lib exports internal symbols:"
  printf '  %s\n' $internal
  fail=1
fi
declared=$(cat "$include_dir"/stiffkit/*.h | grep -o '\bsk_[a-z][a-z0-9_]*' | sort -u)
undeclared=$(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$declared"))
if [ -n "$undeclared" ]; then
  echo "FAIL: $lib exports names that no public header declares:"
  printf '  %s\n' $undeclared
  fail=1
fi
count=$(printf '%s\n' "$exported" | grep -c . || true)
if [ "$count" -lt 100 ]; then
  echo "FAIL: $lib exports only $count symbols: the public API is missing"
  fail=1
fi
# PROGRAMS: programs that hold stiffkit statically and export its public API to plugins
for program in ${PROGRAMS:-}; do
  theirs=$(nm -D --defined-only "$program" | awk '$2 ~ /^[TDRB]$/ {print $3}' | grep '^sk_' | sort -u)
  missing=$(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$theirs"))
  extra=$(comm -13 <(printf '%s\n' "$exported") <(printf '%s\n' "$theirs"))
  if [ -n "$missing$extra" ]; then
    echo "FAIL: $program does not export exactly libstiffkit's public API:"
    [ -n "$missing" ] && printf '  missing %s\n' $missing
    [ -n "$extra" ] && printf '  extra %s\n' $extra
    fail=1
  fi
done
for module in "$@"; do
  others=$(nm -D --defined-only "$module" | awk '$2 ~ /^[TDRB]$/ {print $3}' \
    | grep -v -E '^(sk__[a-z0-9_]*_module(_table)?|sk__module_attach)$' || true)
  if [ -n "$others" ]; then
    echo "FAIL: $module exports more than its table and sk__module_attach:"
    printf '  %s\n' $others
    fail=1
  fi
  undefined=$(nm -D --undefined-only "$module") # (no pipe into grep -q: pipefail and SIGPIPE)
  if grep -q ' sk_' <<< "$undefined"; then
    echo "FAIL: $module needs stiffkit symbols (it must use the host table):"
    nm -D --undefined-only "$module" | grep ' sk_'
    fail=1
  fi
done
[ "$fail" -eq 0 ] && echo "OK: $lib exports $count public symbols and no sk__ one; $# modules export their tables only"
exit "$fail"
