#!/usr/bin/env bash
# tests/mpi/compare_serial.sh: one config run serially and as K MPI ranks; the gathered results must agree
# usage: compare_serial.sh K RTOL ATOL CONFIG [--set key=value ...]   (env: STIFFKIT, NUMDIFF, MPIEXEC)
# Both runs integrate the same semi-discrete ODE (the distributed right-hand side is the serial one,
# bitwise: tests/mpi); they differ only through the linear solver and preconditioner, so their
# outputs agree to the integration tolerance (RTOL, ATOL are given a few times solver.rtol/atol).
# The distributed run must also name its ranks in the summary and in the provenance.
set -eu
k=$1; rtol=$2; atol=$3; config=$4; shift 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
# the serial reference takes the config's own preconditioner: a serial bbd is one band block of
# the whole Jacobian (CVBANDPRE), much slower at these sizes, and linsol.bbd_band is the ranks'
# half-bandwidth
serial_args=()
for a in "$@"; do
  case "$a" in linsol.preconditioner=* | linsol.bbd_band=*) unset 'serial_args[-1]' ;; *) serial_args+=("$a") ;; esac
done
STIFFKIT_DISTRIBUTED=0 "$STIFFKIT" run "$config" --quiet --set output.prefix=serial "${serial_args[@]}" > serial.log 2>&1 \
  || { cat serial.log; exit 1; }
# shellcheck disable=SC2086
$MPIEXEC -n "$k" "$STIFFKIT" run "$config" --set output.prefix=dist "$@" > dist.log 2>&1 \
  || { cat dist.log; exit 1; }
grep -q "distributed over $k ranks" dist.log || { echo "FAIL: the summary does not name $k ranks"; cat dist.log; exit 1; }
grep -q "^ *parallel:$" dist.provenance.yaml || { echo "FAIL: no parallel block in the provenance"; exit 1; }
grep -q "ranks: $k" dist.provenance.yaml || { echo "FAIL: the provenance does not list $k ranks"; exit 1; }
"$NUMDIFF" --rtol "$rtol" --atol "$atol" serial.csv dist.csv
if [ -n "$(command -v h5dump)" ] && [ -f dist.h5 ]; then
  h5dump -H dist.h5 > /dev/null || { echo "FAIL: dist.h5 is not a valid HDF5 file"; exit 1; }
fi
echo "ok: $k ranks agree with the serial run"
