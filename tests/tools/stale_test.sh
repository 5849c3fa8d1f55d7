#!/usr/bin/env bash
# tests/tools/stale_test.sh: a failed rerun removes the complete results and statistics of an earlier run with the same names
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
"$STIFFKIT" run --quiet --set model.n=[20] --stats-json s.json --stats-csv s.csv > /dev/null 2>&1 \
  || { echo "FAIL: first run failed"; exit 1; }
for f in heat2d.csv heat2d.h5 heat2d.provenance.yaml s.json s.csv; do
  [ -s "$f" ] || { echo "FAIL: first run did not write $f"; exit 1; }
done
/usr/bin/python3 -c "import json,sys; d=json.load(open('s.json')); sys.exit(0 if d['stats']['steps'] > 0 and d['max_err'] < 1e-2 else 1)" \
  || { echo "FAIL: s.json content"; exit 1; }
head -n 1 s.csv | grep -q '^n,method,linsol,max_err,rms_err,steps,' || { echo "FAIL: s.csv header"; exit 1; }
"$STIFFKIT" run --quiet --set model.n=[20] --set solver.max_steps=3 --stats-json s.json --stats-csv s.csv > /dev/null 2>&1
rc=$?
[ "$rc" -eq 10 ] || { echo "FAIL: rerun exit $rc, expected 10"; exit 1; }
for f in heat2d.csv heat2d.h5 heat2d.provenance.yaml s.json s.csv; do
  [ -e "$f" ] && { echo "FAIL: stale $f survived the failed rerun"; ls -la; exit 1; }
done
[ -e heat2d.partial.csv ] || { echo "FAIL: no partial results"; exit 1; }
echo "ok: no stale results after a failed rerun"
