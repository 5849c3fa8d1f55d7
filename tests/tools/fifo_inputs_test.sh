#!/usr/bin/env bash
# tests/tools/fifo_inputs_test.sh: every input a run reads besides its config (netlist, included netlist, Matrix Market matrix, load table, mechanism file, checkpoint) given as a FIFO with no writer: SIGTERM ends `stiffkit run` within 2 s with exit 75, a message naming the file, and nothing written
# Environment: STIFFKIT (the stiffkit binary), SK_DATA (the data folder). Exit 0 pass, 1 fail.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# check NAME FIFO WHAT ARGS...: in a fresh folder prepared by the caller, FIFO is
# a FIFO; `stiffkit run ARGS` gets SIGTERM after 1 s
check() {
  local name=$1 fifo=$2 what=$3
  shift 3
  (
    cd "$dir/$name" || exit 1
    before=$(ls -A | sort)
    "$STIFFKIT" run "$@" > out.txt 2> err.txt &
    pid=$!
    sleep 1
    kill -TERM "$pid"
    start=$(date +%s%N)
    # the readers look at the stop flag every 0.1 s: 2 s is the bound
    while kill -0 "$pid" 2> /dev/null && (($(date +%s%N) - start < 3000000000)); do sleep 0.05; done
    took=$((($(date +%s%N) - start) / 1000000))
    if kill -0 "$pid" 2> /dev/null; then
      echo "FAIL: $name: still running 3 s after SIGTERM"
      kill -KILL "$pid"
    fi
    wait "$pid"
    rc=$?
    bad=0
    [ "$rc" -eq 75 ] || { echo "FAIL: $name: exit $rc, expected 75"; bad=1; }
    ((took <= 2000)) || { echo "FAIL: $name: exit took $took ms (bound 2000 ms)"; bad=1; }
    grep -q "stopped by signal 15 while waiting for $what '[^']*$fifo'" err.txt \
      || { echo "FAIL: $name: message:"; cat err.txt; bad=1; }
    after=$(ls -A | grep -v -e '^out.txt$' -e '^err.txt$' | sort)
    [ "$after" = "$before" ] || { echo "FAIL: $name: files written: $after"; bad=1; }
    [ "$bad" -eq 0 ] && echo "ok: $name: exit 75 after $took ms"
    exit "$bad"
  ) || fail=1
}

# a netlist given on the command line
mkdir "$dir/netlist" && mkfifo "$dir/netlist/board.net"
check netlist board.net netlist board.net
# a netlist's .include: the message names the including line
mkdir "$dir/include" && cp "$SK_DATA/networks/board.net" "$SK_DATA/networks/board.yaml" "$dir/include/"
mkfifo "$dir/include/board_parts.inc"
check include board_parts.inc "included file" board.yaml
# a Matrix Market stiffness matrix
mkdir "$dir/matrix" && cp "$SK_DATA/linear_heat1d.yaml" "$dir/matrix/" && mkdir "$dir/matrix/linear"
cp "$SK_DATA/linear/heat1d_fe_M.mtx" "$SK_DATA/linear/heat1d_fe_b.mtx" "$dir/matrix/linear/"
mkfifo "$dir/matrix/linear/heat1d_fe_K.mtx"
check matrix heat1d_fe_K.mtx "Matrix Market file" linear_heat1d.yaml
# a load table g(t)
mkdir "$dir/table" && cp -r "$SK_DATA/linear_heat1d.yaml" "$SK_DATA/linear" "$dir/table/"
mkfifo "$dir/table/g.csv"
check table g.csv table linear_heat1d.yaml --set model.load_amplitude= --set model.load_table=g.csv
# a mechanism file
mkdir "$dir/mechanism" && cp "$SK_DATA/mechanism_pendulum.yaml" "$dir/mechanism/"
mkdir "$dir/mechanism/mechanisms" && mkfifo "$dir/mechanism/mechanisms/pendulum.yaml"
check mechanism pendulum.yaml "mechanism file" mechanism_pendulum.yaml
# a checkpoint to restart from
mkdir "$dir/checkpoint" && cp "$SK_DATA/heat2d.yaml" "$dir/checkpoint/" && mkfifo "$dir/checkpoint/run.ckpt"
check checkpoint run.ckpt checkpoint heat2d.yaml --set model.n=[10] --restart run.ckpt

[ "$fail" -eq 0 ] && echo "ok: every FIFO input honours SIGTERM"
exit "$fail"
