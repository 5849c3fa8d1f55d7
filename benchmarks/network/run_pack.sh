#!/usr/bin/env bash
# benchmarks/network/run_pack.sh: build and run the >= 10^5-node battery-pack network; wall time and peak memory
# usage: benchmarks/network/run_pack.sh [BUILD_DIR] [MODULES]   (from the repository root)
set -euo pipefail
BUILD=${1:-build}
MODULES=${2:-125}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 benchmarks/network/make_pack.py "$dir/pack.net" "$MODULES"
echo "netlist: $(wc -l < "$dir/pack.net") lines"
for t_end in 0 3600; do
  # t_end 0: build only (parse, expand, checks, pattern) is measured through a tiny run
  te=${t_end}; [ "$te" = 0 ] && te=1e-6
  /usr/bin/time -f "t_end=$t_end: wall %e s, peak RSS %M kB" "$BUILD/bin/stiffkit" run \
    --set model.type=network --set model.netlist="$dir/pack.net" --set solver.method=ida-bdf \
    --set solver.t_end=$te --set solver.rtol=1e-5 --set solver.atol=1e-4 \
    --set output.n_times=4 --set output.dir="$dir" --set output.hdf5=false 2>&1 \
    | grep -E "model network|steps  |wall|imbalance|t_end="
done
