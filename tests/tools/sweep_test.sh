#!/usr/bin/env bash
# tests/tools/sweep_test.sh: parameter sweeps through the CLI: local pool, resubmission, failed and missing cases, refusal of another sweep, Slurm script, no sbatch, interruption, stale `running` statuses, requeue on progress only, another working directory, plugin parameters
# usage: sweep_test.sh SCENARIO
#   (local | failed | refuse | slurm | nosbatch | interrupt | stale | requeue | cwd | plugin)
# Environment: STIFFKIT (the binary); for plugin: SK_DATA (data/) and ROD_PLUGIN (rod_model.so);
# for interrupt, stale and requeue: SLOW_PLUGIN (the slow test plugin, tests/plugins/slow_model.c).
# Most sweeps run the small heat problem of the embedded default job on a 10 x 10 grid to
# t = 0.05 with 4 output times (0.0125, 0.025, 0.0375, 0.05), a run of a fraction of a second.
# The interrupt, stale and requeue sweeps run the slow plugin, whose right-hand side sleeps
# 0.02 s: a case lasts about 10 s on any machine and writes a checkpoint every 0.05 in t, so
# a signal is sent once a checkpoint exists (the run is then stepping, its handlers in place)
# and well before the case ends.
set -u
scenario=$1
# a Slurm job around the test (CI on a cluster) must not make its case runners requeue that job
unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
dir=$(pwd -P) # the physical path, as the sweep writes it
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
slow_set() { # the `set:` of a slow-plugin sweep
  printf 'set: {model.type: plugin, model.plugin: "%s", model.parameters.delay: 0.02, solver.t_end: 1.0, checkpoint.every: 0.05, output.prefix: slow}\n' "$SLOW_PLUGIN"
}
wait_for() { # wait_for FILE...: until every file exists (at most 60 s); 1 when one never came
  local f
  for _ in $(seq 1 1200); do
    for f in "$@"; do
      [ -e "$f" ] || { sleep 0.05; continue 2; }
    done
    return 0
  done
  echo "FAIL: timed out waiting for $*"
  fail=1
  return 1
}

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
  check "case 0001 writes into its directory, named absolutely" \
    grep -qx "output.dir: $dir/out/cases/0001" out/cases/0001/config.yaml
  "$STIFFKIT" collect out > out.txt 2> err.txt
  expect_rc 0 $? "collect"
  check "collect.csv: header and 4 rows" test "$(wc -l < out/collect.csv)" -eq 5
  check "collect.csv: parameter columns in expansion order" \
    test "$(csv_col out/collect.csv solver.rtol) / $(csv_col out/collect.csv model.k0)" = "1.0e-4 1.0e-4 1.0e-6 1.0e-6 / 0.5 2 0.5 2"
  check "collect.csv: every case ok" test "$(csv_col out/collect.csv status)" = "ok ok ok ok"
  check "collect.csv: statistics" test "$(csv_col out/collect.csv stats.steps | wc -w)" -eq 4
  check "collect.h5 written" test -s out/collect.h5
  # the provenance hash covers what determines the numbers: cases of other values differ; the
  # same sweep run again into another directory, at another time, gives the same hashes
  "$STIFFKIT" sweep s.yaml --dir again -j 2 > out.txt 2> err.txt && "$STIFFKIT" collect again > out.txt 2> err.txt
  expect_rc 0 $? "the same sweep into another directory"
  p1=$(csv_col out/collect.csv provenance)
  check "16-digit provenance hashes" grep -qE '^([0-9a-f]{16} ){3}[0-9a-f]{16}$' <<< "$p1"
  check "cases of other values have other hashes" test "$(tr ' ' '\n' <<< "$p1" | sort -u | wc -l)" -eq 4
  check "identical reruns have equal hashes" test "$p1" = "$(csv_col again/collect.csv provenance)"
  # both tables or neither: an HDF5 name that cannot be replaced leaves no new CSV either
  rm -f again/collect.csv again/collect.h5 && mkdir -p again/collect.h5/x
  "$STIFFKIT" collect again > out.txt 2> err.txt
  expect_rc 74 $? "collect with a directory in the way of collect.h5"
  check "no CSV without its HDF5 file" test ! -e again/collect.csv
  check "no temporary file left" test -z "$(ls again | grep tmp)"
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
  # case 1 names a fixed-step engine without a step: `stiffkit run` exits 65 (a name that
  # does not exist is refused by the sweep itself before any case runs: sweep_bad_method)
  cat > f.yaml << EOF
