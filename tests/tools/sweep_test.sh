#!/usr/bin/env bash
# tests/tools/sweep_test.sh: parameter sweeps through the CLI: local pool, resubmission, failed and missing cases, refusal of another sweep, Slurm script, no sbatch, interruption, plugin parameters
# usage: sweep_test.sh SCENARIO   (local | failed | refuse | slurm | nosbatch | interrupt | plugin)
# Environment: STIFFKIT (the binary); for plugin: SK_DATA (data/) and ROD_PLUGIN (rod_model.so).
# Every sweep runs the small heat problem of the embedded default job on a 10 x 10 grid to
# t = 0.05 with 4 output times (0.0125, 0.025, 0.0375, 0.05), a run of a fraction of a second.
set -u
scenario=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
fail=0
check() { # check MESSAGE COMMAND...: record a failure when the command fails
  local msg=$1
  shift
  if ! "$@"; then
    echo "FAIL: $msg"
    fail=1
  fi
}
expect_rc() { # expect_rc WANT GOT WHAT
  if [ "$2" -ne "$1" ]; then
    echo "FAIL: $3: exit $2, expected $1"
    echo "--- stdout"; cat out.txt 2> /dev/null; echo "--- stderr"; cat err.txt 2> /dev/null
    fail=1
  fi
}
field() { # field FILE KEY: a value of a status.json
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"
}
csv_col() { # csv_col FILE COLUMN: the column (by header name) of every row
  /usr/bin/python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(' '.join(r[sys.argv[2]] for r in rows))" "$1" "$2"
}
small='set: {model.n: [10], solver.t_end: 0.05, output.n_times: 4}'

case "$scenario" in
local)
  # 2 x 2 product, the last parameter fastest: (1e-4, 0.5) (1e-4, 2) (1e-6, 0.5) (1e-6, 2)
  cat > s.yaml << EOF
output: out
$small
parameters:
  solver.rtol: [1.0e-4, 1.0e-6]
  model.k0: {range: [0.5, 2], num: 2}
EOF
  "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "sweep -j 2"
  for i in 0000 0001 0002 0003; do
    check "case $i status ok" test "$(field out/cases/$i/status.json status)" = ok
    check "case $i ran once" test "$(field out/cases/$i/status.json attempts)" = 1
    check "case $i results" test -s out/cases/$i/heat2d.csv
  done
  check "case 0001 config holds its values" grep -qx 'model.k0: 2' out/cases/0001/config.yaml
  check "case 0001 config holds its rtol" grep -qx 'solver.rtol: 0.0001' out/cases/0001/config.yaml
  check "case 0001 writes into its directory" grep -qx 'output.dir: out/cases/0001' out/cases/0001/config.yaml
  "$STIFFKIT" collect out > out.txt 2> err.txt
  expect_rc 0 $? "collect"
  check "collect.csv: header and 4 rows" test "$(wc -l < out/collect.csv)" -eq 5
  check "collect.csv: parameter columns in expansion order" \
    test "$(csv_col out/collect.csv solver.rtol) / $(csv_col out/collect.csv model.k0)" = "1.0e-4 1.0e-4 1.0e-6 1.0e-6 / 0.5 2 0.5 2"
  check "collect.csv: every case ok" test "$(csv_col out/collect.csv status)" = "ok ok ok ok"
  check "collect.csv: statistics" test "$(csv_col out/collect.csv stats.steps | wc -w)" -eq 4
  check "collect.h5 written" test -s out/collect.h5
  # the final max_abs_y of case 0003 is the last row of its own results
  last=$(tail -n 1 out/cases/0003/heat2d.csv | cut -d, -f3)
  got=$(csv_col out/collect.csv max_abs_y | cut -d' ' -f4)
  check "collect: max_abs_y of case 0003 ($got) is its final row ($last)" \
    /usr/bin/python3 -c "import sys; sys.exit(0 if float('$got') == float('$last') else 1)"
  # any case reruns alone from its resolved config
  (mkdir rerun && cd rerun && "$STIFFKIT" run --quiet ../out/cases/0002/config.yaml --set output.dir=. > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "case 0002 rerun alone"
  check "case 0002 alone gives the same answer" cmp -s rerun/heat2d.csv out/cases/0002/heat2d.csv
  # resubmission: every case is complete, nothing runs again
  "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "resubmission"
  check "resubmission skips 4 complete cases" grep -q "4 complete (skipped); 0 to run" out.txt
  check "resubmission ran nothing" test "$(field out/cases/0000/status.json attempts)" = 1
  ;;
failed)
  # case 1 names an engine that does not exist: `stiffkit run` exits 65
  cat > f.yaml << EOF
output: out
$small
parameters:
  solver.method: [cvode-bdf, rk99, bdf2]
