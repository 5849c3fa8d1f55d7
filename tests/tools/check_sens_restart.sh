#!/usr/bin/env bash
# tests/tools/check_sens_restart.sh: data/heat1d_sensitivity.yaml in checkpoint segment mode (the engine restarts from each checkpoint): du/dk0 at x = 1, t = 0.5 against the closed form -mu t exp(-k0 mu t)
# usage: check_sens_restart.sh STIFFKIT DATA_DIR [--set KEY=VALUE ...] (extra settings, e.g. the engine)
set -euo pipefail
SK=$1
DATA=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$SK" run "$DATA/heat1d_sensitivity.yaml" --set output.dir="$dir" --set checkpoint.every=0.15 \
  --set checkpoint.segment=true --set checkpoint.file="$dir/ck.bin" "$@" > run.log 2>&1 \
  || { cat run.log; exit 1; }
# semi-discrete mode: h = 2/50, mu = (4/h^2) sin^2(pi h / 4); k0 = 0.7; the probe u[24] is x = 1
awk -F, 'NR > 1 { last = $3 } END {
  pi = atan2(0, -1); h = 2.0 / 50; s = sin(pi * h / 4); mu = 4 / (h * h) * s * s
  exact = -mu * 0.5 * exp(-0.7 * mu * 0.5)
  rel = (last - exact) / exact; if (rel < 0) rel = -rel
  printf "du[24]/dk0 at t = 0.5: %.10e, closed form %.10e, relative difference %.2e\n", last, exact, rel
  exit !(rel < 1e-4) }' result.sensitivity.csv
