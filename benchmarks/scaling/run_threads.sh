#!/usr/bin/env bash
# benchmarks/scaling/run_threads.sh: thread scaling on one node: triad bandwidth, kernels with 1 vs 2 threads, a CVODE run (builds nothing)
# usage: benchmarks/scaling/run_threads.sh BUILD_DIR [REPS]
# The machine may be shared and noisy: every figure is the best of REPS
# interleaved rounds (1 thread, 2 threads, 1, 2, ...).
set -euo pipefail
build=${1:?usage: run_threads.sh BUILD_DIR [REPS]}
reps=${2:-5}
bin=$(cd "$build" && pwd)/bin
for b in triad bench_threads stiffkit; do
  [ -x "$bin/$b" ] || { echo "run_threads.sh: $bin/$b missing (configure with SK_OPENMP=ON and build)" >&2; exit 66; }
done
unset OMP_NUM_THREADS
export OMP_PROC_BIND=${OMP_PROC_BIND:-close}
echo "== triad (STREAM-like, a = b + s c) =="
"$bin/triad" 20000000 "$reps"
echo
echo "== kernels, 1 vs 2 threads =="
"$bin/bench_threads" "$reps"
echo
echo "== CVODE, 2D heat 1000^2 (10^6 states, spgmr + ADI), t_end 0.002: wall time =="
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
TIMEFORMAT=%R
for t in 1 2; do
  best=
  for r in $(seq "$reps"); do
    w=$( { time (cd "$dir" && "$bin/stiffkit" run --quiet --set model.n=[1000,1000] \
        --set solver.t_end=0.002 --set linsol.type=spgmr --set linsol.preconditioner=model \
        --set solver.threads=$t --set output.hdf5=false --set output.prefix=heat$t \
        > /dev/null 2>&1); } 2>&1 )
    if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; fi
  done
  echo "threads $t: best wall time ${best} s (whole process)"
  eval "cvode_t$t=$best"
done
awk "BEGIN{printf \"CVODE heat2d 10^6 speedup 2/1: %.2f\n\", $cvode_t1 / $cvode_t2}"
