#!/usr/bin/env bash
# tests/tools/check_plugin_sens.sh: the example model plugin's parameter kappa (sk_model_add_param, analytic df/dp) through solver.sensitivity.parameters: du/dkappa at the probe against the closed form -(lambda/kappa) t u of the linear rod
# usage: check_plugin_sens.sh STIFFKIT DATA_DIR PLUGIN
set -euo pipefail
SK=$1
DATA=$2
PLUGIN=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$SK" run "$DATA/plugin_rod.yaml" --set model.plugin="$PLUGIN" --set output.dir="$dir" \
  --set solver.sensitivity.parameters=kappa --set solver.rtol=1e-8 --set solver.atol=1e-12 \
  > run.log 2>&1 || { cat run.log; exit 1; }
head -1 rod.sensitivity.csv | grep -q '^t,dy\[100\]/dkappa$'
# n = 200 nodes, h = 1/201, kappa = 1, A = 1: u_100(t) = sin(101 pi h) exp(-lambda t),
# lambda = (4 / h^2) sin^2(pi h / 2); du/dkappa = -lambda t u at every output time
awk -F, 'NR > 1 { t = $1; pi = atan2(0, -1); h = 1.0 / 201; s = sin(pi * h / 2)
  lam = 4 / (h * h) * s * s; exact = -lam * t * sin(101 * pi * h) * exp(-lam * t)
  d = $2 - exact; if (d < 0) d = -d; if (d > worst) worst = d; n++ }
  END { printf "du[100]/dkappa at %d times: max |difference| from the closed form %.2e\n", n, worst
  exit !(n == 11 && worst < 1e-6) }' rod.sensitivity.csv
