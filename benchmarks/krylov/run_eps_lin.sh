#!/usr/bin/env bash
# benchmarks/krylov/run_eps_lin.sh: CVODE/IDA Krylov runs over a grid of linsol.eps_lin and linsol.maxl (steps, iterations, error-test failures, time, error) on the 2D/3D heat, the Brusselator and an unstructured network
# usage: benchmarks/krylov/run_eps_lin.sh [BUILD_DIR] [OUT.csv] [CASES]   (from the repository root)
#   CASES: a regular expression over the case names (default: all)
# Every run is one thread (OMP_NUM_THREADS=1). Counts are deterministic; "cpu" is the
# process's user + system CPU time (less sensitive to other load on a shared machine than
# the integration wall time, which is also recorded). One CSV row per run.
set -euo pipefail
BUILD=${1:-build}
OUT=${2:-eps_lin.csv}
CASES=${3:-.}
S="$BUILD/bin/stiffkit"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=1
/usr/bin/python3 benchmarks/krylov/make_mesh_net.py "$dir/mesh.net" 20000
HEAT="data/heat2d.yaml"
ONE="--set model.ic=constant --set model.ic_value=1 --set model.exact=none"
POLY="--set model.ic=formula --set model.ic_formula=16*x*(1-x)*y*(1-y) --set model.exact=none"
SIN="--set model.semidiscrete=true"
EPS="0.05 0.01 5e-3 1e-3 5e-4 1e-4"
MAXL="5 10 20"
# name | maxl list | config and settings
cases=(
  "heat2d_1e4_one_model|$MAXL|$HEAT --set model.n=[100] $ONE"
  "heat2d_1e4_one_none|$MAXL|$HEAT --set model.n=[100] $ONE --set linsol.preconditioner=none"
  "heat2d_1e4_one_amg|5 20|$HEAT --set model.n=[100] $ONE --set linsol.preconditioner=amg"
  "heat2d_1e4_sin_model|$MAXL|$HEAT --set model.n=[100] $SIN"
  "heat2d_1e5_one_model|$MAXL|$HEAT --set model.n=[316] $ONE"
  "heat2d_1e5_poly_model|$MAXL|$HEAT --set model.n=[316] $POLY"
  "heat2d_1e5_sin_model|$MAXL|$HEAT --set model.n=[316] $SIN"
  "heat2d_1e5_one_amg|5|$HEAT --set model.n=[316] $ONE --set linsol.preconditioner=amg"
  "heat3d_6e4_sin_model|$MAXL|$HEAT --set model.dim=3 --set model.n=[40] --set model.mode=[1] $SIN"
  "heat3d_6e4_poly_model|5 20|$HEAT --set model.dim=3 --set model.n=[40] --set model.mode=[1] --set model.exact=none --set model.ic=formula --set model.ic_formula=64*x*(1-x)*y*(1-y)*z*(1-z)"
  "bruss_2x128sq_jacobi|$MAXL|data/brusselator.yaml --set model.n=[128] --set linsol.type=spgmr --set linsol.preconditioner=jacobi"
  "bruss_2x128sq_amg|5 20|data/brusselator.yaml --set model.n=[128] --set linsol.type=spgmr --set linsol.preconditioner=amg"
  "network_2e4_amg|5 20|$dir/mesh.net --set solver.method=cvode-bdf --set solver.t_end=100 --set linsol.type=spgmr --set linsol.preconditioner=amg"
  "heat2d_1e4_one_ida|5 20|$HEAT --set model.n=[100] $ONE --set solver.method=ida-bdf --set linsol.preconditioner=none"
)
val() { awk -v k="$1" 'index($0, k) { v = $NF } END { print (v == "" ? "" : v) }' "$2"; }
echo "case,maxl,eps_lin,status,steps,error_test_failures,newton_iters,lin_iters,lin_conv_fails,prec_setups,amg_hierarchies,wall_s,cpu_s,max_err" > "$OUT"
for c in "${cases[@]}"; do
  IFS='|' read -r name maxls args <<< "$c"
  [[ "$name" =~ $CASES ]] || continue
  for m in $maxls; do
    for e in $EPS; do
      # shellcheck disable=SC2086
      set +e
      /usr/bin/time -f "cpu %U %S" -o "$dir/time.txt" "$S" run $args \
        --set linsol.maxl=$m --set linsol.eps_lin=$e --set output.dir="$dir" \
        --set output.hdf5=false --set output.csv=false > "$dir/out.txt" 2>&1
      rc=$?
      set -e
      cpu=$(awk '/^cpu/ { printf "%.2f", $2 + $3 }' "$dir/time.txt")
      row="$name,$m,$e,$rc,$(val '  steps ' "$dir/out.txt"),$(val 'error test failures' "$dir/out.txt")"
      row="$row,$(val 'nonlinear iterations' "$dir/out.txt"),$(val '  linear iterations' "$dir/out.txt")"
      row="$row,$(val 'linear convergence failures' "$dir/out.txt"),$(val 'preconditioner setups' "$dir/out.txt")"
      row="$row,$(val 'AMG hierarchies' "$dir/out.txt"),$(val 'wall time' "$dir/out.txt"),$cpu"
      row="$row,$(val 'max |y - y_exact|' "$dir/out.txt")"
      echo "$row" | tee -a "$OUT"
    done
  done
done
