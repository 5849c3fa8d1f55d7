#!/usr/bin/env bash
# benchmarks/work_precision.sh: work-precision runs (error vs wall time and vs RHS evaluations) of every stepper on the 2D heat and Brusselator problems
#
# Usage: bash benchmarks/work_precision.sh
# (The recorded figures of benchmarks/results come from this script. For a study of your own
# config, your own steppers or a plugin's, use `stiffkit bench CONFIG.yaml`: README,
# "Comparing methods: stiffkit bench".)
# Environment (all optional):
#   BUILD_DIR    build directory with bin/stiffkit (default: build); configured here if missing
#   OUT_DIR      raw runs: stats JSON, final states, logs (default: $BUILD_DIR/bench-wp)
#   RESULTS_DIR  CSV, PNG and summary (default: benchmarks/results)
#   REPS         runs per point, the minimum wall time is kept (default: 5)
#   TIMEOUT      seconds per run (default: 60)
#   PYTHON       python3 with numpy, h5py and matplotlib (default: /usr/bin/python3)
#   SKIP_BUILD   1: do not build stiffkit_cli
#   REPORT_ONLY  1: only collect and plot the runs already in OUT_DIR
#
# Problems (the configs in data/, with these overrides):
#   heat2d       data/heat2d.yaml, model.n=[30] (n = 900), t in [0, 0.1], error against the
#                exact solution of the semi-discrete system (model.semidiscrete=true), so it
#                is the time-integration error only
#   brusselator  data/brusselator.yaml, model.n=[16] (n = 512), t in [0, 2], error against a
#                cvode-bdf run at rtol 1e-12, atol 1e-14 (its own accuracy is estimated by a
#                second reference at rtol 1e-11)
# Adaptive steppers (cvode-bdf, cvode-adams, rk45, bdf2) sweep rtol = 1e-3 ... 1e-8 with
# atol = 1e-3 rtol; fixed-step steppers (explicit: euler, rk4, ab2, am2pc (AB2-AM2 PECE);
# implicit: beuler, trap) sweep
# solver.fixed_step. The explicit sweeps on heat2d start one or two steps above the
# stability limit on purpose: those points are recorded as unstable, not plotted.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
BUILD_DIR=${BUILD_DIR:-build}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-wp}
RESULTS_DIR=${RESULTS_DIR:-benchmarks/results}
REPS=${REPS:-5}
TIMEOUT=${TIMEOUT:-60}
PYTHON=${PYTHON:-/usr/bin/python3}
SKIP_BUILD=${SKIP_BUILD:-0}
REPORT_ONLY=${REPORT_ONLY:-0}
STIFFKIT="$BUILD_DIR/bin/stiffkit"

log() { printf '[work_precision] %s\n' "$*" >&2; }

RTOLS="1e-3 1e-4 1e-5 1e-6 1e-7 1e-8"
# heat2d: lambda_max ~ -8 (N+1)^2 = -7688; explicit limits h <= 2.6e-4 (euler),
# 3.6e-4 (rk4), 1.3e-4 (ab2); am2pc (AB2-AM2 PECE) stays stable at 2e-4
HEAT_H_EXPLICIT="5e-4 2e-4 1e-4 5e-5 2.5e-5 1.25e-5"
HEAT_H_IMPLICIT="1e-2 5e-3 2e-3 1e-3 5e-4 2e-4 1e-4"
BRUSS_H_EXPLICIT="2e-2 1e-2 5e-3 2e-3 1e-3 5e-4"
BRUSS_H_IMPLICIT="5e-2 2e-2 1e-2 5e-3 2e-3 1e-3 5e-4"
ADAPTIVE="cvode-bdf cvode-adams rk45 bdf2"
EXPLICIT_FIXED="euler rk4 ab2 am2pc"
IMPLICIT_FIXED="beuler trap"

