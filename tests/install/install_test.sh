#!/usr/bin/env bash
# tests/install/install_test.sh: install stiffkit to a temporary prefix; run the installed CLI, the README example built with find_package and with pkg-config, a stepper, a model and a linear solver plugin, a verify client, a result-files client, an HDF5 output through the installed module, all without LD_LIBRARY_PATH; then move the tree and run it again
# usage: install_test.sh BUILD_DIR SOURCE_DIR [SANITIZERS]
set -euo pipefail
build=$1; src=$2
# a sanitized library needs sanitized consumers
san_flags=""
if [ -n "${3:-}" ]; then
  san_flags="-fsanitize=$3"
fi
# the install must run on its own: RPATHs ($ORIGIN-relative in the tree, the .pc's for consumers)
unset LD_LIBRARY_PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cli="$work/prefix/bin/stiffkit"
fail() { echo "FAIL: $*"; exit 1; }
# RUNPATH of the library: relative to itself, never the build tree; the CLI holds the library
# statically (it needs no libstiffkit.so and no RUNPATH) and names no tree either
for f in "$cli" "$(find "$work/prefix" -name 'libstiffkit.so.*.*')"; do
  rp=$(readelf -d "$f" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p')
  echo "$(basename "$f"): RUNPATH $rp"
  case "$f:$rp" in "$cli:"|*':$ORIGIN'*) ;; *) fail "$f: RUNPATH '$rp' does not start with \$ORIGIN" ;; esac
  case "$rp" in *"$build"*|*"$src"*) fail "$f: RUNPATH names the build or source tree" ;; esac
done
if readelf -d "$cli" | grep -q 'NEEDED.*libstiffkit'; then
  fail "the installed CLI needs libstiffkit.so (it should hold the library statically)"
fi
"$cli" info > "$work/info.txt" || fail "the installed CLI does not start: $(cat "$work/info.txt")"
grep -q '^stiffkit ' "$work/info.txt"
# the HDF5 module lies beside the installed library and is the one an HDF5 output loads
# (glibc's loader names every object it maps with LD_DEBUG=files)
libdir_inst=$(dirname "$(find "$work/prefix" -name 'libstiffkit.so.*.*')")
test -f "$libdir_inst/libstiffkit-hdf5.so" || fail "no libstiffkit-hdf5.so beside libstiffkit in $libdir_inst"
h5run() { # h5run CLI: an HDF5 output from that CLI in a new directory; checks the file and the module's path
  local d
  d=$(mktemp -d -p "$work")
  (cd "$d" && LD_DEBUG=files LD_DEBUG_OUTPUT="$d/ld" "$1" run --quiet --set "model.n=[10]" \
    --set output.csv=false) > "$d/out.txt" 2>&1 || fail "HDF5 output from $1: $(cat "$d/out.txt")"
  test -s "$d/heat2d.h5" || fail "HDF5 output from $1: no heat2d.h5"
  grep -h "file=.*libstiffkit-hdf5.so .*generating link map" "$d"/ld.* | grep -q "file=$(dirname "$(dirname "$1")")/" \
    || fail "HDF5 output from $1 did not load the module of its own tree"
}
h5run "$cli"
# started through PATH and through a symlink, in a directory that holds a decoy module: the
# installed command loads the module of its own tree (found from /proc/self/exe, not argv[0]),
# never one from the working directory
d=$(mktemp -d -p "$work")
: > "$d/libstiffkit-hdf5.so"
ln -s "$cli" "$d/sk-link"
for how in path link; do
  cmd=./sk-link
  [ "$how" = path ] && cmd=stiffkit
  (cd "$d" && PATH="$(dirname "$cli"):$PATH" LD_DEBUG=files LD_DEBUG_OUTPUT="$d/ld.$how" \
    $cmd run --quiet --set "model.n=[10]" --set output.csv=false) > "$d/out.$how" 2>&1 \
    || fail "HDF5 output from the command started by $how: $(cat "$d/out.$how")"
  grep -h "file=.*libstiffkit-hdf5.so .*generating link map" "$d"/ld.$how.* \
    | grep -q "file=$(dirname "$(dirname "$cli")")/" \
    || fail "the command started by $how did not load the module of its own tree"
done
# the public headers must not pull in SUNDIALS or SuiteSparse
if grep -rlE '#include *<(sundials|cvode|nvector|sunlinsol|sunmatrix|klu|umfpack|suitesparse)' "$work/prefix/include/stiffkit"; then
  echo "FAIL: a public header includes a SUNDIALS/SuiteSparse header"; exit 1
fi
# the README shows exactly this example
awk '/<!-- example.c begin -->/{f=1; next} /<!-- example.c end -->/{f=0} f' "$src/README.md" \
  | sed '1d;$d' > "$work/readme_example.c"
