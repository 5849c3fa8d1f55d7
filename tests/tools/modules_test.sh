#!/usr/bin/env bash
# tests/tools/modules_test.sh: HDF5, hypre, UMFPACK, METIS, muparser and Open MPI are loaded only by the runs that need them (the loader's own record), and a module that cannot be loaded stops the run with exit 69, its name and the loader's reason, before any file is written
# usage: modules_test.sh (STIFFKIT: the CLI; DATA: the data directory)
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rober=(run "$DATA/rober.yaml" --set solver.t_end=40 --quiet)
amg=(run "$DATA/heat2d.yaml" --set model.n=[16] --set linsol.type=spgmr
  --set linsol.preconditioner=amg --quiet)
umf=(run "$DATA/rober.yaml" --set solver.t_end=40 --set linsol.type=umfpack --quiet)
formula=(run "$DATA/formula/rober.yaml" --set solver.t_end=40 --quiet)
metis=(run "$DATA/rober.yaml" --set solver.t_end=40 --set linsol.type=klu
  --set linsol.ordering=metis-nd --quiet)
mpi=0
"$STIFFKIT" info | grep -q 'mpi=ON' && mpi=1
# Open MPI (started by the AMG preconditioner) keeps blocks that tests/lsan.supp names; only
# the slow unwinder reaches its frames (as in tests/cli_mpi.cmake)
if [ -n "${ASAN_OPTIONS:-}" ]; then
  export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
fi
# the shared objects a run maps, from glibc's loader itself (LD_DEBUG=files: one line
# "file=NAME [0];  generating link map" per object loaded, at start or by dlopen)
# loaded NAME ARGS...: run in a new directory NAME, the loader's record into NAME.ld
loaded() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  (cd "$work/$name" && LD_DEBUG=files LD_DEBUG_OUTPUT="$work/$name.ld" "$STIFFKIT" "$@" \
    --set output.prefix=r > out.txt 2>&1) || bad "$name: the run failed: $(cat "$work/$name/out.txt")"
  cat "$work/$name".ld.* > "$work/$name.ld"
}
has() { grep -q "file=[^ ]*$2.*generating link map" "$work/$1.ld"; }
# a CSV-only run maps neither HDF5 nor hypre nor UMFPACK nor their modules ...
loaded csv "${rober[@]}" --set output.hdf5=false
for lib in libhdf5 libstiffkit-hdf5 libHYPRE libstiffkit-hypre libumfpack libcholmod \
  libstiffkit-umfpack libstiffkit-metis libmetis libmpi libopen-pal libstiffkit-muparser \
  libmuparser libstdc++; do
  # (a sanitizer's runtime brings libstdc++ with the program itself: not the run's doing)
  ldd "$STIFFKIT" | grep -q "$lib" && continue
  has csv "$lib" && bad "a CSV-only run loaded $lib"
done
# ... and the check sees them where a run needs them (HDF5 output; the AMG preconditioner)
loaded h5 "${rober[@]}" --set output.csv=false
has h5 libstiffkit-hdf5 || bad "an HDF5 run did not load libstiffkit-hdf5.so"
has h5 libhdf5 || bad "an HDF5 run did not load libhdf5"
[ -s "$work/h5/r.h5" ] || bad "the HDF5 run wrote no r.h5"
loaded umf "${umf[@]}" --set output.hdf5=false
has umf libstiffkit-umfpack || bad "an UMFPACK run did not load libstiffkit-umfpack.so"
has umf libumfpack || bad "an UMFPACK run did not load libumfpack"
loaded metis "${metis[@]}" --set output.hdf5=false
has metis libstiffkit-metis || bad "a METIS-ordered KLU run did not load libstiffkit-metis.so"
has metis libmetis || bad "a METIS-ordered KLU run did not load libmetis"
has metis libumfpack && bad "a KLU run loaded libumfpack"
loaded formula "${formula[@]}" --set output.hdf5=false
has formula libstiffkit-muparser || bad "a formula model's run did not load libstiffkit-muparser.so"
has formula libmuparser || bad "a formula model's run did not load libmuparser"
if [ "$mpi" = 1 ]; then
  loaded amg "${amg[@]}" --set output.hdf5=false
  has amg libstiffkit-hypre || bad "an AMG run did not load libstiffkit-hypre.so"
  has amg libHYPRE || bad "an AMG run did not load libHYPRE"
  has amg libhdf5 && bad "a CSV-only AMG run loaded libhdf5"