# linear solver per stepper: KLU with the analytic Jacobian for the implicit ones
linsol_of() {
  case $1 in
    cvode-bdf | bdf2 | beuler | trap) echo klu ;;
    *) echo auto ;;
  esac
}

if [[ "$REPORT_ONLY" != 1 ]]; then
  if [[ "$SKIP_BUILD" != 1 ]]; then
    if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
      cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >&2 || exit 70
    fi
    cmake --build "$BUILD_DIR" -j"$(nproc)" --target stiffkit_cli >&2 ||
      { log "cannot build stiffkit_cli"; exit 70; }
  fi
  [[ -x "$STIFFKIT" ]] || { log "$STIFFKIT not found"; exit 66; }
  mkdir -p "$OUT_DIR" || exit 73
  rm -f "$OUT_DIR"/*.json "$OUT_DIR"/*.h5 "$OUT_DIR"/*.err "$OUT_DIR"/*.rc "$OUT_DIR"/*.provenance.yaml

  # one_run PROBLEM METHOD KIND PARAM REP: one stiffkit run; writes
  # OUT_DIR/PROBLEM.METHOD.KIND.PARAM.rREP.{json,rc,err} (and .h5 for brusselator)
  one_run() {
    local prob=$1 method=$2 kind=$3 param=$4 rep=$5
    local base="$prob.$method.$kind.$param.r$rep"
    local -a args=(run --quiet --set "solver.method=$method" --set "linsol.type=$(linsol_of "$method")"
      --stats-json "$OUT_DIR/$base.json")
    if [[ $kind == rtol ]]; then
      args+=(--set "solver.rtol=$param" --set "solver.atol=$(awk "BEGIN{print $param*1e-3}")")
    elif [[ $kind == ref ]]; then
      args+=(--set "solver.rtol=$param" --set "solver.atol=$(awk "BEGIN{print $param*1e-2}")")
    else
      args+=(--set "solver.fixed_step=$param" --set solver.max_steps=100000000)
    fi
    if [[ $prob == heat2d ]]; then
      args+=(data/heat2d.yaml --set "model.n=[30]" --set model.semidiscrete=true
        --set output.csv=false --set output.hdf5=false)
    else
      args+=(data/brusselator.yaml --set "model.n=[16]" --set output.n_times=1
        --set output.csv=false --set output.hdf5=true --set output.states=true
        --set "output.dir=$OUT_DIR" --set "output.prefix=$base")
    fi
    timeout "$TIMEOUT" "$STIFFKIT" "${args[@]}" >/dev/null 2>"$OUT_DIR/$base.err"
    echo $? >"$OUT_DIR/$base.rc"
  }

  # the Brusselator references (rtol 1e-12 and, to estimate its accuracy, 1e-11)
  for rt in 1e-12 1e-11; do
    log "brusselator reference: cvode-bdf rtol=$rt"
    one_run brusselator cvode-bdf ref "$rt" 1
  done

  for ((rep = 1; rep <= REPS; rep++)); do
    for prob in heat2d brusselator; do
      log "$prob, round $rep of $REPS"
      for m in $ADAPTIVE; do
        for rt in $RTOLS; do one_run "$prob" "$m" rtol "$rt" "$rep"; done
      done
      if [[ $prob == heat2d ]]; then hx=$HEAT_H_EXPLICIT hi=$HEAT_H_IMPLICIT; else
        hx=$BRUSS_H_EXPLICIT hi=$BRUSS_H_IMPLICIT; fi
      for m in $EXPLICIT_FIXED; do
        for h in $hx; do one_run "$prob" "$m" h "$h" "$rep"; done
      done
      for m in $IMPLICIT_FIXED; do
        for h in $hi; do one_run "$prob" "$m" h "$h" "$rep"; done
      done
    done
  done
fi

mkdir -p "$RESULTS_DIR" || exit 73
"$PYTHON" benchmarks/plot_work_precision.py "$OUT_DIR" "$RESULTS_DIR"
