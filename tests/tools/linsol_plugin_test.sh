#!/usr/bin/env bash
# tests/tools/linsol_plugin_test.sh: a linear solver type from a plugin against the built-in solver it should match, on one model: the same counts where the two solve the same systems the same way, and CSVs that agree within a tolerance far below the run's own
# Usage: linsol_plugin_test.sh PLUGIN NUMDIFF TYPE REF RTOL ATOL COUNTS [--set KEY=VALUE ...]
#   TYPE, REF  the plugin's linsol.type and the built-in one to compare with
#   RTOL, ATOL numdiff's tolerances on the CSVs
#   COUNTS     a regex of the statistics lines that must be equal
# (STIFFKIT: the command)
set -euo pipefail
plugin=$1 numdiff=$2 type=$3 ref=$4 rtol=$5 atol=$6 counts=$7
shift 7
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # linsol.type, then the extra --set arguments
  local ls=$1
  shift
  "$STIFFKIT" run --set solver.plugin="$plugin" --set linsol.type="$ls" "$@" \
    --set output.hdf5=false --set output.dir="$dir" --set output.prefix="$ls" \
    > "$dir/$ls.txt" 2>&1 ||
    { cat "$dir/$ls.txt"; echo "FAIL: the run with linsol.type=$ls failed"; exit 1; }
  grep -E "^  ($counts) " "$dir/$ls.txt"
}
run "$type" "$@" > "$dir/$type.counts"
run "$ref" "$@" > "$dir/$ref.counts"
cat "$dir/$type.counts"
diff "$dir/$ref.counts" "$dir/$type.counts" || { echo "FAIL: the counts differ"; exit 1; }
"$numdiff" --rtol "$rtol" --atol "$atol" "$dir/$ref.csv" "$dir/$type.csv"
echo "OK: $type agrees with $ref"
