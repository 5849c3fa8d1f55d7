#!/usr/bin/env bash
# tests/tools/configure_no_mpi.sh: an MPI build (SK_MPI=ON) configured as if the machine had no MPI must stop with SkMPI's message
# usage: configure_no_mpi.sh SOURCE_DIR SCRATCH_DIR [GENERATOR]
#   passes when cmake FAILS and its output names what is missing, the Debian packages and -DSK_MPI=OFF
set -u
src=$1; dir=$2; gen=${3:-}
rm -rf "$dir"
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
args=(-S "$src" -B "$dir/build" -DSK_MPI=ON -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
[ -n "$gen" ] && args+=(-G "$gen")
cmake "${args[@]}" > "$dir/out.txt" 2>&1
rc=$?
cat "$dir/out.txt"
fail=0
if [ "$rc" -eq 0 ]; then
  echo "FAIL: configure succeeded without MPI"; fail=1
fi
for s in "SK_MPI=ON (the default) needs MPI" "no MPI C compiler wrapper (mpicc) or MPI" \
         "libopenmpi-dev openmpi-bin" "-DSK_MPI=OFF" "linsol.preconditioner=amg"; do
  # cmake wraps long message lines: compare with the line breaks and indentation folded away
  if ! tr -s ' \n' '  ' < "$dir/out.txt" | grep -qF -- "$s"; then
    echo "FAIL: expected in the configure output: $s"; fail=1
  fi
done
# the stop comes from cmake/SkMPI.cmake, before hypre or anything else is searched
if ! grep -q "SkMPI.cmake" "$dir/out.txt"; then
  echo "FAIL: the error is not SkMPI's"; fail=1
fi
[ "$fail" -eq 0 ] && echo "ok: configure without MPI refused with SkMPI's message"
exit "$fail"
