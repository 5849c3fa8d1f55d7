#!/usr/bin/env bash
# benchmarks/overhead/run_overhead.sh: stiffkit against a hand-written CVODE program on data/rober.yaml, interleaved runs, identical counts required
#
# Usage: bash benchmarks/overhead/run_overhead.sh
# Environment: BUILD_DIR (default build), REPS (default 11), KERNELS (stiffkit's
# solver.fast_vector_ops values to measure, default "auto off"), SKIP_BUILD=1.
# Each round runs the direct program once and stiffkit once per KERNELS value;
# the table gives the minimum integration wall time (direct: around the CVode
# calls; stiffkit: stats.wall_time) and the minimum whole-process time, and
# the run fails (exit 1) when a stiffkit run's steps, failed steps, RHS and
# Jacobian evaluations, linear setups, Newton iterations or final state differ
# from the direct program's. The 2D heat sizes 10^4..10^6 are measured the
# same way by benchmarks/run_heat2d.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
BUILD_DIR=${BUILD_DIR:-build}
REPS=${REPS:-11}
KERNELS=${KERNELS:-"auto off"}
PY=/usr/bin/python3
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  cmake --build "$BUILD_DIR" --target direct_rober stiffkit_cli -j"$(nproc)" > /dev/null
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
SK="$ROOT/$BUILD_DIR/bin/stiffkit"
DIRECT="$ROOT/$BUILD_DIR/bin/direct_rober"
now() { date +%s.%N; }
for r in $(seq 1 "$REPS"); do
  t0=$(now); "$DIRECT" > "$OUT/direct.$r.json"; t1=$(now)
  echo "$t0 $t1" > "$OUT/direct.$r.time"
  for k in $KERNELS; do
    t0=$(now)
    (cd "$OUT" && "$SK" run "$ROOT/data/rober.yaml" --set solver.t_end=40 --set solver.fast_vector_ops="$k" \
      --set output.hdf5=false --set output.csv=false --set output.prefix="rober_$k" \
      --stats-json "$OUT/sk_$k.$r.json" --quiet > /dev/null)
    t1=$(now)
    echo "$t0 $t1" > "$OUT/sk_$k.$r.time"
  done
done
"$PY" - "$OUT" "$REPS" $KERNELS <<'PYEOF'
import json, sys
out, reps, kernels = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
keys = ["steps", "failed_steps", "rhs_evals", "jac_evals", "lin_setups", "newton_iters", "newton_fails"]
def load(name):
    walls, procs, counts = [], [], None
    for r in range(1, reps + 1):
        d = json.load(open(f"{out}/{name}.{r}.json"))
        st = d.get("stats", d)
        t0, t1 = map(float, open(f"{out}/{name}.{r}.time").read().split())
        walls.append(st["wall_time"]); procs.append(t1 - t0)
        c = {k: st[k] for k in keys}
        # the engine's own calls: stiffkit also counts its Jacobian self-test and sparsity probing
        c["rhs_evals"] -= st.get("rhs_evals_selftest", 0) + st.get("rhs_evals_pattern", 0)
        assert counts in (None, c), f"{name}: counts differ between runs"
        counts = c
    return min(walls), min(procs), counts
dw, dp, dc = load("direct")
print("| program | n | integration wall [ms] | process [ms] | ratio wall | ratio process | steps | RHS (engine) | Jac | Newton | counts vs direct |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
print(f"| direct CVODE (KLU, AMD, packaged kernels) | 3 | {1e3*dw:.3f} | {1e3*dp:.1f} | - | - | {dc['steps']} | {dc['rhs_evals']} | {dc['jac_evals']} | {dc['newton_iters']} | - |")
bad = 0
for k in kernels:
    w, p, c = load(f"sk_{k}")
    same = c == dc
    bad |= not same
    print(f"| stiffkit run data/rober.yaml, fast_vector_ops={k} | 3 | {1e3*w:.3f} | {1e3*p:.1f} | {w/dw:.2f} | {p/dp:.2f} | {c['steps']} | {c['rhs_evals']} | {c['jac_evals']} | {c['newton_iters']} | {'identical' if same else 'DIFFERENT: ' + str(c)} |")
sys.exit(1 if bad else 0)
PYEOF
