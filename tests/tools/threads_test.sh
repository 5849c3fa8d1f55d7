#!/usr/bin/env bash
# tests/tools/threads_test.sh: one `stiffkit run` with solver.threads=1 and =2: CSVs agree within tolerance, provenance reports the threads
# usage: threads_test.sh RTOL ATOL [stiffkit run args...]   (env: STIFFKIT, NUMDIFF)
# Not bitwise: reductions (norms, dot products) sum in another order with 2 threads,
# so the step sequence may differ in the last bits; results agree to the tolerance.
set -eu
rtol=$1; atol=$2; shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
unset OMP_NUM_THREADS
for t in 1 2; do
  "$STIFFKIT" run --quiet --set output.prefix=t$t --set output.hdf5=false \
    --set solver.threads=$t "$@" > run$t.log 2>&1 || { cat run$t.log; exit 1; }
  # the provenance sidecar names the thread count the kernels ran with
  grep -A3 '^  threads:$' t$t.provenance.yaml > threads$t.txt || { cat t$t.provenance.yaml; exit 1; }
  cat threads$t.txt
  grep -q '^    openmp: true$' threads$t.txt
  grep -q "^    max_threads: $t\$" threads$t.txt
  grep -q '^    num_procs: [1-9][0-9]*$' threads$t.txt
  grep -q "solver.threads: $t" t$t.provenance.yaml || grep -q "threads: $t" t$t.provenance.yaml
done
"$NUMDIFF" --rtol "$rtol" --atol "$atol" t1.csv t2.csv
echo "threads 1 vs 2: CSV within rtol $rtol atol $atol"
