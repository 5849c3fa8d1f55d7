#!/usr/bin/env bash
# benchmarks/overhead/run_memory.sh: peak RSS of `stiffkit run` (2D heat, HDF5 + CSV output, the default) beside the hand-written CVODE program, interleaved
# usage: bash benchmarks/overhead/run_memory.sh [BUILD_DIR] [N] [REPS]   (defaults: build 1000 2)
set -euo pipefail
B=${1:-build}; N=${2:-1000}; REPS=${3:-2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT
for r in $(seq "$REPS"); do
  d=$(cd "$OUT" && /usr/bin/time -f %M "$ROOT/$B/bin/baseline_cvode_heat2d" "$N" 2>&1 >/dev/null | tail -1)
  s=$(cd "$OUT" && /usr/bin/time -f %M "$ROOT/$B/bin/stiffkit" run "$ROOT/data/heat2d.yaml" \
        --set "model.n=[$N]" --quiet 2>&1 | tail -1)
  awk -v d="$d" -v s="$s" -v n="$N" -v r="$r" \
    'BEGIN { printf "N=%s round %s: direct %.1f MiB, stiffkit %.1f MiB, ratio %.3f\n", n, r, d/1024, s/1024, s/d }'
done
