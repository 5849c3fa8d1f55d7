#!/usr/bin/env bash
# benchmarks/overhead/run_overhead.sh: stiffkit against hand-written CVODE programs (ROBER, a 392-state Brusselator), interleaved runs, identical counts required
#
# Usage: bash benchmarks/overhead/run_overhead.sh
# Environment: BUILD_DIR (default build), REPS (default 11), KERNELS (stiffkit's
# solver.fast_vector_ops values to measure, default "auto off"), CASES (default
# "rober bru392"), SKIP_BUILD=1.
# Cases: rober = data/rober.yaml with solver.t_end=40 against direct_rober (3
# states); bru392 = data/brusselator.yaml with model.n=[14] (14 x 14 nodes x 2
# species = 392 states, reaction-diffusion chemistry) against
# direct_brusselator. Each round runs, per case, the direct program once and
# stiffkit once per KERNELS value; the table gives the minimum integration
# wall time (direct: around the CVode calls; stiffkit: stats.wall_time) and
# the minimum whole-process time, and the run fails (exit 1) when a stiffkit
# run's steps, failed steps, RHS and Jacobian evaluations, linear setups,
# Newton iterations or last step size (all 17 digits)
# differ from the direct program's. With valgrind installed (CALLGRIND=1,
# the default), one more run per program counts the instructions executed
# inside the integration (callgrind: direct inside CVode, stiffkit inside
# sk_stepper_advance), a measure that the load of a shared machine does not
# change. With perf installed (CPUTIME=1, the default), each round also runs
# every program once under `perf stat -e task-clock`: the CPU time of the
# whole process (loader, library mapping, integration, output), which a
# shared machine's load changes far less than its wall time. The 2D heat
# sizes 10^4..10^6 are measured with benchmarks/run_heat2d.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
BUILD_DIR=${BUILD_DIR:-build}
REPS=${REPS:-11}
KERNELS=${KERNELS:-"auto off"}
CASES=${CASES:-"rober bru392"}
PY=/usr/bin/python3
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  cmake --build "$BUILD_DIR" --target direct_rober direct_brusselator stiffkit_cli -j"$(nproc)" > /dev/null
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
SK="$ROOT/$BUILD_DIR/bin/stiffkit"
BIN="$ROOT/$BUILD_DIR/bin"
direct_cmd() {
  case "$1" in
    rober) echo "$BIN/direct_rober" ;;
    bru392) echo "$BIN/direct_brusselator --n 14" ;;
  esac
}
stiffkit_args() {
  case "$1" in
    rober) echo "$ROOT/data/rober.yaml --set solver.t_end=40" ;;
    bru392) echo "$ROOT/data/brusselator.yaml --set model.n=[14]" ;;
  esac
}
CALLGRIND=${CALLGRIND:-1}
command -v valgrind > /dev/null || CALLGRIND=0
now() { date +%s.%N; }
CPUTIME=${CPUTIME:-1}
perf stat -x, -e task-clock -o /dev/null true > /dev/null 2>&1 || CPUTIME=0
# cputime OUTFILE COMMAND...: the process's task-clock in ms into OUTFILE
cputime() {
  local out=$1
  shift
  perf stat -x, -e task-clock -o "$out.perf" "$@" > /dev/null
  sed -n 's/^\([0-9.]*\),msec,task-clock.*/\1/p' "$out.perf" > "$out"
}
# instructions inside the integration: callgrind_ir FUNCTION OUTFILE COMMAND...
callgrind_ir() {
  local fn=$1 out=$2
  shift 2
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$fn" "$@" 2>&1 > /dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' > "$out"
}
if [[ "$CALLGRIND" == 1 ]]; then
  for c in $CASES; do
    # shellcheck disable=SC2046 # the case's command and arguments are words
    callgrind_ir CVode "$OUT/$c.direct.ir" $(direct_cmd "$c")
    for k in $KERNELS; do
      # shellcheck disable=SC2046
      (cd "$OUT" && callgrind_ir sk_stepper_advance "$OUT/$c.sk_$k.ir" "$SK" run $(stiffkit_args "$c") \
        --set solver.fast_vector_ops="$k" --set output.hdf5=false --set output.csv=false \
        --set output.prefix="${c}_$k" --quiet)
    done
  done
