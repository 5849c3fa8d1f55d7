#!/usr/bin/env bash
# benchmarks/overhead/run_startup.sh: the whole process of a small run, stiffkit (and optionally another stiffkit build) against the hand-written CVODE programs: CPU time, page faults, wall time (minimum of interleaved runs) and shared objects mapped
#
# Usage: bash benchmarks/overhead/run_startup.sh
# Environment: BUILD_DIR (default build), REPS (default 21), STIFFKIT_BASE (the stiffkit
# binary of another build, e.g. an older commit's, measured in the same rounds).
# Cases: ROBER (data/rober.yaml, t_end 40, 3 states) against direct_rober and the 392-state
# Brusselator (data/brusselator.yaml, model.n=[14]) against direct_brusselator; stiffkit
# writes no file (output.csv=false, output.hdf5=false) and prints nothing (--quiet), as the
# direct programs. Each round runs every program once, in turn, under
# `perf stat -e task-clock,page-faults,duration_time` (CPU time, page faults and wall time of
# the process itself); the table gives the minimum of each column over the rounds and the
# ratio to the direct program. "objects" counts the shared objects the
# loader maps (LD_DEBUG=files), module loads included.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
REPS=${REPS:-21}
BIN="$ROOT/$BUILD_DIR/bin"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
programs=(direct stiffkit)
[ -n "${STIFFKIT_BASE:-}" ] && programs=(direct base stiffkit)
command_of() { # command_of CASE PROGRAM
  local sk args
  case "$2" in
    stiffkit) sk="$BIN/stiffkit" ;;
    base) sk="$STIFFKIT_BASE" ;;
  esac
  case "$1" in
    rober) args="run $ROOT/data/rober.yaml --set solver.t_end=40" ;;
    bru392) args="run $ROOT/data/brusselator.yaml --set model.n=[14]" ;;
  esac
  case "$2" in
    direct) [ "$1" = rober ] && echo "$BIN/direct_rober" || echo "$BIN/direct_brusselator --n 14" ;;
    *) echo "$sk $args --set output.csv=false --set output.hdf5=false --set output.dir=$OUT --quiet" ;;
  esac
}
for c in rober bru392; do
  for p in "${programs[@]}"; do
    # shellcheck disable=SC2046
    (cd "$OUT" && LD_DEBUG=files $(command_of "$c" "$p") 2>&1 > /dev/null |
      grep -c "generating link map" > "$OUT/$c.$p.objects") || true
  done
done
for r in $(seq 1 "$REPS"); do
  for c in rober bru392; do
    for p in "${programs[@]}"; do
      # shellcheck disable=SC2046
      perf stat -x, -e task-clock,page-faults,duration_time -o "$OUT/perf" \
        $(command_of "$c" "$p") > /dev/null
      cpu=$(awk -F, '/task-clock/ {print $1}' "$OUT/perf")
      pf=$(awk -F, '/page-faults/ {print $1}' "$OUT/perf")
      ns=$(awk -F, '/duration_time/ {print $1}' "$OUT/perf")
      echo "$c $p $cpu $pf $ns" >> "$OUT/rows"
    done
  done
done
/usr/bin/python3 - "$OUT" "${programs[@]}" <<'PYEOF'
import sys, collections
out, programs = sys.argv[1], sys.argv[2:]
rows = collections.defaultdict(list)
for line in open(out + "/rows"):
    c, p, cpu, pf, wall = line.split()
    rows[(c, p)].append((float(cpu), int(pf), float(wall) / 1e6))
names = {"direct": "direct CVODE program", "base": "stiffkit (STIFFKIT_BASE)", "stiffkit": "stiffkit"}
print("| case | program | objects mapped | process CPU [ms] | ratio | page faults | ratio | process wall [ms] | ratio |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for c in ("rober", "bru392"):
    best = {p: [min(v[i] for v in rows[(c, p)]) for i in range(3)] for p in programs}
    d = best["direct"]
    for p in programs:
        b = best[p]
        objs = open(f"{out}/{c}.{p}.objects").read().strip()
        rat = lambda i: "-" if p == "direct" else f"{b[i] / d[i]:.2f}"
        print(f"| {'ROBER, 3' if c == 'rober' else 'Brusselator, 392'} | {names[p]} | {objs} | "
              f"{b[0]:.2f} | {rat(0)} | {b[1]} | {rat(1)} | {b[2]:.1f} | {rat(2)} |")
PYEOF