output: out
$small
parameters:
  solver.method: [cvode-bdf, rk4, bdf2]
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
    bash -c "grep -F 'case 0001 failed (exit 65): ' err.txt | grep -qF \"stepper 'rk4' is a fixed-step method\""
  check "collect names the missing case" grep -qF "case 0002 missing: never run" err.txt
  check "collect.csv statuses" test "$(csv_col out/collect.csv status)" = "ok failed missing"
  check "collect.csv exit codes" test "$(csv_col out/collect.csv exit_code)" = "0 65 nan"
  check "collect.csv error column" grep -qF "stepper 'rk4' is a fixed-step method" out/collect.csv
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
  sed -i 's/^solver.method: rk4$/solver.method: cvode-adams/' out/cases/0001/config.yaml
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
  # a chosen probe that no case's results hold is an error, not a column of NaN
  printf 'output: probe\n%s\nparameters:\n  solver.rtol: [1.0e-4]\ncollect: {probes: ["u[5,5]", "u[55,5]"]}\n' "$small" > p.yaml
  "$STIFFKIT" sweep p.yaml > out.txt 2> err.txt
  expect_rc 0 $? "sweep with a misspelt probe"
  "$STIFFKIT" collect probe > out.txt 2> err.txt
  expect_rc 65 $? "collect of a probe no case has"
  check "the error names the probe, the case and the columns" grep -qF \
    "collect: probe 'u[55,5]' is not a column of case 0000's results (probe/cases/0000/heat2d.csv); its columns: t, u[5,5], max_abs_y" err.txt
  check "nothing collected" test ! -e probe/collect.csv -a ! -e probe/collect.h5
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
  # two slow cases; SIGTERM to the sweep once both have checkpointed
  { echo 'output: out'; slow_set; printf 'parameters:\n  model.parameters.n: [16, 17]\n'; } > s.yaml
  "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt &
  pid=$!
  wait_for out/cases/0000/slow.ckpt out/cases/0001/slow.ckpt
  check "both cases running" test "$(field out/cases/0000/status.json status) $(field out/cases/0001/status.json status)" = "running running"
  kill -TERM "$pid"
  wait "$pid"
  expect_rc 75 $? "SIGTERM to the sweep"
  for i in 0000 0001; do
    check "case $i interrupted" test "$(field out/cases/$i/status.json status)" = interrupted
    check "case $i checkpointed" test -s out/cases/$i/slow.ckpt
    check "case $i records the time its checkpoint holds" /usr/bin/python3 -c "
import json, sys
t = json.load(open('out/cases/$i/status.json'))['checkpoint_t']
sys.exit(0 if t is not None and 0.05 <= t < 1 else 1)"
  done
  "$STIFFKIT" sweep s.yaml -j 2 > out.txt 2> err.txt
  expect_rc 0 $? "the sweep continued"
  for i in 0000 0001; do
    check "case $i ok on its second attempt" test "$(field out/cases/$i/status.json status) $(field out/cases/$i/status.json attempts)" = "ok 2"
    check "case $i continued from its checkpoint" grep -q "continued from checkpoint" out/cases/$i/stdout.txt
  done
  ;;
stale)
  # case 0's runner is killed outright (as by the OOM killer or a time limit): its status stays
  # `running`, but its runner is gone, so the case counts as interrupted and is rerun
  { echo 'output: out'; slow_set; printf 'parameters:\n  model.parameters.n: [16, 17]\n'; } > s.yaml
  "$STIFFKIT" sweep s.yaml --slurm > out.txt 2> err.txt # writes the cases, runs none
  expect_rc 0 $? "sweep --slurm"
  # case 1 says `running`, its runner alive: this shell, with its own start time
  printf '{"status": "running", "exit_code": -1, "wall_time": 0, "attempts": 1, "runner": {"pid": %s, "started": %s, "host": "%s"}}\n' \
    "$$" "$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)" "$(hostname)" > out/cases/0001/status.json
  "$STIFFKIT" sweep --case 0 out > case.txt 2>&1 &
  runner=$!
  wait_for out/cases/0000/slow.ckpt
  check "case 0 running" test "$(field out/cases/0000/status.json status)" = running
  check "case 0 names its runner" /usr/bin/python3 -c "
import json, sys
sys.exit(0 if json.load(open('out/cases/0000/status.json'))['runner']['pid'] == $runner else 1)"
  run=$(ps -o pid= --ppid "$runner")
  kill -KILL "$runner" $run
  wait "$runner" 2> /dev/null
  check "the killed runner left 'running'" test "$(field out/cases/0000/status.json status)" = running
  "$STIFFKIT" collect out > out.txt 2> err.txt
  expect_rc 10 $? "collect with a stale case"
  check "collect lists the stale case as interrupted" grep -qF "case 0000 interrupted (exit nan): its case runner (pid $runner on $(hostname)) ended without a status" err.txt
  check "collect lists the live one as running" grep -qF "case 0001 running" err.txt
  "$STIFFKIT" sweep s.yaml --only-failed > out.txt 2> err.txt
  expect_rc 0 $? "--only-failed after the kill"
  check "--only-failed reruns the stale case, leaves the live one" \
    grep -qF "0 complete, 1 running (left alone); 1 to run (failed or interrupted)" out.txt
  check "the live one is named" grep -qF "case 0001 is running (its runner: pid $$ on" err.txt
  check "case 0 ok on its second attempt" test "$(field out/cases/0000/status.json status) $(field out/cases/0000/status.json attempts)" = "ok 2"
  check "case 0 continued from its checkpoint" grep -q "continued from checkpoint" out/cases/0000/stdout.txt
  "$STIFFKIT" sweep s.yaml > out.txt 2> err.txt
  expect_rc 0 $? "resubmission with a live case"
  check "resubmission leaves the live case alone" grep -qF "1 complete (skipped), 1 running (left alone); 0 to run" out.txt
  "$STIFFKIT" sweep --case 1 out > out.txt 2> err.txt
  expect_rc 75 $? "a second runner for a running case"
  check "a running case is not started twice" grep -qF "case 0001 is already running" err.txt
  ;;
