#!/usr/bin/env bash
# scripts/fuzz.sh: the fuzz campaign of tests/fuzz/README.md: builds the libFuzzer targets (clang-14, ASan+UBSan, SK_FUZZ=ON), fuzzes each target in turn from its seeds, minimizes the corpus into tests/fuzz/corpus/<target>/ and prints one table row per target
# usage: scripts/fuzz.sh [TARGET...]   (default: every target)
# environment: FUZZ_RUNS (executions per target, default 1000000), FUZZ_TIME (seconds per
#   target, default 1800), FUZZ_UNTIL (first: stop a target at whichever of the two comes
#   first, the default; later: fuzz for FUZZ_TIME seconds, then, when fewer than FUZZ_RUNS
#   executions were made, go on from the live corpus until FUZZ_RUNS in all),
#   FUZZ_JOBS (targets fuzzed at once, default 1), FUZZ_TIMEOUT (seconds of wall time one input may take before it counts as a hang, default 1;
#   libFuzzer measures wall time, so a loaded machine needs more), BUILD_DIR (default build-fuzz), FUZZ_WORK (scratch directory, default a new mktemp -d)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build-fuzz}
RUNS=${FUZZ_RUNS:-1000000}
TIME=${FUZZ_TIME:-1800}
TIMEOUT=${FUZZ_TIMEOUT:-1}
UNTIL=${FUZZ_UNTIL:-first}
JOBS=${FUZZ_JOBS:-1}
case $UNTIL in first | later) ;; *) echo "fuzz.sh: FUZZ_UNTIL must be first or later" >&2; exit 64 ;; esac
ALL="config set netlist netlist_value formula mechanism bvp matrix_market sweep checkpoint"
TARGETS=${*:-$ALL}
CC=${CC:-clang-14}
command -v "$CC" > /dev/null || { echo "fuzz.sh: $CC not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 69; }

cmake -S . -B "$BUILD_DIR" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSK_FUZZ=ON -DSK_SANITIZE=address,undefined -DSK_WERROR=ON -DSK_BUILD_BENCHMARKS=OFF \
  > "$BUILD_DIR.configure.log" 2>&1 || { cat "$BUILD_DIR.configure.log"; exit 1; }
cmake --build "$BUILD_DIR" -j"$(nproc)" --target stiffkit_cli $(for t in $TARGETS; do echo "fuzz_$t"; done)

WORK=${FUZZ_WORK:-$(mktemp -d)}
mkdir -p "$WORK"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The seeds of a target: example and bad-input files of its format from data/ and tests/.
seeds() {
  case $1 in
    config) ls data/*.yaml data/networks/*.yaml tests/bad_input/*.yaml tests/unit/data/*.yaml ;;
    netlist) ls data/networks/*.net data/networks/*.inc tests/bad_input/network/*.net ;;
    mechanism) ls data/mechanisms/*.yaml data/mechanism_*.yaml tests/bad_input/mechanisms/*.yaml ;;
    bvp) ls data/bvp/*.yaml tests/bad_input/bvp/*.yaml ;;
    matrix_market) ls data/linear/*.mtx tests/bad_input/mtx/*.mtx ;;
    sweep) ls data/sweeps/*.yaml tests/bad_input/sweep/*.yaml ;;
    *) ;; # set, netlist_value, formula, checkpoint: their committed corpus only
  esac
}

# Checkpoints written by the CLI itself as seeds: a run ends its checkpoint when it completes, so
# two long runs (an explicit fixed-step ODE, an IDA run keeping y') are stopped by SIGTERM
checkpoint_seeds() {
  local out=$1 cli=$ROOT/$BUILD_DIR/bin/stiffkit
  (cd "$out" && timeout -s TERM 3 "$cli" run "$ROOT/data/heat2d.yaml" --quiet \
      --set output.dir="$out" --set checkpoint.file="$out/heat2d.ckpt" --set model.n=[4] \
      --set solver.method=rk4 --set solver.fixed_step=1e-9 --set solver.t_end=1e3 > /dev/null 2>&1 || true)
  (cd "$out" && timeout -s TERM 3 "$cli" run "$ROOT/data/rober.yaml" --quiet \
      --set output.dir="$out" --set checkpoint.file="$out/rober.ckpt" --set solver.method=ida-bdf \
      --set solver.rtol=1e-12 --set solver.atol=1e-20 --set solver.t_end=1e30 > /dev/null 2>&1 || true)
  find "$out" -name '*.ckpt' -type f
}

# fuzz_target T: fuzz one target, merge its corpus, write its table row to $WORK/T/row
fuzz_target() {
  local t=$1
  local bin=$ROOT/$BUILD_DIR/tests/fuzz/fuzz_$t
  local corpus=$ROOT/tests/fuzz/corpus/$t
  mkdir -p "$corpus" "$WORK/$t/seed" "$WORK/$t/live" "$WORK/$t/run" "$WORK/$t/merged"
  for f in $(seeds "$t"); do cp "$f" "$WORK/$t/seed/"; done
  if [ "$t" = checkpoint ]; then
    mkdir -p "$WORK/$t/ckpt"
    for f in $(checkpoint_seeds "$WORK/$t/ckpt"); do cp "$f" "$WORK/$t/seed/"; done
  fi
  local dict=()
  [ -f "tests/fuzz/dict/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/dict/$t.dict")
  local start day rc=0 sessions=1 done_runs
  start=$(date +%s)
  day=$(date -u +%Y-%m-%d)
  # one libFuzzer session: $1 executions at most (-1: no limit), $2 seconds at most (0: no
  # limit); the run directory is the working directory: a netlist .include resolves there,
  # and crash inputs (crash-*, leak-*, timeout-*) land there; its CPU seconds go to cpu.txt
  fuzz_session() {
    (cd "$WORK/$t/run" && /usr/bin/time -a -o "$WORK/$t/cpu.txt" -f '%U %S' \
        "$bin" -runs="$1" -max_total_time="$2" -timeout="$TIMEOUT" \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "${dict[@]}" \
        "$WORK/$t/live" "$WORK/$t/seed" "$corpus") >> "$WORK/$t/log" 2>&1
  }
  : > "$WORK/$t/log"
  : > "$WORK/$t/cpu.txt"
  if [ "$UNTIL" = later ]; then
    fuzz_session -1 "$TIME" || rc=$?
    done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t/log" | tail -1)
    if [ "$rc" -eq 0 ] && [ "${done_runs:-0}" -lt "$RUNS" ]; then
      sessions=2
      fuzz_session $((RUNS - ${done_runs:-0})) 0 || rc=$?
    fi
  else
    fuzz_session "$RUNS" "$TIME" || rc=$?
  fi
  local wall execs covline cov ft cpu result nfiles
  wall=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t/log" | awk '{s += $1} END {print s}')
  cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ {s += $1 + $2} END {printf "%.0f", s}' "$WORK/$t/cpu.txt")
  covline=$(grep -E '^#[0-9]+' "$WORK/$t/log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$covline")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$covline")
  result=ok
  if [ "$rc" -ne 0 ]; then
    result="FAILED (rc $rc; $(ls "$WORK/$t/run" | tr '\n' ' ')log $WORK/$t/log)"
  fi
  # minimize: what the committed corpus, the seeds and this run reached, into a fresh
  # directory; past crashes (crash-*) stay in the corpus whatever the merge keeps
  (cd "$WORK/$t/run" && "$bin" -merge=1 -timeout="$TIMEOUT" -rss_limit_mb=2048 -max_len=65536 \
      "$WORK/$t/merged" "$corpus" "$WORK/$t/seed" "$WORK/$t/live") > "$WORK/$t/merge.log" 2>&1 || true
  if [ -n "$(ls "$WORK/$t/merged")" ]; then
    find "$corpus" -type f ! -name 'crash-*' -delete
    cp "$WORK/$t/merged"/* "$corpus/"
  fi
  nfiles=$(find "$corpus" -type f | wc -l)
  if [ "$sessions" -gt 1 ]; then result="$result (2 sessions)"; fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
    "$nfiles" "$wall" "${cpu:-?}" "$day" "$result" > "$WORK/$t/row"
}

# FUZZ_JOBS targets at once (each a single libFuzzer process); rows printed in target order
printf '| target | executions | cov | ft | corpus files | wall s | cpu s | date (UTC) | result |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
running=0
for t in $TARGETS; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_target "$t" &
  running=$((running + 1))
done
wait || true
for t in $TARGETS; do
  cat "$WORK/$t/row" 2> /dev/null || printf '| %s | ? | | | | | | | FAILED (no row; see %s) |\n' "$t" "$WORK/$t/log"
done
echo "fuzz.sh: logs in $WORK" >&2
