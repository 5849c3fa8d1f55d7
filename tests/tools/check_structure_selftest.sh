#!/usr/bin/env bash
# tests/tools/check_structure_selftest.sh: check_structure.py must report a circle and a call up a layer in objects built to have them, and pass objects without them
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/x.dir/core" "$d/x.dir/cli"
printf 'int b(void);\nint a(void) { return b(); }\n' > "$d/a.c"
printf 'int a(void);\nint b(void) { return a() + 1; }\n' > "$d/b.c"
printf 'int top(void) { return 1; }\n' > "$d/top.c"
printf 'int top(void);\nint low(void) { return top(); }\n' > "$d/low.c"
cc -c "$d/a.c" -o "$d/x.dir/core/a.c.o"
cc -c "$d/b.c" -o "$d/x.dir/core/b.c.o"
cc -c "$d/top.c" -o "$d/x.dir/cli/top.c.o"
cc -c "$d/low.c" -o "$d/x.dir/core/low.c.o"
if out=$(python3 "$here/check_structure.py" src "$d"/x.dir/core/*.o "$d"/x.dir/cli/*.o); then
  echo "FAIL: a circle and an upward call passed"; echo "$out"; exit 1
fi
echo "$out"
grep -q '^circle: core/a.c <-> core/b.c$' <<< "$out" || { echo "FAIL: circle not named"; exit 1; }
grep -q '^upward: core/low.c (layer 1) -> cli/top.c' <<< "$out" || { echo "FAIL: upward call not named"; exit 1; }
# the same units without the offending ones pass
python3 "$here/check_structure.py" src "$d/x.dir/core/a.c.o" "$d/x.dir/cli/top.c.o"
echo "check_structure self-test: PASS"
