#!/usr/bin/env bash
# scripts/test.sh: install dependencies, build with warnings as errors, run the test suite (not the benchmarks)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" -LE benchmark --output-on-failure -j"$(nproc)" --timeout 900
