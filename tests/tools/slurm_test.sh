#!/usr/bin/env bash
# tests/tools/slurm_test.sh: stiffkit sweep on a private single-node Slurm: a job array of cases, then a time-limit USR1 that checkpoints, requeues and resumes to the uninterrupted answer
#
# Environment: STIFFKIT (the stiffkit binary), SK_SOURCE_DIR (the source tree). Exit 0 pass,
# 1 fail, 77 skip (no Slurm here, not root, or the cluster does not start). About 1.5 min;
# every wait is bounded (at most about 6 min in all), so give the test a CTest TIMEOUT above
# that: a test killed by CTest cannot stop its cluster.
#
# PART A: a 4-case product sweep submitted as a job array; `stiffkit collect` lists every case ok.
# PART B: one slow case (SLOW_CONFIG, below) with a 1-minute time limit and USR1 sent
#   SLOW_SIGNAL_SECONDS before it. slurmctld checks time limits every 30 s, so with --time=1
#   USR1@N arrives at the first check at least 30-N s after the job started: between 30-N and
#   60-N s into the run (10-40 s for N = 20). The run checkpoints and exits 75, the case
#   runner requeues the job (`scontrol requeue`), this test lifts Slurm's 120 s hold on the
#   requeued job (`scontrol update JobId=J StartTime=now`), the rerun resumes from the
#   checkpoint (and may be interrupted and requeued again) and completes. Its results must
#   equal those of an uninterrupted local run of the same configuration within RESULT_RTOL.
#
# Knobs: SK_SLURM_TEST_PARTS ("A B", default), SK_SLOW_CONFIG, SK_SLOW_PLUGIN, SK_SLURM_KEEP=1
# (keep the work directory; the cluster is stopped all the same).
set -uo pipefail

# ---------------------------------------------------------------------------------------
# The slow case: tests/data/slurm_slow.yaml runs the test plugin tests/plugins/slow_model.c,
# whose right-hand side sleeps 0.07 s per evaluation: about 780 evaluations, so about 55 s of
# wall time whatever the CPU, longer than 60 - SLOW_SIGNAL_SECONDS s plus a margin, so USR1
# arrives before the run ends. On SIGUSR1 the run keeps its last checkpoint and exits 75;
# the case runner's `run --resume` continues from it. The config is in segment mode
# (checkpoint.segment: the engine restarts at every checkpoint.every boundary in any run), so
# a resumed run repeats the uninterrupted one bitwise: the comparison tolerances are 0.
SLOW_CONFIG=${SK_SLOW_CONFIG:-${SK_SOURCE_DIR:-}/tests/data/slurm_slow.yaml}
# The built plugin (an absolute path), passed as model.plugin to both runs.
SLOW_PLUGIN=${SK_SLOW_PLUGIN:-}
SLOW_SIGNAL_SECONDS=20
RESULT_RTOL=0
RESULT_ATOL=0
# ---------------------------------------------------------------------------------------

PARTS=${SK_SLURM_TEST_PARTS:-A B}
: "${STIFFKIT:?STIFFKIT must name the stiffkit binary}"
: "${SK_SOURCE_DIR:?SK_SOURCE_DIR must name the source directory}"
SL=$SK_SOURCE_DIR/scripts/slurm-local.sh
t_begin=$SECONDS

note() { printf '[%3d s] %s\n' "$((SECONDS - t_begin))" "$*"; }
skip() {
  echo "SKIP: $*"
  exit 77
}

fail_count=0
fail() {
  echo "FAIL: $*"
  fail_count=$((fail_count + 1))
}

# A Slurm job around this test (CI on a cluster) must not leak into the private cluster.
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM_|SBATCH_|SALLOC_|SRUN_|SQUEUE_|SCONTROL_)' || true)

