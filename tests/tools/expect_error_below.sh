#!/usr/bin/env bash
# tests/tools/expect_error_below.sh: run `stiffkit run` and require its relative L2 error against the model's exact solution to be below a bound
# usage: expect_error_below.sh BOUND stiffkit-run-args...   (env: STIFFKIT)
set -eu
bound=$1; shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$STIFFKIT" run "$@" > run.log 2>&1 || { cat run.log; exit 1; }
err=$(sed -n 's/^ *relative L2 error = //p' run.log)
[ -n "$err" ] || { cat run.log; echo "FAIL: the run reported no error against an exact solution"; exit 1; }
awk -v e="$err" -v b="$bound" 'BEGIN { exit !(e + 0 < b + 0) }' \
  || { cat run.log; echo "FAIL: relative L2 error $err is not below $bound"; exit 1; }
echo "relative L2 error $err < $bound"
