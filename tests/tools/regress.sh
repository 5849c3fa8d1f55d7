#!/usr/bin/env bash
# tests/tools/regress.sh: run a config through the CLI and numdiff its CSV against an answer file
# usage: regress.sh CONFIG ANSWER RTOL ATOL [stiffkit run args...]   (env: STIFFKIT, NUMDIFF)
set -eu
config=$1; answer=$2; rtol=$3; atol=$4; shift 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$STIFFKIT" run "$config" --quiet --set output.prefix=case --set output.hdf5=false "$@" > run.log 2>&1 \
  || { cat run.log; exit 1; }
"$NUMDIFF" --rtol "$rtol" --atol "$atol" "$answer" case.csv
