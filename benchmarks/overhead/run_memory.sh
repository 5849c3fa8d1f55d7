#!/usr/bin/env bash
# benchmarks/overhead/run_memory.sh: peak RSS of `stiffkit run` (2D heat, HDF5 + CSV output, the default) beside the hand-written CVODE program with the same solver, interleaved; the step counts must agree
# usage: bash benchmarks/overhead/run_memory.sh [BUILD_DIR] [N] [REPS]   (defaults: build 1000 2)
# Two solver settings, SPGMR + the ADI preconditioner (linsol.preconditioner=model) in both:
#   stiffkit's Krylov defaults (maxl 20, eps_lin 1e-3) against the direct program with
#   --maxl 20 --eps-lin 1e-3; and SUNDIALS' defaults (maxl 5, eps_lin 0.05) in both.
# Peak RSS from /usr/bin/time %M; the run fails (exit 1) when the steps, failed steps or
# linear iterations of a pair differ.
set -euo pipefail
B=${1:-build}; N=${2:-1000}; REPS=${3:-2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT
counts() { # counts JSON: "steps failed lin_iters" of a direct program's or stiffkit's JSON
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d.get("stats", d)
print(s["steps"], s["failed_steps"], s["lin_iters"])' "$1"
}
fail=0
for r in $(seq "$REPS"); do
  for cfg in stiffkit sundials; do
    if [ "$cfg" = stiffkit ]; then d_args="--maxl 20 --eps-lin 1e-3"; s_args=""
    else d_args=""; s_args="--set linsol.maxl=5 --set linsol.eps_lin=0.05"; fi
    # shellcheck disable=SC2086 # the argument lists are words
    d=$(cd "$OUT" && /usr/bin/time -o "$OUT/d.time" -f %M "$ROOT/$B/bin/baseline_cvode_heat2d" \
          "$N" $d_args > "$OUT/d.json" && cat "$OUT/d.time")
    # shellcheck disable=SC2086
    s=$(cd "$OUT" && /usr/bin/time -o "$OUT/s.time" -f %M "$ROOT/$B/bin/stiffkit" run \
          "$ROOT/data/heat2d.yaml" --set "model.n=[$N]" --set linsol.preconditioner=model \
          $s_args --stats-json "$OUT/s.json" --quiet && cat "$OUT/s.time")
    dc=$(counts "$OUT/d.json"); sc=$(counts "$OUT/s.json")
    [ "$dc" = "$sc" ] || { echo "FAIL: $cfg defaults: counts differ (direct $dc, stiffkit $sc)"; fail=1; }
    awk -v d="$d" -v s="$s" -v n="$N" -v r="$r" -v c="$cfg" -v k="$sc" \
      'BEGIN { printf "N=%s %s Krylov defaults, round %s: direct %.1f MiB, stiffkit %.1f MiB, ratio %.3f (steps, failed, lin iters: %s)\n", n, c, r, d/1024, s/1024, s/d, k }'
  done
done
exit "$fail"
