#!/usr/bin/env bash
# scripts/test.sh: install dependencies, build with warnings as errors, run the test suite (not the benchmarks)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
# ctest runs nproc tests at once: one OpenMP thread each, or threaded kernels in
# concurrent tests oversubscribe the cores (tests that need 2 threads set it themselves)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
ctest --test-dir "$BUILD_DIR" -LE benchmark --output-on-failure -j"$(nproc)" --timeout 900
