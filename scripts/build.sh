#!/usr/bin/env bash
# scripts/build.sh: configure and build stiffkit (BUILD_DIR, SK_SANITIZE, SK_WERROR from the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}
if [ -n "${SK_SANITIZE:-}" ]; then
  BUILD_TYPE=${BUILD_TYPE_SANITIZE:-RelWithDebInfo}
fi
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DSK_WERROR="${SK_WERROR:-ON}" -DSK_SANITIZE="${SK_SANITIZE:-}" > "$BUILD_DIR.configure.log" 2>&1 \
  || { cat "$BUILD_DIR.configure.log"; exit 1; }
cmake --build "$BUILD_DIR" -j"$(nproc)"