fi
for r in $(seq 1 "$REPS"); do
  for c in $CASES; do
    t0=$(now); $(direct_cmd "$c") > "$OUT/$c.direct.$r.json"; t1=$(now)
    echo "$t0 $t1" > "$OUT/$c.direct.$r.time"
    for k in $KERNELS; do
      t0=$(now)
      # (no subshell: its fork would be counted in stiffkit's process time only)
      # shellcheck disable=SC2046 # the case's arguments are words
      "$SK" run $(stiffkit_args "$c") --set solver.fast_vector_ops="$k" \
        --set output.hdf5=false --set output.csv=false --set output.prefix="${c}_$k" \
        --set output.dir="$OUT" --stats-json "$OUT/$c.sk_$k.$r.json" --quiet > /dev/null
      t1=$(now)
      echo "$t0 $t1" > "$OUT/$c.sk_$k.$r.time"
    done
    if [[ "$CPUTIME" == 1 ]]; then
      # shellcheck disable=SC2046
      cputime "$OUT/$c.direct.$r.cpu" $(direct_cmd "$c")
      for k in $KERNELS; do
        # shellcheck disable=SC2046
        (cd "$OUT" && cputime "$OUT/$c.sk_$k.$r.cpu" "$SK" run $(stiffkit_args "$c") \
          --set solver.fast_vector_ops="$k" --set output.hdf5=false --set output.csv=false \
          --set output.prefix="${c}_$k" --quiet)
      done
    fi
  done
done
"$PY" - "$OUT" "$REPS" "$CASES" $KERNELS <<'PYEOF'
import json, sys
out, reps, cases, kernels = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4:]
keys = ["steps", "failed_steps", "rhs_evals", "jac_evals", "lin_setups", "newton_iters", "newton_fails"]
title = {"rober": ("stiffkit run data/rober.yaml", "direct CVODE (KLU, AMD, packaged kernels)"),
         "bru392": ("stiffkit run data/brusselator.yaml model.n=[14]", "direct CVODE, Brusselator (KLU, AMD, packaged kernels)")}
def load(name):
    walls, procs, counts, n = [], [], None, None
    for r in range(1, reps + 1):
        d = json.load(open(f"{out}/{name}.{r}.json"))
        st = d.get("stats", d)
        n = d["n"]
        t0, t1 = map(float, open(f"{out}/{name}.{r}.time").read().split())
        walls.append(st["wall_time"]); procs.append(t1 - t0)
        c = {k: st[k] for k in keys}
        c["last_h"] = float(st["last_h"])
        # the engine's own calls: stiffkit also counts its Jacobian self-test and sparsity probing
        c["rhs_evals"] -= st.get("rhs_evals_selftest", 0) + st.get("rhs_evals_pattern", 0)
        assert counts in (None, c), f"{name}: counts differ between runs"
        counts = c
    return n, min(walls), min(procs), counts
def cputime(name):
    try:
        return min(float(open(f"{out}/{name}.{r}.cpu").read()) for r in range(1, reps + 1))
    except (OSError, ValueError):
        return None
def cpu_cells(c, base):
    if c is None:
        return "- | -"
    return f"{c:.1f} | " + ("-" if c is base else f"{c/base:.2f}")
def instructions(name):
    try:
        return int(open(f"{out}/{name}.ir").read())
    except (OSError, ValueError):
        return None
def ir_cells(ir, base):
    if ir is None:
        return "- | -"
    return f"{ir/1e6:.2f} | " + ("-" if base is None or ir is base else f"{ir/base:.2f}")
print("| program | n | integration wall [ms] | process [ms] | ratio wall | ratio process | process CPU [ms] | ratio CPU | instructions [10^6] | ratio instructions | steps | RHS (engine) | Jac | Newton | counts vs direct |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
bad = 0
for case in cases:
    n, dw, dp, dc = load(f"{case}.direct")
    di = instructions(f"{case}.direct")
    dcpu = cputime(f"{case}.direct")
    print(f"| {title[case][1]} | {n} | {1e3*dw:.3f} | {1e3*dp:.1f} | - | - | {cpu_cells(dcpu, dcpu)} | {ir_cells(di, di)} | {dc['steps']} | {dc['rhs_evals']} | {dc['jac_evals']} | {dc['newton_iters']} | - |")
    for k in kernels:
        _, w, p, c = load(f"{case}.sk_{k}")
        same = c == dc
        bad |= not same
        print(f"| {title[case][0]}, fast_vector_ops={k} | {n} | {1e3*w:.3f} | {1e3*p:.1f} | {w/dw:.2f} | {p/dp:.2f} | {cpu_cells(cputime(f'{case}.sk_{k}'), dcpu)} | {ir_cells(instructions(f'{case}.sk_{k}'), di)} | {c['steps']} | {c['rhs_evals']} | {c['jac_evals']} | {c['newton_iters']} | {'identical' if same else 'DIFFERENT: ' + str(c)} |")
sys.exit(1 if bad else 0)
PYEOF
