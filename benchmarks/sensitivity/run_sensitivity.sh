#!/usr/bin/env bash
# benchmarks/sensitivity/run_sensitivity.sh: cost of CVODES forward sensitivities (1, 3, 10 parameters) relative to the plain solve, 2D heat with Robin sides at 10^4 and 10^5 states
# usage: bash benchmarks/sensitivity/run_sensitivity.sh [BUILD_DIR]   (from the repository root)
# Environment: SIZES (default "100 316": N x N unknowns), REPS (default 3; the minimum wall
# time is kept). Prints one table row per case: steps, RHS calls, wall time, and the ratios.
set -euo pipefail
BUILD=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SK="$root/$BUILD/bin/stiffkit"
[ -x "$SK" ] || { echo "build first: BUILD_DIR=$BUILD bash scripts/build.sh"; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
p1="k0"
p3="k0, bc.x0.value, bc.x0.coeff"
p10="k0, source, bc.x0.value, bc.x1.value, bc.y0.value, bc.y1.value, bc.x0.coeff, bc.x1.coeff, bc.y0.coeff, bc.y1.coeff"
common=(--set model.type=diffusion --set model.dim=2 --set model.exact=none --set model.ic=constant
  --set model.ic_value=1 --set solver.method=cvode-bdf --set solver.rtol=1e-6 --set solver.atol=1e-9
  --set linsol.type=klu --set solver.t_end=0.1 --set output.n_times=10 --set output.hdf5=false
  --set output.csv=false
  --set output.dir="$out")
for side in x0 x1 y0 y1; do
  common+=(--set model.bc.$side.type=robin --set model.bc.$side.coeff=1)
done
# one run: prints "steps rhs wall"
run() {
  local best="" line
  for _ in $(seq "${REPS:-3}"); do
    line=$("$SK" run "$@" 2>&1 | awk '/^  steps /{s=$2} /RHS evaluations \(total\)/{r=$4} /wall time/{w=$4} END{print s, r, w}')
    if [ -z "$best" ] || awk -v a="${line##* }" -v b="${best##* }" 'BEGIN{exit !(a < b)}'; then
      best=$line
    fi
  done
  echo "$best"
}
printf "| states | parameters | steps | RHS calls | wall [s] | wall / plain | RHS / plain |\n"
printf "|---|---|---|---|---|---|---|\n"
for N in ${SIZES:-100 316}; do
  read -r s0 r0 w0 < <(run "${common[@]}" --set "model.n=[$N]")
  printf "| %d | 0 | %s | %s | %s | 1 | 1 |\n" $((N * N)) "$s0" "$r0" "$w0"
  for np in 1 3 10; do
    eval "plist=\$p$np"
    pbar=$(printf '1%.0s,' $(seq "$np")); pbar="[${pbar%,}]"
    read -r s r w < <(run "${common[@]}" --set "model.n=[$N]" \
      --set "solver.sensitivity.parameters=$plist" --set "solver.sensitivity.pbar=$pbar")
    printf "| %d | %d | %s | %s | %s | %.2f | %.2f |\n" $((N * N)) "$np" "$s" "$r" "$w" \
      "$(awk -v a="$w" -v b="$w0" 'BEGIN{print a / b}')" "$(awk -v a="$r" -v b="$r0" 'BEGIN{print a / b}')"
  done
done
