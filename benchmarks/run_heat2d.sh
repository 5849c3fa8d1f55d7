#!/usr/bin/env bash
# benchmarks/run_heat2d.sh: 2D heat benchmark, side by side in one run: hand-written CVODE program, stiffkit (plain and fast vector ops), scipy BDF
#
# Usage: bash benchmarks/run_heat2d.sh
# Environment (all optional):
#   BUILD_DIR    build directory (default: build); configured here if missing
#   SIZES        grid sizes N, n = N*N (default: "100 316 1000")
#   SCIPY_SIZES  sizes for scipy (default: "100 316")
#   KLU_SIZES    sizes for the KLU cases (default: "100 316"; "" to skip)
#   REPS         runs per timed case, minimum wall time reported (default: 3)
#   REPS_LARGE   runs per case for N >= 1000 (default: REPS)
#   RTOL, ATOL   tolerances (default: 1e-6, 1e-9)
#   CONFIG       stiffkit config (default: data/heat2d.yaml)
#   OUT_DIR      raw results (default: $BUILD_DIR/bench-heat2d)
#   PYTHON       python with scipy (default: python3 if it imports scipy, else /usr/bin/python3)
#   SKIP_BUILD   1: do not build
#   REPORT_ONLY  1: only print the report from the results already in OUT_DIR
#   TIMEOUT      seconds per process (default: 3600)
#   SK_RHS_TOTAL 1 (default): stiffkit's stats.rhs_evals already includes the DQ J*v calls
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
BUILD_DIR=${BUILD_DIR:-build}
SIZES=${SIZES:-"100 316 1000"}
SCIPY_SIZES=${SCIPY_SIZES:-"100 316"}
KLU_SIZES=${KLU_SIZES-"100 316"}
REPS=${REPS:-3}
REPS_LARGE=${REPS_LARGE:-$REPS}
RTOL=${RTOL:-1e-6}
ATOL=${ATOL:-1e-9}
CONFIG=${CONFIG:-data/heat2d.yaml}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-heat2d}
SKIP_BUILD=${SKIP_BUILD:-0}
REPORT_ONLY=${REPORT_ONLY:-0}
TIMEOUT=${TIMEOUT:-3600}
TIME_BIN=/usr/bin/time
if [[ -z "${PYTHON:-}" ]]; then
  if python3 -c "import scipy" 2>/dev/null; then PYTHON=python3; else PYTHON=/usr/bin/python3; fi
fi

log() { printf '[run_heat2d] %s\n' "$*" >&2; }
in_list() { # in_list WORD "LIST": WORD is one of the blank-separated LIST
  local y
  local -a ys
  read -ra ys <<<"$2"
  for y in "${ys[@]}"; do [[ "$1" == "$y" ]] && return 0; done
  return 1
}

[[ -x "$TIME_BIN" ]] || { log "$TIME_BIN not found (apt-get install -y time)"; exit 66; }

