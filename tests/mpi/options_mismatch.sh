#!/usr/bin/env bash
# tests/mpi/options_mismatch.sh: two ranks started with different --set options must both stop with the same message and exit 65
# usage: options_mismatch.sh   (env: STIFFKIT, MPIEXEC)
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
# MPMD launch: rank 0 and rank 1 run the same program with a different rtol
timeout 120 $MPIEXEC -n 1 "$STIFFKIT" run --quiet --set model.n=[16,16] \
  --set solver.rtol=1e-6 : -n 1 "$STIFFKIT" run --quiet --set model.n=[16,16] \
  --set solver.rtol=1e-5 > stdout.txt 2> stderr.txt
rc=$?
fail=0
[ "$rc" -eq 65 ] || { echo "FAIL: exit $rc, expected 65"; fail=1; }
grep -q "effective options differ between ranks" stderr.txt || { echo "FAIL: no mismatch message"; fail=1; }
n=$(grep -c "stiffkit: error:" stderr.txt)
[ "$n" -eq 1 ] || { echo "FAIL: $n error lines, expected one (rank 0 speaks for all)"; fail=1; }
files=$(ls -A | grep -v -e '^stdout.txt$' -e '^stderr.txt$' || true)
[ -z "$files" ] || { echo "FAIL: files left: $files"; fail=1; }
[ "$fail" -eq 0 ] || { cat stdout.txt stderr.txt; exit 1; }
echo "ok"
