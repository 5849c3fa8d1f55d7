#!/usr/bin/env bash
# tests/tools/ulimit_test.sh: `stiffkit run` under address-space limits (ulimit -v) from too small to enough ends with exit 0 or 71 (out of memory), never by a signal
# Environment: STIFFKIT (the stiffkit binary), SK_DATA (the data folder). Exit 0 pass, 1 fail.
# The limits step by 1 MB from LOW KB until a run completes: the window where the libraries are
# loaded but the run does not fit moves with the build, so it is found rather than assumed.
# Below it the dynamic loader itself refuses to map a library (exit 127, before any stiffkit
# code runs): that is recorded and passed over.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
low=${LOW:-30000}
fail=0
oom=0
ok_at=
for ((v = low; v <= low + 150000; v += 1000)); do
  (
    ulimit -v "$v"
    exec env OMP_NUM_THREADS=1 "$STIFFKIT" run --quiet "$SK_DATA/heat2d.yaml" --set output.dir=. \
      > out.txt 2> err.txt
  )
  rc=$?
  case $rc in
  0)
    ok_at=$v
    break
    ;;
  71)
    oom=$((oom + 1))
    grep -q "out of memory" err.txt || { echo "FAIL: exit 71 at $v KB without 'out of memory':"; cat err.txt; fail=1; }
    ;;
  127) # the loader could not map a shared library: no stiffkit code ran
    grep -q "error while loading shared libraries" err.txt \
      || { echo "FAIL: exit 127 at $v KB:"; cat err.txt; fail=1; }
    ;;
  *)
    echo "FAIL: exit $rc at ulimit -v $v KB ($( ((rc > 128)) && kill -l $((rc - 128))))"
    head -n 3 err.txt
    fail=1
    ;;
  esac
  # no result under a final name from a run that failed
  for f in heat2d.csv heat2d.h5 heat2d.provenance.yaml; do
    [ ! -e "$f" ] || { echo "FAIL: $f left under its final name at $v KB"; fail=1; }
  done
  rm -f heat2d.*
done
[ -n "$ok_at" ] || { echo "FAIL: no run completed up to $((low + 150000)) KB"; fail=1; }
((oom > 0)) || { echo "FAIL: no limit gave the out-of-memory exit (71)"; fail=1; }
[ "$fail" -eq 0 ] && echo "ok: $oom limits ended with exit 71, the run completes from $ok_at KB"
exit "$fail"
