#!/usr/bin/env bash
# benchmarks/restart/run_campaign.sh: the checkpoint/restart campaign at scale (SIGTERM restarts, segment mode, SIGKILLs inside checkpoint writes, refusals, a DAE) and its table
# usage: bash benchmarks/restart/run_campaign.sh [BUILD_DIR]   (from the repository root)
# Size from the environment: TERM_RUNS (100), SEGMENT_RUNS (20), KILLS (100),
# DAE_RUNS (10), PARALLEL (6 SIGTERM chains at a time), SEED (printed).
# The campaign itself is tests/tools/signal_campaign.sh (the ctest
# cli_signal_campaign runs it small); this prints its log to
# benchmarks/results/restart_campaign.log (or $LOG) and a table from it.
set -uo pipefail
BUILD=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2
plugin=$(find "$BUILD" -name 'sk_test_plugin_slow_model.so' | head -n 1)
[ -x "$BUILD/bin/stiffkit" ] && [ -n "$plugin" ] || {
  echo "build first: cmake --build $BUILD (needs the stiffkit CLI and the sk_test_plugin_slow_model target)"
  exit 2
}
log=${LOG:-$root/benchmarks/results/restart_campaign.log}
# a copy of the CLI, the library (the plugin's), the modules and the plugin: a rebuild during the
# campaign does not reach it (the RUNPATH yields to LD_LIBRARY_PATH)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cp "$BUILD/bin/stiffkit" "$plugin" "$bin/"
cp -L "$BUILD/src/libstiffkit.so.0" "$BUILD"/src/libstiffkit-*.so "$bin/"
env SK_SIGNAL_TERM_RUNS="${TERM_RUNS:-100}" SK_SIGNAL_SEGMENT_RUNS="${SEGMENT_RUNS:-20}" \
  SK_SIGNAL_KILLS="${KILLS:-100}" SK_SIGNAL_DAE_RUNS="${DAE_RUNS:-10}" SK_SIGNAL_PARALLEL="${PARALLEL:-6}" \
  ${SEED:+SK_SIGNAL_SEED="$SEED"} STIFFKIT="$bin/stiffkit" SLOW_MODEL="$bin/$(basename "$plugin")" \
  STIFFKIT_MODULE_DIR="$bin" \
  LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" SK_DATA="$root/data" bash "$root/tests/tools/signal_campaign.sh" > "$log" 2>&1
rc=$?
summary=$(grep '^summary ' "$log" | tail -n 1)
[ -n "$summary" ] || {
  echo "the campaign ended without a summary (exit $rc):"
  tail -n 30 "$log"
  exit 1
}
val() { sed -E "s/.* $1=([^ ]*).*/\1/" <<< " ${summary#summary }"; }
# quantiles of the E values of the continued plain-mode runs (lines "termN: ... E = x")
quant() {
  grep -E "^$1[0-9]+: " "$log" | sed -nE 's/.* E = ([0-9.e+-]+).*/\1/p' | sort -g |
    awk '{ v[NR] = $1 }
      END { if (!NR) { printf "none"; exit }
            m = int((NR + 1) / 2); q = int(0.9 * NR + 0.5); if (q < 1) q = 1
            printf "median %.3g, 90%% %.3g, max %.3g (%d runs)", v[m], v[q], v[NR], NR }'
}
fails=$(grep -c '^FAIL' "$log")
echo "checkpoint/restart campaign: seed $(val seed), $(val seconds) s, log $log"
echo
echo "| what | result |"
echo "|---|---|"
echo "| SIGTERM runs (plain + segment mode) | $(val term_runs) + $(val seg_runs), $(val interrupted) interrupted, $(val interruptions) interruptions in all |"
echo "| E = max cell error / (rtol \|y\| + atol) vs exact solution: uninterrupted | plain $(val e_ref), segment mode $(val e_seg) |"
echo "| E of continued plain runs (bound $(val e_bound) = max(6 E_ref, 10)) | $(quant term) |"
echo "| deviation from the uninterrupted run, same units | max $(val dev_worst) |"
echo "| segment mode: continued runs byte-identical to the uninterrupted one | $(val seg_identical) of $(val seg_runs) |"
echo "| SIGKILLs | $(val kills): $(val kills_inside) inside a checkpoint write; $(val kill_restarts) continued from the checkpoint, $(val kill_fresh) restarted at t0 (no checkpoint yet), $(val kill_late) after completion |"
echo "| E after SIGKILL + restart (20000 states) | uninterrupted $(val kill_e_ref); $(quant k) |"
echo "| refusals (checksum, other problem x2, not a checkpoint, missing) with nothing touched | $(val refusals) of 5 |"
echo "| DAE (board network, IDA) interrupted + continued: E vs the rtol = atol = 1e-10 run | $(val dae_runs) runs; uninterrupted $(val dae_e_ref); after a restart at most $(val dae_e_ratio_worst) x the uninterrupted run's E over the same rows |"
echo "| failures | $fails |"
if [ "$fails" -gt 0 ]; then
  echo
  grep '^FAIL' "$log" | head -n 20
fi
exit $rc
