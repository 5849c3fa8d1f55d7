#!/usr/bin/env bash
# scripts/format.sh: clang-format (14, .clang-format) over the C sources in src/, include/ and tests/: --check reports, without it the files are rewritten
# usage: scripts/format.sh [--check]
#   --check  clang-format --dry-run --Werror: lists every change it would make and exits 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$CLANG_FORMAT" ]; then
  echo "format.sh: clang-format is not installed (apt-get install clang-format)" >&2
  exit 69
fi
mapfile -t files < <(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h')
if [ "${1:-}" = "--check" ]; then
  # one call per file: clang-format stops at the first file with --Werror
  bad=0
  for f in "${files[@]}"; do
    "$CLANG_FORMAT" --dry-run --Werror "$f" || bad=$((bad + 1))
  done
  if [ "$bad" -gt 0 ]; then
    echo "format.sh: $bad of ${#files[@]} files differ from .clang-format (scripts/format.sh rewrites them)" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files match .clang-format"
elif [ -z "${1:-}" ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
else
  echo "usage: scripts/format.sh [--check]" >&2
  exit 64
fi
