#!/usr/bin/env bash
# tests/tools/signal_test.sh: SIGTERM during a run ends it with exit 75, a located message and only partial files
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
"$STIFFKIT" run --quiet --set model.n=[400] --set solver.rtol=1e-10 --set solver.atol=1e-13 \
  --set linsol.type=klu --set output.n_times=200 > out.txt 2> err.txt &
pid=$!
sleep 2
kill -TERM "$pid"
wait "$pid"
rc=$?
fail=0
[ "$rc" -eq 75 ] || { echo "FAIL: exit $rc, expected 75"; fail=1; }
grep -qF "run interrupted by a signal at t=" err.txt || { echo "FAIL: no interruption message"; fail=1; }
ls heat2d.csv heat2d.h5 heat2d.provenance.yaml 2> /dev/null && { echo "FAIL: final-name results exist"; fail=1; }
tail -n 1 heat2d.partial.csv | grep -q '^# status=incomplete' || { echo "FAIL: partial CSV not marked"; fail=1; }
if [ "$fail" -ne 0 ]; then cat err.txt; ls -la; exit 1; fi
echo "ok: SIGTERM -> exit 75 with partial results"
