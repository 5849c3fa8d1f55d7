#!/usr/bin/env bash
# tests/tools/verify_calibration.sh: `stiffkit verify` never vouches for more digits than are true: rtol 1e-3..1e-10 on models with exact solutions, every output time
# Environment: STIFFKIT (the CLI), SK_DATA (data/), SLOW_MODEL (tests/plugins/slow_model.c built).
# The truth: data/heat2d.yaml with model.semidiscrete=true has the exact solution of the
# discretized system (the grid's sine mode decays with the discrete eigenvalue), and the
# slow plugin y_i' = -k_i y_i has y_i = exp(-k_i t). For every case and rtol the JSON report's
# per-time series must give vouched_digits <= true_digits at every output time (both are
# relative to max |y| of the answer there, so this is claimed error >= true error), and the
# tolerance-refinement check must have run (claimed errors are finite numbers).
set -u
: "${STIFFKIT:?}" "${SK_DATA:?}" "${SLOW_MODEL:?}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
fail=0
run_case() {
  local name=$1; shift
  local e rtol atol
  for e in 3 4 5 6 7 8 9 10; do
    rtol=1e-$e
    atol=1e-$((e + 3))
    if ! "$STIFFKIT" verify --quiet "$@" --set solver.rtol=$rtol --set solver.atol=$atol \
        --report r.json > out.txt 2> err.txt; then
      # a failing check is reported by the JSON below; a missing report is a failure here
      [ -f r.json ] || { echo "FAIL: $name rtol $rtol: no report"; cat err.txt; fail=1; continue; }
    fi
    if ! /usr/bin/python3 - "$name" "$rtol" <<'PY'
import json, math, sys
name, rtol = sys.argv[1], sys.argv[2]
d = json.load(open("r.json"))
times = d["times"]
assert len(times) == d["n_times"] and times, "%s rtol %s: no per-time series" % (name, rtol)
worst = None
for t in times:
    v, tr = t["vouched_digits"], t["true_digits"]
    assert v is not None and tr is not None, "%s rtol %s: t = %r has no digits: %r" % (name, rtol, t["t"], t)
    assert t["claimed_err"] >= t["true_err"], "%s rtol %s t = %g: claimed %.3e < true %.3e" % (
        name, rtol, t["t"], t["claimed_err"], t["true_err"])
    assert v <= tr, "%s rtol %s t = %g: vouched %.3f > true %.3f digits" % (name, rtol, t["t"], v, tr)
    worst = tr - v if worst is None else min(worst, tr - v)
ex = [c for c in d["checks"] if c["name"] == "exact_solution"][0]
assert ex["values"]["times_over_claimed"] == 0, ex
print("ok: %-12s rtol %-6s %2d times, margin >= %.2f digits, final: vouched %.2f, true %.2f" % (
    name, rtol, len(times), worst, times[-1]["vouched_digits"], times[-1]["true_digits"]))
PY
    then
      fail=1
    fi
    rm -f r.json
  done
}
run_case heat2d_cvode "$SK_DATA/heat2d.yaml" --set "model.n=[20]" --set model.semidiscrete=true
run_case heat2d_bdf2 "$SK_DATA/heat2d.yaml" --set "model.n=[12]" --set model.semidiscrete=true \
  --set solver.method=bdf2 --set linsol.type=klu --set linsol.preconditioner=none
run_case slow_plugin "$SK_DATA/heat2d.yaml" --set model.type=plugin --set "model.plugin=$SLOW_MODEL" \
  --set model.parameters.delay=0 --set solver.t_end=1 --set linsol.type=klu \
  --set linsol.preconditioner=none
exit $fail
