#!/usr/bin/env bash
# tests/tools/linsol_plugin_test.sh: a linear solver type from a plugin (data/plugins/thomas_solver.c, linsol.type = thomas) against KLU on 1D heat: both solve the same tridiagonal Newton systems exactly, so CVODE takes the same steps, Newton iterations and factorizations, and the answers agree to 1e-9 relative (rounding of two factorizations)
# Usage: linsol_plugin_test.sh PLUGIN NUMDIFF  (STIFFKIT: the command)
set -euo pipefail
plugin=$1
numdiff=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # linsol.type, output prefix
  "$STIFFKIT" run --set solver.plugin="$plugin" --set linsol.type="$1" --set model.dim=1 \
    --set "model.n=[200]" --set output.hdf5=false --set output.dir="$dir" \
    --set output.prefix="$2" > "$dir/$2.txt" 2>&1 ||
    { cat "$dir/$2.txt"; echo "FAIL: the run with linsol.type=$1 failed"; exit 1; }
  grep -E '^  (steps|nonlinear iterations|matrix factorizations) ' "$dir/$2.txt"
}
run thomas thomas > "$dir/thomas.counts"
run klu klu > "$dir/klu.counts"
cat "$dir/thomas.counts"
diff "$dir/klu.counts" "$dir/thomas.counts" || { echo "FAIL: the counts differ"; exit 1; }
"$numdiff" --rtol 1e-9 --atol 1e-15 "$dir/klu.csv" "$dir/thomas.csv"
echo "OK: thomas takes KLU's steps and gives its answer"
