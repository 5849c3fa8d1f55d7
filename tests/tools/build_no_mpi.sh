#!/usr/bin/env bash
# tests/tools/build_no_mpi.sh: the serial variant (SK_MPI=OFF, as on a machine without MPI) builds the CLI, runs the default job, refuses the AMG
# usage: build_no_mpi.sh SOURCE_DIR SCRATCH_DIR BUILD_TYPE WERROR [GENERATOR]
#   configures SOURCE_DIR into SCRATCH_DIR/build (removed first and afterwards) with
#   -DSK_MPI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON and no tests or benchmarks, builds only the
#   stiffkit_cli target, then checks: `stiffkit run --quiet` (embedded default job) exits 0;
#   the AMG preconditioner is refused with the SK_MPI=ON message; `info` reports mpi=OFF; the
#   library is linked against neither hypre nor MPI.
set -u
src=$1; dir=$2; type=$3; werror=$4; gen=${5:-}
rm -rf "$dir"
mkdir -p "$dir/run"
trap 'rm -rf "$dir"' EXIT
args=(-S "$src" -B "$dir/build" -DSK_MPI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON
      -DSK_BUILD_TESTS=OFF -DSK_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE="$type" -DSK_WERROR="$werror")
[ -n "$gen" ] && args+=(-G "$gen")
t0=$(date +%s)
if ! cmake "${args[@]}" > "$dir/configure.txt" 2>&1; then
  cat "$dir/configure.txt"; echo "FAIL: configure with SK_MPI=OFF"; exit 1
fi
t1=$(date +%s)
if ! cmake --build "$dir/build" --target stiffkit_cli -j"$(nproc)" > "$dir/build.txt" 2>&1; then
  tail -n 60 "$dir/build.txt"; echo "FAIL: build of stiffkit_cli with SK_MPI=OFF"; exit 1
fi
t2=$(date +%s)
echo "configure $((t1 - t0)) s, build of stiffkit_cli $((t2 - t1)) s"
exe=$dir/build/bin/stiffkit
fail=0
cd "$dir/run" || exit 2
"$exe" run --quiet > out.txt 2> err.txt
rc=$?
if [ "$rc" -ne 0 ]; then
  cat out.txt err.txt; echo "FAIL: the default job exited $rc"; fail=1
fi
"$exe" run --quiet --set linsol.type=spgmr --set linsol.preconditioner=amg > out.txt 2> err.txt
rc=$?
cat err.txt
msg="linsol.preconditioner=amg needs stiffkit built with SK_MPI=ON (hypre BoomerAMG is an MPI library)"
if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then
  echo "FAIL: the AMG run exited $rc (expected a refusal)"; fail=1
fi
if ! grep -qF -- "$msg" err.txt; then
  echo "FAIL: expected on stderr: $msg"; fail=1
fi
if ! "$exe" info 2>&1 | grep -q "mpi=OFF"; then
  echo "FAIL: stiffkit info does not report mpi=OFF"; fail=1
fi
lib=$(ls "$dir"/build/src/libstiffkit.so* 2>/dev/null | head -n 1)
if command -v ldd > /dev/null && [ -n "$lib" ] && ldd "$lib" | grep -E "libHYPRE|libmpi"; then
  echo "FAIL: the serial library links hypre or MPI"; fail=1
fi
[ "$fail" -eq 0 ] && echo "ok: serial build (SK_MPI=OFF) runs the default job and refuses the AMG"
exit "$fail"
