#!/usr/bin/env bash
# tests/tools/valgrind_mpi_test.sh: memcheck of a 2-rank `mpirun stiffkit run`: no memory error and no block lost on either rank, Open MPI's own reports suppressed by tests/valgrind/openmpi.supp
# Environment: STIFFKIT, MPIEXEC (the launcher and its options), VALGRIND, SUPP (the suppression
# file), CONFIG (the job). Exit 0 pass, 1 fail. stiffkit hands a rank to stiffkit-mpi (exec, the
# same pid): --trace-children follows it, and its log replaces the one of the exec'd stiffkit.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
# shellcheck disable=SC2086
$MPIEXEC -n 2 "$VALGRIND" --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
  --error-exitcode=9 --num-callers=50 --suppressions="$SUPP" --log-file=memcheck.%p.log \
  --trace-children=yes \
  "$STIFFKIT" run "$CONFIG" > out.txt 2>&1
rc=$?
fail=0
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; tail -n 20 out.txt; fail=1; }
grep -q "distributed over 2 ranks" out.txt || { echo "FAIL: the run was not distributed"; fail=1; }
logs=(memcheck.*.log)
[ "${#logs[@]}" -eq 2 ] || { echo "FAIL: ${#logs[@]} memcheck logs, expected 2"; fail=1; }
for f in "${logs[@]}"; do
  grep -q "ERROR SUMMARY: 0 errors" "$f" || { echo "FAIL: $f:"; grep -A 30 "^==[0-9]*== [A-Z]" "$f" | head -60; fail=1; }
  for kind in "definitely lost" "indirectly lost" "possibly lost"; do
    # a leak summary is printed only when something is left; "0 bytes" or none at all
    if grep -q "$kind:" "$f" && ! grep -q "$kind: 0 bytes in 0 blocks" "$f"; then
      echo "FAIL: $f: $(grep "$kind:" "$f")"
      fail=1
    fi
  done
done
[ "$fail" -eq 0 ] && echo "ok: 2 ranks under memcheck, no error and no block lost"
exit "$fail"
