#!/usr/bin/env bash
# tests/tools/hygiene_test.sh: the checkout stays clean: no run outputs tracked, every folder the scripts and README examples write is ignored, every data file is listed in a data README
# usage: hygiene_test.sh SOURCE_DIR; exit 77 (skipped) outside a git checkout
set -u
src=$1
cd "$src" || exit 2
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tracked=$(git ls-files out)
[ -z "$tracked" ] || bad "run outputs are tracked: $tracked"
# what scripts/quickstart.sh, scripts/build.sh (BUILD_DIR), .ci/run, the README examples and
# the data/sweeps examples write, relative to the repository root
for p in out/heat2d.csv out/heat2d.h5 out/heat2d.provenance.yaml out/heat2d.png build/x \
  build-asan/x build.configure.log build-asan.configure.log _build/x cmake-build-debug/x \
  heat2d.csv heat2d.h5 heat2d.provenance.yaml heat2d.ckpt stats.json trap.png trap.csv \
  rod_model.so heat-tol/x heat-lhs/x heat-cases/x heat1d.bench.csv heat1d.bench.json \
  heat1d.bench.png heat1d.bench.provenance.yaml vdpol.bench.csv vdpol-mu/x \
  formula_pendulum.events.csv; do
  git check-ignore -q "$p" || bad "$p is not ignored"
done
# every data file is named (by path or a glob of its folder) in data/README.md or its folder's README
while IFS= read -r f; do
  rel=${f#data/}
  base=$(basename "$f")
  dir=$(dirname "$f")
  case "$base" in README.md) continue ;; esac
  if grep -qF -- "$rel" data/README.md; then continue; fi
  if [ "$dir" != data ] && [ -f "$dir/README.md" ] && grep -qF -- "$base" "$dir/README.md"; then continue; fi
  bad "$f is not listed in data/README.md (nor in $dir/README.md)"
done < <(git ls-files data)
[ "$fail" -eq 0 ] && echo "clean: no outputs tracked, outputs ignored, every data file listed"
exit "$fail"
