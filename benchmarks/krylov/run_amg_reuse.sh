#!/usr/bin/env bash
# benchmarks/krylov/run_amg_reuse.sh: BoomerAMG hierarchy re-use (linsol.amg_reuse_gamma_ratio) side by side: hierarchies built, preconditioner setups, steps, iterations, time
# usage: benchmarks/krylov/run_amg_reuse.sh [BUILD_DIR] [OUT.csv] [ROUNDS] [CASES]   (from the repository root)
# The ratios of one case run interleaved, ROUNDS times (default 2); "cpu" is the process's
# user + system CPU time, one thread. One CSV row per run.
set -euo pipefail
BUILD=${1:-build}
OUT=${2:-amg_reuse.csv}
ROUNDS=${3:-2}
CASES=${4:-.}   # a regular expression over the case names
S="$BUILD/bin/stiffkit"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=1
/usr/bin/python3 benchmarks/krylov/make_mesh_net.py "$dir/mesh.net" 20000
RATIOS="1 1.5 2 4 8"
cases=(
  "heat2d_1e5_one|data/heat2d.yaml --set model.n=[316] --set model.ic=constant --set model.ic_value=1 --set model.exact=none"
  "heat2d_1e5_sin|data/heat2d.yaml --set model.n=[316] --set model.semidiscrete=true"
  "network_2e4|$dir/mesh.net --set solver.method=cvode-bdf --set solver.t_end=100 --set linsol.type=spgmr"
)
val() { awk -v k="$1" 'index($0, k) { v = $NF } END { print v }' "$2"; }
echo "case,ratio,round,status,steps,error_test_failures,newton_iters,lin_iters,prec_setups,amg_hierarchies,wall_s,cpu_s,max_err" > "$OUT"
for c in "${cases[@]}"; do
  IFS='|' read -r name args <<< "$c"
  [[ "$name" =~ $CASES ]] || continue
  for round in $(seq "$ROUNDS"); do
    for r in $RATIOS; do
      set +e
      # shellcheck disable=SC2086
      /usr/bin/time -f "cpu %U %S" -o "$dir/time.txt" "$S" run $args \
        --set linsol.preconditioner=amg --set linsol.amg_reuse_gamma_ratio=$r \
        --set output.dir="$dir" --set output.hdf5=false --set output.csv=false > "$dir/out.txt" 2>&1
      rc=$?
      set -e
      cpu=$(awk '/^cpu/ { printf "%.2f", $2 + $3 }' "$dir/time.txt")
      row="$name,$r,$round,$rc,$(val '  steps ' "$dir/out.txt"),$(val 'error test failures' "$dir/out.txt")"
      row="$row,$(val 'nonlinear iterations' "$dir/out.txt"),$(val '  linear iterations' "$dir/out.txt")"
      row="$row,$(val 'preconditioner setups' "$dir/out.txt"),$(val 'AMG hierarchies' "$dir/out.txt")"
      row="$row,$(val 'wall time' "$dir/out.txt"),$cpu,$(val 'max |y - y_exact|' "$dir/out.txt")"
      echo "$row" | tee -a "$OUT"
    done
  done
done
