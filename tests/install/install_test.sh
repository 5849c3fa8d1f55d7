#!/usr/bin/env bash
# tests/install/install_test.sh: install stiffkit to a temporary prefix, build the README example with find_package and pkg-config, run both, and run a stepper and a model plugin built against it
# usage: install_test.sh BUILD_DIR SOURCE_DIR [SANITIZERS]
set -euo pipefail
build=$1; src=$2
# a sanitized library needs sanitized consumers
san_flags=""
if [ -n "${3:-}" ]; then
  san_flags="-fsanitize=$3"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
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
export PKG_CONFIG_PATH=$(dirname "$(find "$work/prefix" -name stiffkit.pc)")
libdir=$(pkg-config --variable=libdir stiffkit)
LD_LIBRARY_PATH="$libdir" "$work/b/example"
cc -std=c11 $san_flags "$src/tests/install/example.c" -o "$work/example_pc" $(pkg-config --cflags --libs stiffkit) -lm
LD_LIBRARY_PATH="$libdir" "$work/example_pc" > /dev/null
# an in-house stepper plugin built against the installed headers (the README's command), run by the installed CLI
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -shared -fPIC $san_flags "$src/data/plugins/inhouse_rk2.c" \
  $(pkg-config --cflags stiffkit) -o "$work/inhouse_rk2.so"
(cd "$work" && LD_LIBRARY_PATH="$libdir" "$work/prefix/bin/stiffkit" run --quiet --set solver.plugin=./inhouse_rk2.so \
  --set solver.method=inhouse-rk2 --set solver.fixed_step=1e-4 --set "model.n=[10]" --set output.csv=false \
  --set output.hdf5=false) > "$work/plugin_run.txt"
grep -q "error against the exact solution" "$work/plugin_run.txt"
# a model plugin built the same way (data/plugins/rod_model.c), run through the installed CLI
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -shared -fPIC $san_flags "$src/data/plugins/rod_model.c" \
  $(pkg-config --cflags stiffkit) -o "$work/rod_model.so"
(cd "$work" && LD_LIBRARY_PATH="$libdir" "$work/prefix/bin/stiffkit" run --quiet "$src/data/plugin_rod.yaml" \
  --set model.plugin=./rod_model.so --set output.csv=false --set output.hdf5=false) > "$work/model_plugin_run.txt"
grep -q "relative L2 error" "$work/model_plugin_run.txt"
echo "installed package works with find_package and pkg-config"