# ---- (a) availability -----------------------------------------------------------------
why=$(bash "$SL" available 2>&1) || skip "${why:-slurm-local.sh available failed}"
case " $PARTS " in
  *" B "*)
    [[ -f $SLOW_CONFIG ]] || {
      echo "FAIL: PART B needs the slow config '$SLOW_CONFIG' (SK_SLOW_CONFIG; or SK_SLURM_TEST_PARTS=A)"
      exit 1
    }
    ;;
esac

# ---- (b) a private cluster, always stopped ---------------------------------------------
# a node that is not idle in 30 s will not be; scancel'ed jobs get SIGKILL 5 s after SIGTERM
export SK_SLURM_TIMEOUT=${SK_SLURM_TIMEOUT:-30} SK_SLURM_KILLWAIT=${SK_SLURM_KILLWAIT:-5}
work=$(mktemp -d)
cluster=$work/slurm
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -f $cluster/etc/slurm.conf ]]; then
    bash "$SL" stop "$cluster" > "$work/stop.log" 2>&1 || { echo "slurm-local.sh stop failed:"; cat "$work/stop.log"; }
  fi
  [[ -n ${ref_pid:-} ]] && kill "$ref_pid" 2> /dev/null
  if [[ ${SK_SLURM_KEEP:-0} == 1 ]]; then echo "kept $work"; else rm -rf -- "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! env_lines=$(bash "$SL" start "$cluster" 2> "$work/start.log"); then
  cat "$work/start.log"
  skip "the private Slurm cluster did not start: $(grep 'error:' "$work/start.log" | head -n 1)"
fi
eval "$env_lines"
note "cluster up ($(tail -n 1 "$work/start.log"))"

diagnose() {
  echo "---- diagnostics: $1 ----"
  # the telling lines first (a CI log may keep only the head of this): Slurm's errors, the
  # case runner's own output
  grep -h -i 'error\|revoked\|fail' "$cluster"/log/slurmd.log "$cluster"/log/slurmctld.log 2> /dev/null | tail -n 12
  for f in "$1"/cases/*/slurm.out; do
    [[ -f $f ]] && { echo "==> $f (last lines) <=="; tail -n 6 "$f" | cut -c1-300; }
  done
  squeue 2>&1 | head -n 20
  scontrol -o show job 2>&1 | tail -n 10
  local f
  # ADJUST: where the sweep writes the batch script, Slurm's output and each case's stderr
  for f in "$1"/*.sbatch "$1"/*.sh "$1"/slurm-*.out "$1"/logs/* "$1"/cases/*/status.json \
    "$1"/cases/*/*.err "$1"/cases/*/*.out "$1"/cases/*/*.log "$1"/cases/*/stderr*; do
    [[ -f $f ]] || continue
    echo "==> $f <=="
    tail -n 25 "$f"
  done
  SK_SLURM_LOG_LINES=25 bash "$SL" logs "$cluster"
}

# wait_all_gone SECONDS: until squeue lists no job of the private cluster (every job in
# it is this test's); prints state changes; calls on_pending JOBID for pending jobs
on_pending() { :; }
wait_all_gone() {
  local end=$((SECONDS + $1)) line last="" now errors=0
  while ((SECONDS < end)); do
    if ! now=$(squeue -h -o '%A %T %r' 2>&1); then
      note "squeue failed: $now"
      # a busy controller may miss one; ten in a row is an error
      ((++errors < 10)) || return 1
      sleep 1
      continue
    fi
    errors=0
    [[ -z $now ]] && return 0
    if [[ $now != "$last" ]]; then
      note "queue: $(tr '\n' ';' <<< "$now")"
      last=$now
    fi
    while read -r line; do
      # shellcheck disable=SC2086 # "JOBID STATE REASON"
      set -- $line
      [[ ${2:-} == PENDING ]] && on_pending "$1"
    done <<< "$now"
    sleep 1
  done
  return 1
}

