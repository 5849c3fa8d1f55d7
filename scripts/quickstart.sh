#!/usr/bin/env bash
# scripts/quickstart.sh: install dependencies, build, and run the embedded default job (2D heat equation)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# the results go to out/, which .gitignore covers: running this leaves the checkout clean
mkdir -p out
cd out && ../build/bin/stiffkit run "$@"
