#!/usr/bin/env bash
# benchmarks/overhead/run_all.sh: the whole overhead table in one command: stiffkit against hand-written CVODE programs from 3 to 10^6 states (ROBER, the 392-state Brusselator, 2D heat at 10^4, 10^5, 10^6), integration and whole process, identical counts required
#
# Usage: bash benchmarks/overhead/run_all.sh
# Environment: BUILD_DIR (default build), passed on; SIZES for the 2D heat (default
# "100 316 1000"). Runs, one after the other, each with its own interleaved rounds:
#   run_overhead.sh  ROBER and the Brusselator: integration wall, instructions, process
#                    (with --stats-json), counts checked (exit 1 when they differ);
#   run_startup.sh   the same two runs without any file: process CPU, page faults, wall,
#                    shared objects mapped;
#   run_heat2d.sh    2D heat, SPGMR + ADI at each size and KLU at 10^4: integration and
#                    process against baseline_cvode_heat2d, counts compared.
# Exit status: the first failing part's.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export BUILD_DIR=${BUILD_DIR:-build}
echo "## small systems: integration, instructions and counts (run_overhead.sh)"
bash "$HERE/run_overhead.sh"
echo
echo "## small systems: the whole process (run_startup.sh)"
bash "$HERE/run_startup.sh"
echo
echo "## 2D heat, 10^4 to 10^6 states (run_heat2d.sh)"
SIZES=${SIZES:-"100 316 1000"} KLU_SIZES=${KLU_SIZES:-100} SCIPY_SIZES='' REPS=${REPS:-3} \
  REPS_LARGE=${REPS_LARGE:-2} SKIP_BUILD=${SKIP_BUILD:-1} bash "$HERE/../run_heat2d.sh"