# job_field JOBID FIELD: a field of `scontrol show job` (finished jobs stay for MinJobAge=600 s)
job_field() { scontrol -o show job "$1" 2> /dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

# json_field FILE KEY: a top-level field of a JSON file
json_field() {
  /usr/bin/python3 -c 'import json, sys; v = json.load(open(sys.argv[1])).get(sys.argv[2], ""); print(v)' "$1" "$2" 2> /dev/null
}

# case_ids SWEEPDIR: the case directories' names
case_ids() { find "$1/cases" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2> /dev/null | sort; }

# ---- (c) PART A: a job array of a sweep ------------------------------------------------
part_a() {
  local d=$work/a rc ids n_ok id st
  mkdir -p "$d"
  cp "$SK_SOURCE_DIR/data/rober.yaml" "$d/base.yaml"
  # ADJUST: sweep file keys (base, output, set, parameters, combine, slurm)
  cat > "$d/sweep.yaml" << 'EOF'
# a 2 x 2 product sweep of the Robertson problem: 4 cases
base: base.yaml
output: sweep
set:
  output.n_times: 4
parameters:
  solver.rtol: [1.0e-6, 1.0e-8]
  solver.atol: {range: [1.0e-12, 1.0e-10], num: 2, scale: log}
combine: product
slurm:
  time: "5"
  max_parallel: 4
EOF
  note "PART A: stiffkit sweep --slurm --submit (4 cases)"
  (cd "$d" && "$STIFFKIT" sweep sweep.yaml --slurm --submit) > "$d/submit.out" 2>&1
  rc=$?
  cat "$d/submit.out"
  if ((rc != 0)); then
    fail "PART A: sweep --slurm --submit exited $rc"
    diagnose "$d/sweep"
    return
  fi
  if ! wait_all_gone 120; then
    fail "PART A: the array is still queued after 120 s"
    diagnose "$d/sweep"
    return
  fi
  note "PART A: array done"
  scontrol -o show job | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|ArrayTaskId|JobState|ExitCode)=/) printf "%s ", $i; print "" }'
  "$STIFFKIT" collect "$d/sweep" > "$d/collect.out" 2>&1
  rc=$?
  cat "$d/collect.out"
  ((rc == 0)) || fail "PART A: collect exited $rc"
  # every case directory has status ok, and collect.csv lists it as ok
  ids=$(case_ids "$d/sweep")
  [[ $(wc -w <<< "$ids") -eq 4 ]] || fail "PART A: expected 4 case directories, found: $ids"
  n_ok=0
  for id in $ids; do
    st=$(json_field "$d/sweep/cases/$id/status.json" status)
    [[ $st == ok ]] && n_ok=$((n_ok + 1))
    [[ $st == ok ]] || fail "PART A: case $id has status '$st'"
  done
  # ADJUST: collect.csv columns named id and status
  [[ -f $d/sweep/collect.csv ]] || fail "PART A: no collect.csv"
  for id in $ids; do
    awk -F, -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["id"] == id && $col["status"] == "ok" { found = 1 } END { exit !found }' \
      "$d/sweep/collect.csv" 2> /dev/null || fail "PART A: collect.csv does not list case $id as ok"
  done
  ((fail_count == 0)) || diagnose "$d/sweep"
  note "PART A: $n_ok of 4 cases ok"
}