diff -u "$src/tests/install/example.c" "$work/readme_example.c"
cmake -S "$src/tests/install" -B "$work/b" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_C_FLAGS="$san_flags" > "$work/cfg.log"
cmake --build "$work/b" > "$work/build.log"
"$work/b/example"
export PKG_CONFIG_PATH=$(dirname "$(find "$work/prefix" -name stiffkit.pc)")
libdir=$(pkg-config --variable=libdir stiffkit)
# the .pc names the install prefix, with clean paths (no pkgconfig/.. detours)
libs=$(pkg-config --libs stiffkit)
echo "pkg-config --libs stiffkit: $libs"
[ "$(cd "$libdir" && pwd -P)" = "$(cd "$work/prefix" && pwd -P)/$(basename "$libdir")" ] \
  || fail "libdir $libdir is not PREFIX/lib"
case "$libs" in *pkgconfig*|*..*) fail "pkg-config --libs: $libs" ;; esac
case "$libs" in *"-L$work/prefix/"*) ;; *) fail "pkg-config --libs lacks -L$work/prefix/...: $libs" ;; esac
test -f "$libdir/libstiffkit.so" || fail "no libstiffkit.so in $libdir"
cc -std=c11 $san_flags "$src/tests/install/example.c" -o "$work/example_pc" $(pkg-config --cflags --libs stiffkit) -lm
"$work/example_pc" > /dev/null
# a client of the verification API (stiffkit/verify.h) linked against the installed libstiffkit.so
cc -std=c11 -Wall -Wextra -Werror $san_flags "$src/tests/unit/test_verify_api.c" -o "$work/verify_client" \
  $(pkg-config --cflags --libs stiffkit) -lm
"$work/verify_client"
# a client of the result files (stiffkit/results.h, stiffkit/provenance.h), the same way
cc -std=c11 -Wall -Wextra -Werror $san_flags "$src/tests/unit/test_results_api.c" -o "$work/results_client" \
  $(pkg-config --cflags --libs stiffkit) -lm
"$work/results_client"
# an in-house stepper plugin built against the installed headers (the README's command), run by the installed CLI
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -shared -fPIC $san_flags "$src/data/plugins/inhouse_rk2.c" \
  $(pkg-config --cflags stiffkit) -o "$work/inhouse_rk2.so"
(cd "$work" && "$cli" run --no-stats --set solver.plugin=./inhouse_rk2.so \
  --set solver.method=inhouse-rk2 --set solver.fixed_step=1e-4 --set "model.n=[10]" --set output.csv=false \
  --set output.hdf5=false) > "$work/plugin_run.txt"
grep -q "error against the exact solution" "$work/plugin_run.txt"
# a model plugin built the same way (data/plugins/rod_model.c), run through the installed CLI
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -shared -fPIC $san_flags "$src/data/plugins/rod_model.c" \
  $(pkg-config --cflags stiffkit) -o "$work/rod_model.so"
(cd "$work" && "$cli" run --no-stats "$src/data/plugin_rod.yaml" \
  --set model.plugin=./rod_model.so --set output.csv=false --set output.hdf5=false) > "$work/model_plugin_run.txt"
grep -q "relative L2 error" "$work/model_plugin_run.txt"
# a linear solver plugin (data/plugins/thomas_solver.c, the README's command)
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -shared -fPIC $san_flags "$src/data/plugins/thomas_solver.c" \
  $(pkg-config --cflags stiffkit) -o "$work/thomas_solver.so"
(cd "$work" && "$cli" run --set solver.plugin=./thomas_solver.so --set linsol.type=thomas \
  --set model.dim=1 --set "model.n=[200]" --set output.csv=false --set output.hdf5=false) > "$work/linsol_plugin_run.txt"
grep -q "linear solver thomas" "$work/linsol_plugin_run.txt"
# the installed CLI finds its plot script in share/stiffkit beside it: a stand-in there that
# exits 3 (the script's "matplotlib is not installed") must be the one that runs
unset STIFFKIT_SCRIPTS_DIR
script=$(find "$work/prefix" -name plot_stability.py)
[ -n "$script" ] || fail "plot_stability.py is not installed"
# the tree still runs after a move (nothing in it names the install prefix but the .pc)
mv "$work/prefix" "$work/moved"
"$work/moved/bin/stiffkit" info > /dev/null || fail "the moved install does not start"
h5run "$work/moved/bin/stiffkit"
printf '#!/usr/bin/python3\nimport sys\nsys.exit(3)\n' > "$work/moved/${script#"$work/prefix/"}"
(cd "$work" && "$work/moved/bin/stiffkit" stability trap --png p.png) > "$work/stab.txt" 2>&1 || true
grep -q "python3-matplotlib is not installed" "$work/stab.txt" \
  || { cat "$work/stab.txt"; fail "the moved CLI did not run its own plot script"; }
PKG_CONFIG_PATH="$work/moved/${PKG_CONFIG_PATH#"$work/prefix/"}" pkg-config --define-prefix --libs stiffkit \
  | grep -q -- "-L$work/moved/" || fail "pkg-config --define-prefix does not follow the moved tree"
echo "installed package works without LD_LIBRARY_PATH: CLI, find_package, pkg-config, plugins, moved tree"
