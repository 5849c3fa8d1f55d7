#!/usr/bin/env bash
# tests/tools/paths_test.sh: paths named inside files through the CLI: copied configs run from any directory, a missing file named as written and as resolved (exit 66), --set relative to the working directory, sweeps, the absolute path in the provenance
# usage: paths_test.sh SCENARIO   (copy | missing | set | sweep)
# Environment: STIFFKIT (the binary), SK_DATA (data/).
# Every expected path is built here from the scratch directory's physical path and the layout
# this script writes; each scenario plants a decoy where the wrong rule would look (a broken
# file of the same name), so resolving against the wrong directory fails the run.
set -u
scenario=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
dir=$(pwd -P)
fail=0
check() { # check MESSAGE COMMAND...: record a failure when the command fails
  local msg=$1
  shift
  if ! "$@"; then
    echo "FAIL: $msg"
    fail=1
  fi
}
expect_rc() { # expect_rc WANT GOT WHAT
  if [ "$2" -ne "$1" ]; then
    echo "FAIL: $3: exit $2, expected $1"
    echo "--- stdout"; cat "$dir/out.txt" 2> /dev/null; echo "--- stderr"; cat "$dir/err.txt" 2> /dev/null
    fail=1
  fi
}
# the examples copied elsewhere with the files they name, in the same relative places
copy_examples() {
  mkdir -p copy/mechanisms copy/linear
  cp "$SK_DATA/mechanism_fourbar.yaml" copy/
  cp "$SK_DATA/mechanisms/fourbar.yaml" copy/mechanisms/
  cp "$SK_DATA/networks/board.yaml" "$SK_DATA/networks/board.net" "$SK_DATA/networks/board_parts.inc" copy/
  cp "$SK_DATA/linear_heat1d.yaml" copy/
  cp "$SK_DATA"/linear/*.mtx copy/linear/
}
# broken files where the working directory a/ would be searched by mistake
plant_decoys() {
  mkdir -p a/mechanisms a/linear
  printf 'bodies: [\n' > a/mechanisms/fourbar.yaml
  printf 'not a netlist\n' > a/board.net
  printf '%%%%MatrixMarket garbage\n' > a/linear/heat1d_fe_K.mtx
}

case "$scenario" in
copy)
  copy_examples
  plant_decoys
  mkdir out
  for c in mechanism_fourbar board linear_heat1d; do
    (cd a && "$STIFFKIT" run --quiet "../copy/$c.yaml" --set "output.dir=$dir/out" > ../out.txt 2> ../err.txt)
    expect_rc 0 $? "$c from a/ (config given relative)"
    (cd / && "$STIFFKIT" run --quiet "$dir/copy/$c.yaml" --set "output.dir=$dir/out" > "$dir/out.txt" 2> "$dir/err.txt")
    expect_rc 0 $? "$c from / (config given absolute)"
  done
  check "fourbar results" test -s out/fourbar.csv
  check "board results" test -s out/board.csv
  check "linear results" test -s out/linear_heat1d.csv
  # the provenance records the resolved absolute paths
  check "provenance: multibody.file absolute" grep -qx "    multibody.file: $dir/copy/mechanisms/fourbar.yaml" out/fourbar.provenance.yaml
  check "provenance: model.netlist absolute" grep -qx "    model.netlist: $dir/copy/board.net" out/board.provenance.yaml
  check "provenance: model.stiffness absolute" grep -qx "    model.stiffness: $dir/copy/linear/heat1d_fe_K.mtx" out/linear_heat1d.provenance.yaml
  ;;
missing)
  mkdir lone a
  cp "$SK_DATA/mechanism_fourbar.yaml" "$SK_DATA/networks/thermostat.yaml" lone/
  cp "$SK_DATA/mechanisms/fourbar.yaml" a/ # not where the config says: a/ is the working directory
  mkdir a/mechanisms && cp "$SK_DATA/mechanisms/fourbar.yaml" a/mechanisms/
  cp "$SK_DATA/networks/thermostat.net" a/
  (cd a && "$STIFFKIT" run "../lone/mechanism_fourbar.yaml" > ../out.txt 2> ../err.txt)
  expect_rc 66 $? "mechanism file missing next to the config"
  check "message names file:line:col, the path as written and where it was looked for" grep -qF \
    "../lone/mechanism_fourbar.yaml:7:9: multibody.file: 'mechanisms/fourbar.yaml' (resolved to '$dir/lone/mechanisms/fourbar.yaml'): no such file" err.txt
  (cd a && "$STIFFKIT" run "../lone/thermostat.yaml" > ../out.txt 2> ../err.txt)
  expect_rc 66 $? "netlist missing next to the config"
  check "netlist message" grep -qF \
    "../lone/thermostat.yaml:6:12: model.netlist: 'thermostat.net' (resolved to '$dir/lone/thermostat.net'): no such file" err.txt
  (cd a && "$STIFFKIT" verify "../lone/mechanism_fourbar.yaml" > ../out.txt 2> ../err.txt)
  expect_rc 66 $? "verify: mechanism file missing"
  check "nothing left in the working directory" test "$(ls -A a | sort | tr '\n' ' ')" = "fourbar.yaml mechanisms thermostat.net "
  cat err.txt
  ;;
set)
  copy_examples
  mkdir a
  cp "$SK_DATA/mechanisms/fourbar.yaml" a/mine.yaml
  printf 'bodies: [\n' > copy/mine.yaml # the decoy beside the config
  (cd a && "$STIFFKIT" run --quiet ../copy/mechanism_fourbar.yaml --set multibody.file=mine.yaml > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "--set multibody.file relative to the working directory"
  check "provenance: the --set path, absolute" grep -qx "    multibody.file: $dir/a/mine.yaml" a/fourbar.provenance.yaml
  # a missing --set path: said as written and resolved against the working directory
  (cd a && "$STIFFKIT" run ../copy/mechanism_fourbar.yaml --set multibody.file=nope.yaml > ../out.txt 2> ../err.txt)
  expect_rc 66 $? "--set path missing"
  check "--set message" grep -qF -- "--set: multibody.file: 'nope.yaml' (resolved to '$dir/a/nope.yaml'): no such file" err.txt
  ;;
sweep)
  mkdir -p copy sw/nets sw/cases a
  cp "$SK_DATA/networks/thermostat.yaml" copy/
  printf 'not a netlist\n' > copy/thermostat.net # the base config's own netlist: the sweep replaces it
  cp "$SK_DATA/networks/thermostat.net" sw/nets/t.net
  printf 'not a netlist\n' > a/t.net
  # `set` names the netlist relative to the sweep file, the base config relative to it too
  printf 'output: out\nbase: ../copy/thermostat.yaml\nset: {model.netlist: nets/t.net, solver.t_end: 60, output.n_times: 3}\nparameters:\n  solver.rtol: [1.0e-5, 1.0e-6]\n' > sw/s.yaml
  (cd a && "$STIFFKIT" sweep ../sw/s.yaml > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "sweep with a set path"
  check "case config: the netlist absolute" grep -qx "model.netlist: $dir/sw/nets/t.net" a/out/cases/0000/config.yaml
  check "case 1 results" test -s a/out/cases/0001/thermostat.csv
  # a case's config reruns from anywhere
  mkdir rerun
  (cd / && "$STIFFKIT" run --quiet "$dir/a/out/cases/0000/config.yaml" --set "output.dir=$dir/rerun" > "$dir/out.txt" 2> "$dir/err.txt")
  expect_rc 0 $? "a case rerun from /"
  # a CSV of cases names its paths relative to the CSV file
  printf 'model.netlist,solver.rtol\n../nets/t.net,1.0e-6\n' > sw/cases/c.csv
  printf 'output: out2\nbase: ../copy/thermostat.yaml\nset: {solver.t_end: 60, output.n_times: 3}\ncases: cases/c.csv\n' > sw/s2.yaml
  (cd a && "$STIFFKIT" sweep ../sw/s2.yaml > ../out.txt 2> ../err.txt)
  expect_rc 0 $? "sweep with a CSV path"
  check "CSV case config: the netlist absolute" grep -qx "model.netlist: $dir/sw/nets/t.net" a/out2/cases/0000/config.yaml
  ;;
*)
  echo "unknown scenario '$scenario'"
  exit 2
  ;;
esac
[ "$fail" -eq 0 ] && echo "paths $scenario: all checks passed"
exit "$fail"