# compare_csv A B: same rows and columns; numbers equal within RESULT_RTOL/RESULT_ATOL
compare_csv() {
  awk -F, -v rtol="$RESULT_RTOL" -v atol="$RESULT_ATOL" '
    function abs(x) { return x < 0 ? -x : x }
    function num(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
    /^#/ { next }
    FNR == NR { a[++na] = $0; next }
    {
      nb++
      if (nb > na) { printf "extra row %d in %s\n", nb, FILENAME; bad = 1; exit }
      n = split(a[nb], x, ",")
      if (n != NF) { printf "row %d: %d against %d columns\n", nb, n, NF; bad = 1; exit }
      for (i = 1; i <= NF; i++) {
        if (num(x[i]) && num($i)) {
          d = abs(x[i] - $i); s = abs(x[i]) > abs($i) ? abs(x[i]) : abs($i)
          if (d > atol + rtol * s) { printf "row %d column %d: %s against %s\n", nb, i, x[i], $i; bad = 1 }
          if (s > 0 && d / s > worst) worst = d / s
        } else if (x[i] != $i) { printf "row %d column %d: \"%s\" against \"%s\"\n", nb, i, x[i], $i; bad = 1 }
      }
    }
    END {
      if (!bad && nb != na) { printf "%d rows against %d\n", na, nb; bad = 1 }
      printf "compared %d rows, largest relative difference %.3g\n", nb, worst
      exit bad
    }' "$1" "$2"
}

# ---- (d) PART B: time-limit USR1, checkpoint, requeue, resume --------------------------
released=""
pending_seen=""
pending_since=0
release_requeued() {
  local j=$1 restarts
  restarts=$(job_field "$j" Restarts)
  [[ ${restarts:-0} -ge 1 ]] || return 0
  # once per restart; the hold is a BeginTime 120 s ahead
  [[ " $released " == *" $j:$restarts "* ]] && return 0
  # slurmd refuses a launch credential issued in the same second as the revocation of the
  # job's previous one (its check is ctime <= revoked, in whole seconds) and the job fails
  # with exit 1 at once: release a requeued job only 2 s after it was first seen pending
  if [[ $pending_seen != "$j:$restarts" ]]; then
    pending_seen="$j:$restarts"
    pending_since=$SECONDS
  fi
  ((SECONDS - pending_since >= 2)) || return 0
  note "PART B: job $j pending after restart $restarts ($(job_field "$j" Reason)); releasing"
  scontrol update JobId="$j" StartTime=now || note "scontrol update failed"
  released="$released $j:$restarts"
}

part_b() {
  local d=$work/b rc id sets=() set_yaml="" jobs j restarts state max_restarts=0 st att ref case_csv
  mkdir -p "$d/ref"
  if [[ -n $SLOW_PLUGIN ]]; then
    sets=(--set "model.plugin=$SLOW_PLUGIN")
    set_yaml=$'set:\n  model.plugin: "'$SLOW_PLUGIN$'"'
  fi
  # the uninterrupted reference, locally and at the same time as the Slurm job
  (cd "$d/ref" && exec timeout 150 "$STIFFKIT" run "$SLOW_CONFIG" --quiet --set output.dir=. \
    --set output.n_times=10 "${sets[@]}") > "$d/ref.out" 2>&1 &
  ref_pid=$!
  # ADJUST: sweep file keys; one case (a parameter with one value, the same as the reference)
  cat > "$d/sweep.yaml" << EOF
# one slow case with a 1-minute limit and USR1 ${SLOW_SIGNAL_SECONDS} s before it
base: "$SLOW_CONFIG"
output: sweep
${set_yaml}
parameters:
  output.n_times: [10]
combine: product
slurm:
  time: "1"
  signal_seconds: $SLOW_SIGNAL_SECONDS
  requeue: true
  max_parallel: 1
EOF
  note "PART B: stiffkit sweep --slurm --submit (1 slow case, time limit 1 min, USR1@$SLOW_SIGNAL_SECONDS)"
  (cd "$d" && "$STIFFKIT" sweep sweep.yaml --slurm --submit) > "$d/submit.out" 2>&1
  rc=$?
  cat "$d/submit.out"
  if ((rc != 0)); then
    fail "PART B: sweep --slurm --submit exited $rc"
    diagnose "$d/sweep"
    return
  fi
  on_pending() { release_requeued "$1"; }
  # USR1 by 40 s, the rerun(s) 50 s at most, a few s per requeue: 150 s is ample
  if ! wait_all_gone 150; then
    fail "PART B: the job is still queued after 150 s"
    diagnose "$d/sweep"
    return
  fi
  on_pending() { :; }
  note "PART B: job done"
  # every job the private cluster has seen since PART A is PART B's job
  jobs=$(scontrol -o show job | awk -v a="${part_a_jobs:-}" '{ sub(/^JobId=/, "", $1); if ((" " a " ") !~ (" " $1 " ")) print $1 }')
  for j in $jobs; do
    restarts=$(job_field "$j" Restarts)
    state=$(job_field "$j" JobState)
    note "PART B: job $j JobState=$state Restarts=$restarts ExitCode=$(job_field "$j" ExitCode) RunTime=$(job_field "$j" RunTime)"
    ((${restarts:-0} > max_restarts)) && max_restarts=$restarts
    [[ $state == COMPLETED ]] || fail "PART B: job $j ended $state"
  done
  [[ -n $jobs ]] || fail "PART B: scontrol shows no job"
  ((max_restarts >= 1)) || fail "PART B: Restarts=$max_restarts: the job was never requeued (no USR1 in time, or no requeue)"
  # jobcomp.txt has a line per run; a requeued run ends with JobState=PENDING. The first run
  # must have ended before the time limit: by USR1, not by the TERM at the limit.
  local first="" t0 t1
  for j in $jobs; do
    first=$(grep -m 1 "^JobId=$j .*JobState=PENDING" "$cluster/log/jobcomp.txt") && break
  done
  if [[ -n $first ]]; then
    t0=$(date -d "$(sed -n 's/.* StartTime=\([^ ]*\).*/\1/p' <<< "$first")" +%s)
    t1=$(date -d "$(sed -n 's/.* EndTime=\([^ ]*\).*/\1/p' <<< "$first")" +%s)
    note "PART B: the first run lasted $((t1 - t0)) s before it was requeued"
    ((t1 - t0 < 60)) || fail "PART B: the first run lasted $((t1 - t0)) s: requeued at the time limit, not on USR1"
  else
    fail "PART B: jobcomp.txt has no requeue record"
  fi
  id=$(case_ids "$d/sweep" | head -n 1)
  if [[ -z $id ]]; then
    fail "PART B: no case directory"
    diagnose "$d/sweep"
    return
  fi
  st=$(json_field "$d/sweep/cases/$id/status.json" status)
  att=$(json_field "$d/sweep/cases/$id/status.json" attempts)
  note "PART B: case $id status=$st attempts=$att"
  [[ $st == ok ]] || fail "PART B: case $id has status '$st'"
  # ADJUST: attempts counts the runs of the case (the first one and the resumed ones)
  [[ ${att:-0} -ge 2 ]] || fail "PART B: attempts=$att, expected >= 2"

  wait "$ref_pid"
  rc=$?
  ref_pid=""
  if ((rc != 0)); then
    fail "PART B: the uninterrupted reference run exited $rc"
    cat "$d/ref.out"
  fi
  ref=$(find "$d/ref" -maxdepth 1 -name '*.csv' ! -name '*.partial.*' | head -n 1)
  # ADJUST: the case's results live in (or under) its case directory, with the same file name
  case_csv=$(find "$d/sweep/cases/$id" -name "$(basename "${ref:-none}")" | head -n 1)
  if [[ -z $ref || -z $case_csv ]]; then
    fail "PART B: result CSV missing (reference '${ref:-}', case '${case_csv:-}')"
  elif ! compare_csv "$ref" "$case_csv"; then
    fail "PART B: the resumed results differ from the uninterrupted run ($ref, $case_csv)"
  fi
  ((fail_count == 0)) || diagnose "$d/sweep"
}

part_a_jobs=""
case " $PARTS " in *" A "*)
  part_a
  part_a_jobs=$(scontrol -o show job 2> /dev/null | awk '{ sub(/^JobId=/, "", $1); print $1 }' | tr '\n' ' ')
  ;;
esac
case " $PARTS " in *" B "*) part_b ;; esac

note "done: $fail_count failure(s)"
((fail_count == 0)) || exit 1
echo "ok: stiffkit sweep on a private Slurm cluster ($PARTS)"
