#!/usr/bin/env bash
# tests/tools/plugin_key_order.sh: a plugin stepper type's own key through the CLI: solver.inhouse_rk2.alpha = 1 (Heun) and 1/2 (midpoint) both converge at order 2 against the exact solution 1/(1+t) of y' = -y^2, y(0) = 1, and give different errors (the key reaches the plugin; on a linear problem every member of the family gives the same answer, so the test problem is nonlinear)
# Usage: plugin_key_order.sh PLUGIN  (STIFFKIT: the command)
set -euo pipefail
plugin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# max |y - y_exact| of one run: alpha h
max_error() {
  "$STIFFKIT" run --set model.type=formula --set formula.variables=y --set 'formula.rhs.y=-y*y' \
    --set 'formula.exact.y=1/(1+t)' --set formula.y0=[1] --set solver.t_end=1 \
    --set solver.plugin="$plugin" --set solver.method=inhouse-rk2 \
    --set solver.inhouse_rk2.alpha="$1" --set solver.fixed_step="$2" --set output.hdf5=false \
    --set output.csv=false --set output.dir="$dir" > "$dir/out.txt" 2>&1 ||
    { cat "$dir/out.txt"; echo "FAIL: the run with alpha=$1 h=$2 failed"; exit 1; }
  awk '/max \|y - y_exact\|/ { print $NF }' "$dir/out.txt"
}
heun1=$(max_error 1 0.02)
heun2=$(max_error 1 0.01)
mid1=$(max_error 0.5 0.02)
mid2=$(max_error 0.5 0.01)
echo "Heun: $heun1 -> $heun2; midpoint: $mid1 -> $mid2"
awk -v a="$heun1" -v b="$heun2" -v c="$mid1" -v d="$mid2" 'BEGIN {
  ok = 1
  # order 2: halving h divides the error by 4 (3.5 to 4.5 allowed)
  if (!(a / b > 3.5 && a / b < 4.5)) { print "FAIL: Heun ratio " a / b; ok = 0 }
  if (!(c / d > 3.5 && c / d < 4.5)) { print "FAIL: midpoint ratio " c / d; ok = 0 }
  # two different methods: their errors at the same h differ by more than 10 %
  if (!(a / c > 1.1 || c / a > 1.1)) { print "FAIL: alpha did not change the method"; ok = 0 }
  if (ok) print "OK: both order 2, and the key reaches the plugin"
  exit !ok }'
