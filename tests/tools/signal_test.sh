#!/usr/bin/env bash
# tests/tools/signal_test.sh: SIGTERM during a run ends it with exit 75, a located message, partial files and a checkpoint from which --restart completes the run without gaps or duplicate times
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
args=(--no-stats --set model.n=[400] --set solver.rtol=1e-10 --set solver.atol=1e-13
  --set linsol.type=klu --set output.n_times=200)
"$STIFFKIT" run "${args[@]}" > out.txt 2> err.txt &
pid=$!
# signal once the integration runs: its CSV (flushed row by row) holds the header and two rows
# (a signal during the setup ends the run before any output: tools/signal_phases_test.sh)
for ((i = 0; i < 1200; i++)); do
  [ "$(wc -l < heat2d.csv.tmp."$pid" 2> /dev/null || echo 0)" -ge 3 ] && break
  kill -0 "$pid" 2> /dev/null || break
  sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
rc=$?
fail=0
[ "$rc" -eq 75 ] || { echo "FAIL: exit $rc, expected 75"; fail=1; }
grep -qF "run interrupted by SIGTERM at t=" err.txt || { echo "FAIL: no interruption message"; fail=1; }
grep -qF -- "--restart ./heat2d.ckpt" err.txt || { echo "FAIL: the message does not say how to continue"; fail=1; }
ls heat2d.csv heat2d.h5 heat2d.provenance.yaml 2> /dev/null && { echo "FAIL: final-name results exist"; fail=1; }
tail -n 1 heat2d.partial.csv | grep -q '^# status=incomplete' || { echo "FAIL: partial CSV not marked"; fail=1; }
[ -s heat2d.ckpt ] || { echo "FAIL: no checkpoint written"; fail=1; }
"$STIFFKIT" run "${args[@]}" --restart heat2d.ckpt > out2.txt 2> err2.txt
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: the restart exited $rc"; cat err2.txt; fail=1; }
grep -q "^continued from checkpoint heat2d.ckpt at t = " out2.txt || { echo "FAIL: no restart line"; fail=1; }
# outputs t = k * 0.1 / 200, k = 0..200: each exactly once, in order
awk -F, 'NR > 1 { k = NR - 2; if ($1 + 0 != k * 0.1 / 200 && ($1 - k * 0.1 / 200) ^ 2 > 1e-30) bad++ }
  END { if (NR != 202 || bad) { print "FAIL: " NR - 1 " rows, " bad + 0 " wrong times"; exit 1 } }' \
  heat2d.csv || fail=1
[ -e heat2d.ckpt ] && { echo "FAIL: the checkpoint of a completed run was kept"; fail=1; }
ls heat2d.partial.* 2> /dev/null && { echo "FAIL: partial files outlive the completed run"; fail=1; }
if [ "$fail" -ne 0 ]; then cat err.txt; ls -la; exit 1; fi
echo "ok: SIGTERM -> exit 75 with partial results and a checkpoint; --restart completes all 201 outputs"
