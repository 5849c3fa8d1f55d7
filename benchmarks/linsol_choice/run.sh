#!/usr/bin/env bash
# benchmarks/linsol_choice/run.sh: where linsol.type=auto should switch from KLU to spgmr: both solvers side by side on 1D, 2D and 3D diffusion grids and thermal networks, with the predicted LU flops per pattern entry
# usage: benchmarks/linsol_choice/run.sh [BUILD_DIR] > benchmarks/results/linsol_choice.md   (from the repository root)
# Each case runs with linsol.type=auto (its decision and reason), klu and spgmr (+ the model's
# preconditioner on the grids; unpreconditioned under ida-bdf on the networks), one after the
# other, so that a busy machine slows all three alike. QUICK=1 drops the largest cases.
set -uo pipefail
BUILD=${1:-build}
SK="$BUILD/bin/stiffkit"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# one run: prints "wall max_err steps linsol", or "failed" fields
run_one() {
  local out
  if ! out=$("$SK" run "$@" --set output.dir="$dir" --set output.hdf5=false 2>&1); then
    echo "failed - - -"
    return
  fi
  local wall err steps ls
  wall=$(sed -n 's/^  wall time \[s\] *//p' <<< "$out" | head -n 1)
  err=$(sed -n 's/^  max |y - y_exact| = //p' <<< "$out" | head -n 1)
  steps=$(sed -n 's/^  steps  *//p' <<< "$out" | head -n 1)
  ls=$(sed -n 's/.*, linear solver \([a-z]*\), .*/\1/p' <<< "$out" | head -n 1)
  echo "${wall:--} ${err:--} ${steps:--} ${ls:--}"
}

# the predicted flops per entry from the auto run's reason
per_entry() {
  "$SK" run "$@" --set linsol.type=auto --set solver.t_end=1e-9 --set output.dir="$dir" \
    --set output.hdf5=false 2>&1 | sed -n 's/.*flops per factorization (\([^ ]*\) per entry.*/\1/p' | head -n 1
}

echo "# linsol.type=auto: KLU against spgmr, side by side"
echo
echo "\`benchmarks/linsol_choice/run.sh\` on $(date -u +%Y-%m-%d), $(nproc --all) cores, load $(cut -d' ' -f1 /proc/loadavg), OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}; $("$SK" --version 2>/dev/null | head -n 1)."
echo "Wall times in seconds from stiffkit's statistics; \"flops/entry\" is AMD's predicted LU flops of one factorization per Jacobian pattern entry (what auto compares with its crossover)."
echo
echo "| case | n | flops/entry | auto | klu [s] | spgmr [s] | klu/spgmr | steps klu / spgmr | max error klu / spgmr |"
echo "|---|---:|---:|---|---:|---:|---:|---|---|"

row() {
  local name=$1 prec=$2
  shift 2
  local n fe a k s
  fe=$(per_entry "$@")
  a=$(run_one "$@" --set linsol.type=auto)
  k=$(run_one "$@" --set linsol.type=klu)
  s=$(run_one "$@" --set linsol.type=spgmr --set linsol.preconditioner="$prec")
  n=$("$SK" run "$@" --set solver.t_end=1e-9 --set output.dir="$dir" --set output.hdf5=false 2>&1 \
    | sed -n 's/.*, n = \([0-9]*\),.*/\1/p' | head -n 1)
  read -r kw ke ks _ <<< "$k"
  read -r sw se ss _ <<< "$s"
  read -r _ _ _ al <<< "$a"
  local ratio=-
  if [[ $kw != failed && $sw != failed ]]; then
    ratio=$(awk -v a="$kw" -v b="$sw" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  fi
  echo "| $name | $n | ${fe:--} | $al | $kw | $sw | $ratio | $ks / $ss | $ke / $se |"
}

H2=data/heat2d.yaml
H3=data/heat3d_robin.yaml
for m in 1000 10000 100000; do
  row "diffusion 1D" model "$H2" --set model.dim=1 --set model.mode=[1] --set model.n=[$m]
done
for m in 10 20 40 100 200; do
  row "diffusion 2D" model "$H2" --set model.n=[$m]
done
sizes3="6 8 12 16 20"
[[ ${QUICK:-0} == 1 ]] || sizes3="$sizes3 24"
for m in $sizes3; do
  row "diffusion 3D (Robin, nonlinear)" model "$H3" --set model.n=[$m]
done
for f in data/networks/board.yaml data/networks/thermostat.yaml; do
  row "network $(basename "$f" .yaml)" none "$f"
done
/usr/bin/python3 benchmarks/network/make_pack.py "$dir/pack.net" 10 > /dev/null
row "network battery pack (10 modules)" none --set model.type=network --set model.netlist="$dir/pack.net" \
  --set solver.method=ida-bdf --set solver.t_end=3600 --set solver.rtol=1e-5 --set solver.atol=1e-4