requeue)
  # under Slurm (its environment, a stand-in scontrol that logs its calls) an interrupted case
  # is requeued only when its checkpoint advanced since the previous attempt
  mkdir bin
  printf '#!/bin/sh\necho "$*" >> %s/scontrol.log\n' "$dir" > bin/scontrol
  chmod +x bin/scontrol
  { echo 'output: out'; slow_set; printf 'parameters:\n  model.parameters.n: [16]\nslurm: {max_attempts: 5}\n'; } > s.yaml
  "$STIFFKIT" sweep s.yaml --slurm > out.txt 2> err.txt
  expect_rc 0 $? "sweep --slurm"
  check "the manifest records max_attempts" grep -qx "  max_attempts: 5" out/sweep.yaml
  as_task() { # the case runner as array task 0 of job 4242; USR1 to it once its status says
    # `running` (its handlers are in place) and FILE exists
    SLURM_JOB_ID=4243 SLURM_ARRAY_JOB_ID=4242 SLURM_ARRAY_TASK_ID=0 PATH="$dir/bin:$PATH" \
      "$STIFFKIT" sweep --case 0 out > out.txt 2> err.txt &
    local r=$!
    for _ in $(seq 1 1200); do
      [ "$(field out/cases/0000/status.json status 2> /dev/null)" = running ] && break
      sleep 0.05
    done
    wait_for "$1"
    kill -USR1 "$r"
    wait "$r"
  }
  as_task out/cases/0000/slow.ckpt
  expect_rc 75 $? "first attempt, USR1"
  check "progress: requeued" grep -qx "requeue 4242_0" scontrol.log
  check "the status says why" /usr/bin/python3 -c "
import json, sys
s = json.load(open('out/cases/0000/status.json'))
sys.exit(0 if s['status'] == 'interrupted' and s['requeue'].startswith('requeued: its checkpoint holds t=') else 1)"
  # the previous attempt got further than this one can (t = 2 > t_end): no progress, no requeue
  /usr/bin/python3 -c "
import json
s = json.load(open('out/cases/0000/status.json')); s['checkpoint_t'] = 2.0
json.dump(s, open('out/cases/0000/status.json', 'w'))"
  rm -f scontrol.log
  as_task out/cases/0000/slow.ckpt
  expect_rc 75 $? "second attempt, USR1"
  check "no progress: not requeued" test ! -e scontrol.log
  check "the runner says why" grep -qF "case 0000 interrupted and not requeued:" err.txt
  check "the status says why" /usr/bin/python3 -c "
import json, sys
s = json.load(open('out/cases/0000/status.json'))
sys.exit(0 if s['status'] == 'interrupted' and s['attempts'] == 2 and s['requeue'].startswith('not requeued: ') else 1)"
  "$STIFFKIT" sweep s.yaml > out.txt 2> err.txt
  expect_rc 0 $? "resubmission"
  check "case 0 ok on its third attempt" test "$(field out/cases/0000/status.json status) $(field out/cases/0000/status.json attempts)" = "ok 3"
  ;;
cwd)
  # the sweep written from a/, run and collected from b/ with --dir: the cases write into the
  # sweep directory (absolute in their configs) and run in a/, where the sweep was first run
  mkdir a b
  printf 'output: out\n%s\nparameters:\n  solver.rtol: [1.0e-4, 1.0e-6]\n' "$small" > a/s.yaml
  (cd a && "$STIFFKIT" sweep s.yaml --slurm > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "sweep --slurm in a/"
  check "config names its output directory absolutely" \
    grep -qx "output.dir: $dir/a/out/cases/0000" a/out/cases/0000/config.yaml
  (cd b && "$STIFFKIT" sweep ../a/s.yaml --dir ../a/out -j 2 > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "the sweep resumed from b/"
  check "the cases ran in a/" grep -qF "the cases run in $dir/a, where the sweep was first run" out.txt
  check "the manifest keeps a/ as the working directory" grep -qx "workdir: \"$dir/a\"" a/out/sweep.yaml
  for i in 0000 0001; do
    check "case $i ok" test "$(field a/out/cases/$i/status.json status)" = ok
    check "case $i results in the sweep directory" test -s a/out/cases/$i/heat2d.csv
  done
  check "nothing written in b/" test -z "$(ls -A b)"
  (cd b && "$STIFFKIT" collect ../a/out > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "collect from b/"
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
