#!/usr/bin/env bash
# benchmarks/scaling/run_mg.sh: the structured multigrid preconditioner (linsol.preconditioner=mg) against ADI (model) and BoomerAMG (amg), side by side on 2D/3D heat and the Brusselator
#
# Usage: bash benchmarks/scaling/run_mg.sh
# Environment: BUILD_DIR (default build), SIZES2D (grid points per side, default
# "100 316 1000"), SIZE3D (default 100; empty = no 3D case), BRUSS (Brusselator
# points per side, default 512; empty = none), PRECS (default "model mg amg"), TMAX
# (seconds per run before it counts as "timeout", default 600).
# Every case runs each preconditioner once, one after the other (interleaved, one
# process at a time), and prints one table row per run: steps, nonlinear and
# linear iterations and their ratio, preconditioner setups, the mg setups' mean
# cost (from the run's "preconditioner mg:" line), integration wall time
# (stats.wall_time), process wall time and peak RSS (/usr/bin/time), and the
# relative L2 error against the exact solution where the case has one.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
SIZES2D=${SIZES2D:-"100 316 1000"}
SIZE3D=${SIZE3D-100}
BRUSS=${BRUSS-512}
PRECS=${PRECS:-"model mg amg"}
TMAX=${TMAX:-600}
SK="$ROOT/$BUILD_DIR/bin/stiffkit"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
unset OMP_NUM_THREADS
U1="--set model.ic=constant --set model.ic_value=1 --set model.exact=none"
cases=()
for n in $SIZES2D; do
  cases+=("heat2d sin $n|$ROOT/data/heat2d.yaml --set model.n=[$n] --set model.semidiscrete=true")
  cases+=("heat2d u0=1 $n|$ROOT/data/heat2d.yaml --set model.n=[$n] $U1")
done
if [ -n "$SIZE3D" ]; then
  cases+=("heat3d sin $SIZE3D|$ROOT/data/heat2d.yaml --set model.dim=3 --set model.mode=[1] --set model.n=[$SIZE3D] --set model.semidiscrete=true")
  cases+=("heat3d u0=1 $SIZE3D|$ROOT/data/heat2d.yaml --set model.dim=3 --set model.mode=[1] --set model.n=[$SIZE3D] $U1")
fi
echo "| case | preconditioner | steps | nonlinear its | linear its | linear/nonlinear | prec setups | mg setup [ms] | integration [s] | process [s] | peak RSS [MiB] | rel. L2 error |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
row() { # label prec args...
  local label=$1 prec=$2
  shift 2
  local log="$OUT/run.txt"
  /usr/bin/time -f '%e %M' -o "$OUT/time.txt" timeout "$TMAX" "$SK" run "$@" \
    --set linsol.preconditioner="$prec" --set output.csv=false --set output.hdf5=false \
    --set output.dir="$OUT" --set output.prefix=r > "$log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "| $label | $prec | $([ $rc -eq 124 ] && echo "timeout (${TMAX} s)" || echo "exit $rc") | | | | | | | | | |"
    return
  fi
  awk -v label="$label" -v prec="$prec" -v tfile="$OUT/time.txt" '
    /^  steps /{s=$NF} /^  nonlinear iterations/{nl=$NF} /^  linear iterations/{li=$NF}
    /^  preconditioner setups/{ps=$NF} /^  wall time/{w=$NF} /relative L2 error/{e=$NF}
    /^preconditioner mg:/{ x = $0; sub(/ ms each.*/, "", x); sub(/.*\(/, "", x); ms = x }
    END { getline t < tfile; split(t, a, " ");
      printf "| %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %.0f | %s |\n", label, prec, s,
        nl, li, (nl > 0 ? li / nl : 0), ps, (ms == "" ? "-" : ms), w, a[1], a[2] / 1024,
        (e == "" ? "-" : e) }' "$log"
}
for c in "${cases[@]}"; do
  label=${c%%|*}
  read -r -a args <<< "${c#*|}"
  for p in $PRECS; do
    row "$label" "$p" "${args[@]}"
  done
done
if [ -n "$BRUSS" ]; then
  # no preconditioner of its own: klu (the direct default) against mg (SysPFMG) and amg
  B=("$ROOT/data/brusselator.yaml" --set model.n=["$BRUSS"] --set solver.t_end=1)
  row "brusselator 2x${BRUSS}^2, klu" none "${B[@]}" --set linsol.type=klu
  for p in $PRECS; do
    [ "$p" = model ] && continue
    row "brusselator 2x${BRUSS}^2, spgmr" "$p" "${B[@]}" --set linsol.type=spgmr
  done
fi