collect: {probes: ["u[5,5]"], times: [0.025, 0.03]}
EOF
  "$STIFFKIT" sweep f.yaml --slurm > out.txt 2> err.txt # writes the cases, runs none
  expect_rc 0 $? "sweep --slurm"
  "$STIFFKIT" sweep --case 0 out > out.txt 2> err.txt
  expect_rc 0 $? "case 0"
  "$STIFFKIT" sweep --case 1 out > out.txt 2> err.txt
  expect_rc 65 $? "case 1"
  check "case 1 failed" test "$(field out/cases/0001/status.json status)" = failed
  "$STIFFKIT" sweep --case 7 out > out.txt 2> err.txt
  expect_rc 64 $? "case 7 of 3"
  # case 2 never ran
  "$STIFFKIT" collect out > out.txt 2> err.txt
  expect_rc 10 $? "collect with a failed and a missing case"
  check "collect names the failed case and its message" \
    grep -qF "case 0001 failed (exit 65): unknown solver 'rk99'" err.txt
  check "collect names the missing case" grep -qF "case 0002 missing: never run" err.txt
  check "collect.csv statuses" test "$(csv_col out/collect.csv status)" = "ok failed missing"
  check "collect.csv exit codes" test "$(csv_col out/collect.csv exit_code)" = "0 65 nan"
  check "collect.csv error column" grep -qF "unknown solver 'rk99'" out/collect.csv
  # u[5,5] at t = 0.025 is the row of that time (line 4: header, t = 0, 0.0125, 0.025); at
  # 0.03, 2/5 of the way from 0.025 to 0.0375 (line 5)
  read -r v1 v2 <<< "$(awk -F, 'NR==4{a=$2} NR==5{b=$2} END{printf "%.10e %.10e", a, a + 0.4*(b-a)}' out/cases/0000/heat2d.csv)"
  g1=$(csv_col out/collect.csv 'u[5,5]@t=0.025' | cut -d' ' -f1)
  g2=$(csv_col out/collect.csv 'u[5,5]@t=0.03' | cut -d' ' -f1)
  check "probe at t=0.025: $g1 = $v1, at t=0.03: $g2 = $v2" /usr/bin/python3 -c "
import sys
ok = abs($g1 - $v1) <= 1e-12 * abs($v1) and abs($g2 - $v2) <= 1e-9 * abs($v2)
sys.exit(0 if ok else 1)"
  # fix the failed case's config; --only-failed reruns it alone
  sed -i 's/^solver.method: rk99$/solver.method: cvode-adams/' out/cases/0001/config.yaml
  "$STIFFKIT" sweep f.yaml --only-failed -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "--only-failed"
  check "--only-failed runs one case" grep -q "1 complete (skipped); 1 to run (failed or interrupted)" out.txt
  check "case 1 ok on its second attempt" test "$(field out/cases/0001/status.json status) $(field out/cases/0001/status.json attempts)" = "ok 2"
  check "--only-failed left the missing case alone" test ! -e out/cases/0002/status.json
  # a plain resubmission runs the one case left
  "$STIFFKIT" sweep f.yaml > out.txt 2> err.txt
  expect_rc 0 $? "resubmission"
  check "resubmission runs one case" grep -q "2 complete (skipped); 1 to run" out.txt
  "$STIFFKIT" collect out > out.txt 2> err.txt
  expect_rc 0 $? "collect after the reruns"
  ;;
refuse)
  printf 'output: out\n%s\nparameters:\n  solver.rtol: [1.0e-4]\n' "$small" > a.yaml
  printf 'output: out\n%s\nparameters:\n  solver.rtol: [1.0e-5]\n' "$small" > b.yaml
  "$STIFFKIT" sweep a.yaml > out.txt 2> err.txt
  expect_rc 0 $? "sweep a"
  cp out/sweep.yaml manifest.before
  "$STIFFKIT" sweep b.yaml > out.txt 2> err.txt
  expect_rc 65 $? "sweep b into a's directory"
  check "refusal names the other sweep" grep -qF "'out' already holds a different sweep (from a.yaml" err.txt
  check "refusal changed nothing" cmp -s manifest.before out/sweep.yaml
  "$STIFFKIT" sweep b.yaml --overwrite > out.txt 2> err.txt
  expect_rc 0 $? "sweep b --overwrite"
  check "--overwrite replaced the sweep" grep -qx 'source: "b.yaml"' out/sweep.yaml
  check "--overwrite ran b's case" grep -qx 'solver.rtol: 1e-05' out/cases/0000/config.yaml
  ;;
