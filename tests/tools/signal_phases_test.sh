#!/usr/bin/env bash
# tests/tools/signal_phases_test.sh: SIGTERM while `stiffkit run` is in one long phase (model building, the first factorization, output writing) ends it with exit 75 in bounded time, and no result file is left under its final name
# usage: signal_phases_test.sh build|factorization|output|step
# Environment: STIFFKIT (the stiffkit binary), SK_DATA (the data folder), SLOW_MODEL (the slow
# model plugin, for step). Exit 0 pass, 1 fail.
# The phases are made long by their size alone and recognised from outside the process (its CPU
# time in /proc/PID/stat, its resident memory, the growth of its temporary result file); the
# message names the phase the signal met, so a signal that arrived in another phase fails the
# test. Bounds: 2 s where stiffkit polls the stop; inside a library call that cannot poll it (the
# first KLU factorization inside CVODE's step, a right-hand side that sleeps 5 s) the signal
# thread waits 2 s (STIFFKIT_STOP_GRACE) for the call, then ends the process: 2 s + 1.5 s.
set -u
phase=$1
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2> /dev/null; rm -rf "$dir"' EXIT
cd "$dir" || exit 1
common=(--set solver.t_end=0.1 --set output.dir=. --set output.prefix=heat2d)
config=("$SK_DATA/heat2d.yaml")
case "$phase" in
build) # 2.25e6 states: about 4 s of grid assembly on a loaded 2-core machine
  args=(--set model.n=[1500] --set linsol.type=klu)
  bound_ms=2000
  message="stopped by signal 15 while building the model"
  ;;
factorization) # 6.8e4 states: the first KLU factorization takes seconds, build and setup 0.2 s
  args=(--set model.n=[260] --set linsol.type=klu)
  # one factorization is one library call: the stop waits 2 s for it to return, then ends the run
  bound_ms=3500
  message="run interrupted by SIGTERM\|inside a CVODE call .*which did not return within 2 s"
  ;;
step) # a right-hand side that sleeps 5 s inside CVODE's first step: only the grace can end it
  config=() # the embedded default job, its model replaced by the plugin
  args=(--set model.type=plugin --set "model.plugin=${SLOW_MODEL:?SLOW_MODEL names the slow model plugin}"
    --set model.parameters.delay=5 --set model.parameters.n=4 --set solver.method=cvode-adams
    --set solver.check_jacobian=false)
  bound_ms=3500
  # a signal inside CVODE's call: the grace ends it; one that arrives just before it (a slow
  # build, e.g. under AddressSanitizer) may be seen at the last check before the call
  message="interrupted by SIGTERM inside a CVODE call .*which did not return within 2 s\|run interrupted by SIGTERM"
  ;;
output) # 1e4 states written at 10^6 output times: the run is its output writing
  args=(--set model.n=[100] --set output.n_times=1000000)
  bound_ms=2000
  message="run interrupted by SIGTERM"
  ;;
*)
  echo "usage: $0 build|factorization|output|step"
  exit 1
  ;;
esac
OMP_NUM_THREADS=1 "$STIFFKIT" run "${config[@]}" "${common[@]}" "${args[@]}" \
  > out.txt 2> err.txt &
pid=$!

# CPU seconds (user + system) the process has used, from /proc/PID/stat
cpu_s() {
  local f
  { read -r -a f < "/proc/$pid/stat"; } 2> /dev/null || { echo 0; return; }
  # fields after the parenthesised name: utime and stime are fields 14 and 15
  echo $(((f[13] + f[14]) / $(getconf CLK_TCK)))
}
# resident memory in MB, from /proc/PID/status
rss_mb() {
  local kb
  kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
  echo $((${kb:-0} / 1024))
}
# the signal thread has taken SIGTERM (blocked in the main thread: SigBlk bit 15)
ready() {
  local blk
  blk=$(awk '/^SigBlk:/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
  [ -n "$blk" ] && (((0x$blk >> 14) & 1))
}
in_phase() {
  ready || return 1
  case "$phase" in
  build) [ "$(rss_mb)" -ge 50 ] ;; # the grid's pattern arrays are being filled
  factorization) [ "$(cpu_s)" -ge 1 ] ;;
  step) [ -e heat2d.csv.tmp."$pid" ] ;; # the outputs are open: the integration has begun
  output) [ "$(stat -c %s heat2d.h5.tmp."$pid" 2> /dev/null || echo 0)" -gt 4000000 ] ;;
  esac
}
start=$(date +%s%N)
until in_phase; do
  if ! kill -0 "$pid" 2> /dev/null || (($(date +%s%N) - start > 15000000000)); then
    echo "FAIL: the run never reached the $phase phase"
    cat err.txt
    exit 1
  fi
  sleep 0.02
done
kill -TERM "$pid"
sent=$(date +%s%N)
while kill -0 "$pid" 2> /dev/null && (($(date +%s%N) - sent < 30000000000)); do sleep 0.02; done
took=$((($(date +%s%N) - sent) / 1000000))
fail=0
if kill -0 "$pid" 2> /dev/null; then
  echo "FAIL: still running 30 s after SIGTERM"
  exit 1
fi
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 75 ] || { echo "FAIL: exit $rc, expected 75"; tail -n 5 err.txt; fail=1; }
((took <= bound_ms)) || { echo "FAIL: ended $took ms after SIGTERM (bound $bound_ms ms)"; fail=1; }
grep -q "$message" err.txt || { echo "FAIL: no '$message' in:"; cat err.txt; fail=1; }
for f in heat2d.csv heat2d.h5 heat2d.provenance.yaml; do
  [ ! -e "$f" ] || { echo "FAIL: $f left under its final name"; fail=1; }
done
if [ "$phase" = output ]; then # the rows written so far are kept, as partial results
  for f in heat2d.partial.csv heat2d.partial.h5 heat2d.partial.provenance.yaml; do
    [ -s "$f" ] || { echo "FAIL: no $f"; fail=1; }
  done
fi
[ "$fail" -eq 0 ] && echo "ok: SIGTERM during $phase: exit 75 after $took ms"
exit "$fail"
