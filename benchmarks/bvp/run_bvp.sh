#!/usr/bin/env bash
# benchmarks/bvp/run_bvp.sh: stiffkit's BVP solvers (fd, multiple shooting) beside scipy's solve_bvp on the
# same problems and tolerances, in one run: mesh points, max error against the closed form, wall time
# usage: bash benchmarks/bvp/run_bvp.sh [BUILD_DIR]   (from the repository root)
set -euo pipefail
BUILD=${1:-build}
SK="$BUILD/bin/stiffkit"
D=data/bvp
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "case,solver,tol,status,points,max_rel_error,wall_s"
run_sk() { # name config tol method [sets...]
  local name=$1 cfg=$2 tol=$3 method=$4; shift 4
  local best="" json
  for _ in 1 2 3; do
    json=$("$SK" bvp "$cfg" --quiet --json --set bvp.tol="$tol" --set bvp.method="$method" \
      --set output.dir="$out" "$@")
    local t
    t=$(echo "$json" | sed -E 's/.*"wall_time": ([^,}]*).*/\1/')
    best=$(/usr/bin/python3 -c "print(min(float('$t'), float('${best:-1e9}')))")
  done
  local pts err st
  pts=$(echo "$json" | sed -E 's/.*"points": ([0-9]*).*/\1/')
  err=$(echo "$json" | sed -E 's/.*"error_exact": ([^,}]*).*/\1/')
  st=$(echo "$json" | sed -E 's/.*"status": "([a-z]*)".*/\1/')
  printf "%s,stiffkit-%s,%s,%s,%s,%.3e,%.4f\n" "$name" "$method" "$tol" "$st" "$pts" "$err" "$best"
}
BRATU_EXACT=(--set "bvp.exact.y=-2 * log(cosh((x - 0.5) * 1.517164599050755 / 2) / cosh(1.517164599050755 / 4))")
for tol in 1e-6 1e-8; do
  run_sk bratu $D/bratu.yaml $tol fd "${BRATU_EXACT[@]}"
  run_sk bratu $D/bratu.yaml $tol multiple-shooting "${BRATU_EXACT[@]}"
  /usr/bin/python3 benchmarks/bvp/scipy_bvp.py bratu $tol
done
for tol in 1e-6 1e-8; do
  run_sk rod $D/heat_rod_flux.yaml $tol fd
  run_sk rod $D/heat_rod_flux.yaml $tol multiple-shooting
  /usr/bin/python3 benchmarks/bvp/scipy_bvp.py rod $tol
done
for tol in 1e-4 1e-6; do
  run_sk layer $D/boundary_layer.yaml $tol fd
  /usr/bin/python3 benchmarks/bvp/scipy_bvp.py layer $tol
done