slurm)
  printf 'output: out\n%s\nparameters:\n  solver.rtol: [1.0e-4, 1.0e-5, 1.0e-6, 1.0e-7]\nslurm: {partition: debug, time: "00:10:00", mem: 1G, max_parallel: 2, signal_seconds: 90}\n' "$small" > s.yaml
  "$STIFFKIT" sweep s.yaml --slurm > out.txt 2> err.txt
  expect_rc 0 $? "sweep --slurm"
  for line in "#SBATCH --array=0-3%2" "#SBATCH --requeue" "#SBATCH --open-mode=append" \
              "#SBATCH --signal=B:USR1@90" "#SBATCH --chdir=$PWD" "#SBATCH --partition=debug" \
              "#SBATCH --time=00:10:00" "#SBATCH --mem=1G" "#SBATCH --ntasks=1" \
              "#SBATCH --output=$PWD/out/cases/%4a/slurm.out" \
              "exec $STIFFKIT sweep --case \"\$SLURM_ARRAY_TASK_ID\" $PWD/out"; do
    check "script line: $line" grep -qxF -- "$line" out/sweep.sbatch
  done
  check "no case ran" test ! -e out/cases/0000/status.json
  # cases 0 and 2 complete: a resubmission's array lists the others; flags override the file
  "$STIFFKIT" sweep --case 0 out > out.txt 2> err.txt && "$STIFFKIT" sweep --case 2 out > out.txt 2> err.txt
  expect_rc 0 $? "cases 0 and 2"
  "$STIFFKIT" sweep s.yaml --slurm --partition long --max-parallel 1 > out.txt 2> err.txt
  expect_rc 0 $? "resubmission --slurm"
  check "resubmission array" grep -qxF "#SBATCH --array=1,3%1" out/sweep.sbatch
  check "partition from the command line" grep -qxF "#SBATCH --partition=long" out/sweep.sbatch
  # MPI cases: the signal goes to the srun-launched ranks
  printf 'output: mpi\n%s\nparameters:\n  solver.rtol: [1.0e-4]\nslurm: {ntasks: 4}\n' "$small" > m.yaml
  "$STIFFKIT" sweep m.yaml --slurm > out.txt 2> err.txt
  expect_rc 0 $? "sweep --slurm with ntasks 4"
  check "MPI script signal" grep -qxF "#SBATCH --signal=USR1@60" mpi/sweep.sbatch
  check "MPI script tasks" grep -qxF "#SBATCH --ntasks=4" mpi/sweep.sbatch
  ;;
nosbatch)
  printf 'output: out\n%s\nparameters:\n  solver.rtol: [1.0e-4, 1.0e-6]\n' "$small" > s.yaml
  PATH=/nonexistent "$STIFFKIT" sweep s.yaml --submit > out.txt 2> err.txt
  expect_rc 69 $? "--submit without sbatch"
  check "the message says what to do" grep -qF \
    "sbatch not found in PATH: install slurm-client or run the sweep locally (without --slurm)" err.txt
  check "nothing was written" test ! -e out
  PATH=/nonexistent "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "the same sweep run locally"
  ;;
interrupt)
  # two cases of about five seconds each (200 x 200 grid, tight tolerances)
  cat > s.yaml << EOF
output: out
set: {model.n: [200], solver.atol: 1.0e-13, linsol.type: klu, output.n_times: 50}
parameters:
  solver.rtol: [1.0e-10, 1.0e-9]
EOF
  "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt &
  pid=$!
  for _ in $(seq 1 600); do
    [ -e out/cases/0000/status.json ] && [ -e out/cases/0001/status.json ] && break
    sleep 0.05
  done
  sleep 1.5
  kill -TERM "$pid"
  wait "$pid"
  expect_rc 75 $? "SIGTERM to the sweep"
  for i in 0000 0001; do
    check "case $i interrupted" test "$(field out/cases/$i/status.json status)" = interrupted
    check "case $i checkpointed" test -s out/cases/$i/heat2d.ckpt
  done
  "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "the sweep continued"
  for i in 0000 0001; do
    check "case $i ok on its second attempt" test "$(field out/cases/$i/status.json status) $(field out/cases/$i/status.json attempts)" = "ok 2"
    check "case $i continued from its checkpoint" grep -q "continued from checkpoint" out/cases/$i/stdout.txt
  done
  ;;
plugin)
  # a model plugin's parameters (declared by the plugin, $ROD_PLUGIN) swept like any key
  cat > p.yaml << EOF
base: $SK_DATA/plugin_rod.yaml
output: out
set: {model.plugin: "$ROD_PLUGIN", model.parameters.n: 40, solver.t_end: 0.02}
parameters:
  model.parameters.kappa: [0.5, 2]
EOF
  "$STIFFKIT" sweep p.yaml -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "sweep of plugin parameters"
  check "case 0001 config holds the plugin parameter" grep -qx 'model.parameters.kappa: 2' out/cases/0001/config.yaml
  check "case 0001 config holds the fixed one" grep -qx 'model.parameters.n: 40' out/cases/0001/config.yaml
  "$STIFFKIT" collect out > out.txt 2> err.txt
  expect_rc 0 $? "collect"
  printf 'output: bad\nbase: %s/plugin_rod.yaml\nset: {model.plugin: "%s"}\nparameters:\n  model.parameters.kapa: [1]\n' \
    "$SK_DATA" "$ROD_PLUGIN" > q.yaml
  "$STIFFKIT" sweep q.yaml > out.txt 2> err.txt
  expect_rc 65 $? "a misspelt plugin parameter"
  check "the plugin's nearest key" grep -qF "q.yaml:5:27: unknown key 'model.parameters.kapa'; did you mean 'model.parameters.kappa'?" err.txt
  check "nothing written" test ! -e bad
  ;;
*)
  echo "unknown scenario $scenario"
  exit 2
  ;;
esac
if [ "$fail" -ne 0 ]; then
  exit 1
fi
echo "ok: sweep $scenario"