fi
# expect_missing NAME MODULE REASON ARGS...: exit 69, the module and the reason named, no file left
expect_missing() {
  local name=$1 module=$2 reason=$3
  shift 3
  mkdir -p "$work/$name/out"
  (cd "$work/$name" && "$STIFFKIT" "$@" --set output.dir=out > stdout.txt 2> stderr.txt)
  local rc=$?
  [ "$rc" -eq 69 ] || bad "$name: exit $rc, expected 69 (a missing component): $(cat "$work/$name/stderr.txt")"
  grep -qF "cannot load the stiffkit module '$module'" "$work/$name/stderr.txt" \
    || bad "$name: the message does not name the module '$module': $(cat "$work/$name/stderr.txt")"
  grep -qF "$reason" "$work/$name/stderr.txt" \
    || bad "$name: the message lacks the loader's reason '$reason': $(cat "$work/$name/stderr.txt")"
  [ -z "$(ls -A "$work/$name/out")" ] || bad "$name: files left behind: $(ls -A "$work/$name/out")"
}
mkdir -p "$work/empty" "$work/broken"
: > "$work/broken/libstiffkit-hdf5.so" # not a shared object: dlopen says "file too short"
STIFFKIT_MODULE_DIR="$work/empty" expect_missing no_hdf5 hdf5 \
  "$work/empty/libstiffkit-hdf5.so: cannot open shared object file" "${rober[@]}"
STIFFKIT_MODULE_DIR="$work/broken" expect_missing broken_hdf5 hdf5 "file too short" "${rober[@]}"
STIFFKIT_MODULE_DIR="$work/empty" expect_missing no_umfpack umfpack \
  "$work/empty/libstiffkit-umfpack.so: cannot open shared object file" "${umf[@]}" \
  --set output.hdf5=false
STIFFKIT_MODULE_DIR="$work/empty" expect_missing no_metis metis \
  "$work/empty/libstiffkit-metis.so: cannot open shared object file" "${metis[@]}" \
  --set output.hdf5=false
STIFFKIT_MODULE_DIR="$work/empty" expect_missing no_muparser muparser \
  "$work/empty/libstiffkit-muparser.so: cannot open shared object file" "${formula[@]}" \
  --set output.hdf5=false
if [ "$mpi" = 1 ]; then
  STIFFKIT_MODULE_DIR="$work/empty" expect_missing no_hypre hypre \
    "$work/empty/libstiffkit-hypre.so: cannot open shared object file" "${amg[@]}" \
    --set output.hdf5=false
fi
# a run without HDF5 output needs no module at all
(cd "$work/empty" && STIFFKIT_MODULE_DIR="$work/empty" "$STIFFKIT" "${rober[@]}" \
  --set output.hdf5=false > out.txt 2>&1) || bad "a CSV-only run needs a module: $(cat "$work/empty/out.txt")"
# a distributed run is handed to stiffkit-mpi beside stiffkit (Open MPI is linked there only):
# without it, exit 69 naming it
if [ "$mpi" = 1 ]; then
  mkdir -p "$work/lonely"
  cp "$STIFFKIT" "$work/lonely/stiffkit"
  (cd "$work/lonely" && STIFFKIT_DISTRIBUTED=1 ./stiffkit "${rober[@]}" > out.txt 2> err.txt)
  rc=$?
  [ "$rc" -eq 69 ] || bad "a distributed run without stiffkit-mpi: exit $rc, expected 69"
  grep -qF "$work/lonely/stiffkit-mpi" "$work/lonely/err.txt" \
    || bad "the message does not name the missing stiffkit-mpi: $(cat "$work/lonely/err.txt")"
fi
[ "$fail" = 0 ] && echo "modules load on first use only; a missing one stops the run with exit 69"
exit "$fail"
