#!/usr/bin/env bash
# benchmarks/scaling/run_loaded.sh: the 2D heat at 4*10^4 states with 1, 2 and auto threads on an idle node and beside busy processes, interleaved; steps must agree
#
# Usage: bash benchmarks/scaling/run_loaded.sh
# Environment: BUILD_DIR (default build), N (grid size per direction, default 200),
# LOADS (busy processes beside the run, default "0 2"), REPS (default 3).
# Each load level starts that many CPU-bound shell loops, waits 5 s, runs every
# thread setting once per round (REPS rounds) and reports the minimum wall time
# of the integration (stats.wall_time), the threads the run used (provenance)
# and the step count; exit 1 when the step counts differ.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
N=${N:-200}
LOADS=${LOADS:-"0 2"}
REPS=${REPS:-3}
SK="$ROOT/$BUILD_DIR/bin/stiffkit"
OUT=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$OUT"; }
trap cleanup EXIT
unset OMP_NUM_THREADS
for load in $LOADS; do
  pids=()
  for ((i = 0; i < load; i++)); do (while :; do :; done) & pids+=($!); done
  sleep 5
  for ((r = 1; r <= REPS; r++)); do
    for th in 1 2 0; do
      "$SK" run "$ROOT/data/heat2d.yaml" --quiet --set model.n=["$N"] --set model.ic=constant \
        --set model.ic_value=1 --set model.exact=none --set solver.threads="$th" \
        --set output.csv=false --set output.dir="$OUT" --set output.prefix="l${load}_t${th}_r$r" \
        --stats-json "$OUT/l${load}_t${th}_r$r.json" > /dev/null
    done
  done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
done
/usr/bin/python3 - "$OUT" "$REPS" $LOADS <<'PYEOF'
import json, re, sys, h5py
out, reps, loads = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("| busy processes | solver.threads | threads used | integration wall [s] (min) | steps |")
print("|---|---|---|---|---|")
steps_seen = set()
for load in loads:
    for th in ("1", "2", "0"):
        walls, used = [], None
        for r in range(1, reps + 1):
            base = f"{out}/l{load}_t{th}_r{r}"
            st = json.load(open(base + ".json"))["stats"]
            walls.append(st["wall_time"]); steps_seen.add(st["steps"])
            prov = h5py.File(base + ".h5", "r")["provenance"][()].decode()
            used = re.search(r"max_threads: (\d+)", prov).group(1)
        print(f"| {load} | {th if th != '0' else '0 (auto)'} | {used} | {min(walls):.3f} | {st['steps']} |")
print("step counts:", sorted(steps_seen), "(identical)" if len(steps_seen) == 1 else "(DIFFERENT)")
sys.exit(0 if len(steps_seen) == 1 else 1)
PYEOF