if [[ "$REPORT_ONLY" != 1 ]]; then
  # ---- build ------------------------------------------------------------------
  BASELINE="$BUILD_DIR/bin/baseline_cvode_heat2d"
  STIFFKIT="$BUILD_DIR/bin/stiffkit"
  if [[ "$SKIP_BUILD" != 1 ]]; then
    if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
      cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >&2 || exit 70
    fi
    cmake --build "$BUILD_DIR" -j"$(nproc)" --target baseline_cvode_heat2d >&2 ||
      { log "cannot build baseline_cvode_heat2d"; exit 70; }
    cmake --build "$BUILD_DIR" -j"$(nproc)" --target stiffkit_cli >&2 ||
      log "cannot build stiffkit_cli: the stiffkit cases are not run"
  fi
  SK_OK=1
  if [[ ! -x "$STIFFKIT" ]] || ! "$STIFFKIT" run --help >/dev/null 2>&1; then
    log "$STIFFKIT run is not usable: the stiffkit cases are not run"
    SK_OK=0
  fi
  if [[ ! -f "$CONFIG" ]]; then
    log "$CONFIG not found: the stiffkit cases are not run"
    SK_OK=0
  fi
  SCIPY_OK=1
  if ! "$PYTHON" -c "import scipy" 2>/dev/null; then
    log "$PYTHON cannot import scipy: scipy cases skipped"
    SCIPY_OK=0
  fi

  mkdir -p "$OUT_DIR" || exit 73
  # results of an earlier run (only this script's own file kinds)
  rm -f "$OUT_DIR"/*.N*.r*.json "$OUT_DIR"/*.N*.r*.time "$OUT_DIR"/*.N*.r*.err \
    "$OUT_DIR"/*.N*.r*.failed "$OUT_DIR"/*.N*.skipped "$OUT_DIR/header.txt"

  # ---- one timed process --------------------------------------------------------
  # run_case CASE N REP KIND ARGS...: KIND is "stdout" (the JSON is the
  # process's stdout) or "statsjson" (stiffkit writes it to --stats-json).
  run_case() {
    local case=$1 nx=$2 rep=$3 kind=$4
    shift 4
    local base="$OUT_DIR/$case.N$nx.r$rep"
    local -a cmd=("$@")
    if [[ "$kind" == statsjson ]]; then cmd+=(--stats-json "$base.json"); fi
    log "$case N=$nx run $rep: ${cmd[*]}"
    local rc
    if [[ "$kind" == stdout ]]; then
      timeout "$TIMEOUT" "$TIME_BIN" -f "%M %e" -o "$base.time" "${cmd[@]}" >"$base.json" 2>"$base.err"
    else
      timeout "$TIMEOUT" "$TIME_BIN" -f "%M %e" -o "$base.time" "${cmd[@]}" >/dev/null 2>"$base.err"
    fi
    rc=$?
    if [[ $rc -ne 0 ]]; then
      log "  failed (exit $rc): $(tail -n 3 "$base.err" | tr '\n' ' ')"
      echo "$rc" >"$base.failed"
    fi
  }

  # sk_run CASE N REP EXTRA-SETTINGS...: stiffkit on the 2D heat problem
  sk_run() {
    local case=$1 nx=$2 rep=$3
    shift 3
    if ((!SK_OK)); then
      : >"$OUT_DIR/$case.N$nx.skipped"
      return
    fi
    run_case "$case" "$nx" "$rep" statsjson "$STIFFKIT" run "$CONFIG" --quiet \
      --set "model.n=[$nx]" --set "solver.rtol=$RTOL" --set "solver.atol=$ATOL" \
      --set solver.t_end=0.1 --set output.n_times=10 --set output.hdf5=false \
      --set output.csv=false "$@"
  }

  # ---- the runs: per size, every case once per round, REPS rounds --------------
  for nx in $SIZES; do
    reps=$REPS
    ((nx >= 1000)) && reps=$REPS_LARGE
    for ((rep = 1; rep <= reps; rep++)); do
      run_case cvode-spgmr "$nx" "$rep" stdout "$BASELINE" "$nx" --rtol "$RTOL" --atol "$ATOL" \
        --linsol spgmr
      # CVODE's own Krylov defaults (maxl 5, eps_lin 0.05), as the baseline: stiffkit's
      # defaults differ (benchmarks/README.md, "Krylov tolerances")
      sk_run sk-spgmr-plain "$nx" "$rep" --set linsol.type=spgmr \
        --set linsol.preconditioner=model --set solver.fast_vector_ops=off \
        --set linsol.maxl=5 --set linsol.eps_lin=0.05
      sk_run sk-spgmr-fast "$nx" "$rep" --set linsol.type=spgmr \
        --set linsol.preconditioner=model --set solver.fast_vector_ops=on \
        --set linsol.maxl=5 --set linsol.eps_lin=0.05
      if ((SCIPY_OK)) && in_list "$nx" "$SCIPY_SIZES"; then
        run_case scipy-bdf "$nx" "$rep" stdout "$PYTHON" benchmarks/scipy_heat2d.py "$nx" \
          --rtol "$RTOL" --atol "$ATOL"
      fi
      if in_list "$nx" "$KLU_SIZES"; then
        run_case cvode-klu-amd "$nx" "$rep" stdout "$BASELINE" "$nx" --rtol "$RTOL" --atol "$ATOL" \
          --linsol klu --klu-ordering amd
        sk_run sk-klu-amd-plain "$nx" "$rep" --set linsol.type=klu \
          --set linsol.ordering=amd --set solver.fast_vector_ops=off
        sk_run sk-klu-auto-fast "$nx" "$rep" --set linsol.type=klu \
          --set linsol.ordering=auto --set solver.fast_vector_ops=on
      fi
    done
  done
fi  # REPORT_ONLY

# ---- report -----------------------------------------------------------------
[[ -d "$OUT_DIR" ]] || { log "no results in $OUT_DIR"; exit 66; }
[[ "$REPORT_ONLY" == 1 && -f "$OUT_DIR/header.txt" ]] || {
  echo "# 2D heat benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
       "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "# rtol=$RTOL atol=$ATOL, REPS=$REPS (N>=1000: $REPS_LARGE), wall = min over runs, RSS = max over runs"
} >"$OUT_DIR/header.txt"
cat "$OUT_DIR/header.txt"
echo
"$PYTHON" - "$OUT_DIR" "$SIZES" <<'PYEOF'
import glob, json, os, re, sys

out_dir, sizes = sys.argv[1], [int(s) for s in sys.argv[2].split()]
CASES = [  # (name, description, reference case for the stiffkit/baseline ratio)
    ("cvode-spgmr", "(a) direct CVODE, SPGMR + ADI, plain N_Vector", None),
    ("sk-spgmr-plain", "(b) stiffkit, SPGMR + ADI, plain N_Vector", "cvode-spgmr"),
    ("sk-spgmr-fast", "(c) stiffkit, SPGMR + ADI, fast N_Vector", "cvode-spgmr"),
    ("scipy-bdf", "(d) scipy solve_ivp BDF, sparse jac (SuperLU)", None),
    ("cvode-klu-amd", "(e) direct CVODE, KLU (AMD), plain N_Vector", None),
    ("sk-klu-amd-plain", "(e) stiffkit, KLU (AMD), plain N_Vector", "cvode-klu-amd"),
    ("sk-klu-auto-fast", "(e) stiffkit, KLU (auto ordering), fast N_Vector", "cvode-klu-amd"),
]
KEYS = ["steps", "failed_steps", "rhs_total", "rhs_evals_dq", "jac_evals", "lin_setups",
        "newton_iters", "newton_fails", "lin_iters", "lin_conv_fails", "prec_setups",
        "prec_solves", "last_order"]
# stiffkit's stats.rhs_evals counts every RHS call (CVODE's own plus the
# difference-quotient J*v ones); CVodeGetNumRhsEvals, which the baseline
# reports as rhs_evals, leaves the latter out. SK_RHS_TOTAL=0 if that changes.
SK_RHS_TOTAL = os.environ.get("SK_RHS_TOTAL", "1") == "1"


def load(case, nx):
    runs, failed = [], 0
    for f in sorted(glob.glob(os.path.join(out_dir, f"{case}.N{nx}.r*.json"))):
        base = f[:-5]
        if os.path.exists(base + ".failed"):
            failed += 1
            continue
        try:
            with open(f) as fh:
                d = json.load(fh)
            with open(base + ".time") as fh:
                last = fh.read().split("\n")
            tm = [l for l in last if re.match(r"^\d+ [\d.]+$", l.strip())][-1].split()
        except (OSError, ValueError, IndexError):
            failed += 1
            continue
        st = d.get("stats", d)  # stiffkit nests the counters under "stats"
        r = {k: st.get(k) for k in KEYS}
        nfe, ndq = st.get("rhs_evals"), st.get("rhs_evals_dq") or 0
        if nfe is not None and not (case.startswith("sk-") and SK_RHS_TOTAL):
            nfe += ndq
        if nfe is not None and case.startswith("sk-"):
            # the engine's calls: stiffkit's total also counts its Jacobian
            # self-test and sparsity probing, which the direct program does not do
            nfe -= (st.get("rhs_evals_selftest") or 0) + (st.get("rhs_evals_pattern") or 0)
        r["rhs_total"] = nfe
        r["wall"] = float(st["wall_time"])
        r["max_err"] = d.get("max_err")
        r["rss_mib"] = int(tm[0]) / 1024.0
        r["proc_s"] = float(tm[1])
        r["n"] = d.get("n")
        runs.append(r)
    if not runs:
        return None, failed
    best = dict(min(runs, key=lambda r: r["wall"]))
    best["rss_mib"] = max(r["rss_mib"] for r in runs)
    best["runs"] = len(runs)
    best["counts_stable"] = all(all(r[k] == runs[0][k] for k in KEYS) for r in runs)
    return best, failed


def fmt(v, spec="{}"):
    return "-" if v is None else spec.format(v)


res = {}
print("| case | n | wall [s] | process [s] | peak RSS [MiB] | steps | RHS evals: total (DQ J*v) "
      "| Jacobian evals | lin iters | max error vs exact | stiffkit/baseline wall "
      "| scipy/stiffkit wall | runs |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for nx in sizes:
    for name, desc, ref in CASES:
        r, failed = load(name, nx)
        res[(name, nx)] = r
        if r is None:
            if failed:
                print(f"| {desc} | {nx*nx} | failed ({failed} runs) | | | | | | | | | | |")
            elif os.path.exists(os.path.join(out_dir, f"{name}.N{nx}.skipped")):
                print(f"| {desc} | {nx*nx} | not run (stiffkit CLI or config missing) "
                      "| | | | | | | | | | |")
            continue
        rhs = fmt(r["rhs_total"])
        if r["rhs_evals_dq"]:
            rhs += f" ({r['rhs_evals_dq']})"
        ratio = "-"
        if ref and res.get((ref, nx)):
            ratio = f"{r['wall'] / res[(ref, nx)]['wall']:.2f}"
        sratio = "-"
        if name == "scipy-bdf":
            for sk in ("sk-spgmr-fast", "cvode-spgmr"):
                if res.get((sk, nx)):
                    tag = "" if sk == "sk-spgmr-fast" else " (vs baseline: no stiffkit run)"
                    sratio = f"{r['wall'] / res[(sk, nx)]['wall']:.1f}{tag}"
                    break
        runs = f"{r['runs']}" + ("" if r["counts_stable"] else " (counts varied!)")
        if failed:
            runs += f", {failed} failed"
        print(f"| {desc} | {r['n']} | {r['wall']:.3f} | {r['proc_s']:.2f} | {r['rss_mib']:.1f} "
              f"| {fmt(r['steps'])} | {rhs} | {fmt(r['jac_evals'])} | {fmt(r['lin_iters'])} "
              f"| {fmt(r['max_err'], '{:.2e}')} | {ratio} | {sratio} | {runs} |")

print()
for nx in sizes:
    sc, kl = res.get(("scipy-bdf", nx)), res.get(("sk-klu-auto-fast", nx))
    if sc and kl:
        print(f"scipy/stiffkit wall against stiffkit with the same kind of solver (sparse direct, "
              f"KLU auto ordering) at n={nx*nx}: {sc['wall'] / kl['wall']:.1f}")
print()
print("Step and evaluation counts, stiffkit (plain and fast N_Vector) vs direct CVODE:")
for nx in sizes:
    for a, b in (("cvode-spgmr", "sk-spgmr-plain"), ("cvode-spgmr", "sk-spgmr-fast"),
                 ("cvode-klu-amd", "sk-klu-amd-plain")):
        ra, rb = res.get((a, nx)), res.get((b, nx))
        if ra is None and rb is None:
            continue
        if ra is None or rb is None:
            print(f"- n={nx*nx}: {a} vs {b}: not compared ({a if ra is None else b} has no result)")
            continue
        diff = [f"{k} {ra[k]} vs {rb[k]}" for k in KEYS if ra[k] != rb[k]]
        same_err = (ra["max_err"] is not None and rb["max_err"] is not None and
                    f"{ra['max_err']:.9e}" == f"{rb['max_err']:.9e}")
        print(f"- n={nx*nx}: {a} vs {b}: " +
              ("IDENTICAL (" + ", ".join(KEYS) + ")" if not diff else "DIFFER: " + "; ".join(diff)) +
              f"; max error {'equal to 10 digits' if same_err else 'differs'}"
              f" ({fmt(ra['max_err'], '{:.10e}')} vs {fmt(rb['max_err'], '{:.10e}')})")
PYEOF
