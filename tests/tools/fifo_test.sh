#!/usr/bin/env bash
# tests/tools/fifo_test.sh: a config that is a FIFO: with no writer, SIGTERM, SIGINT and SIGUSR1 each end `stiffkit run` within 2 s with exit 75 and nothing written; with a writer it runs
# Environment: STIFFKIT (the stiffkit binary), SK_DATA (the data folder). Exit 0 pass, 1 fail.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
mkfifo cfg.yaml
fail=0
for sig in TERM INT USR1; do
  "$STIFFKIT" run cfg.yaml > out.txt 2> err.txt &
  pid=$!
  sleep 1
  kill -"$sig" "$pid"
  start=$SECONDS
  # at most 2 s (the reader looks at the stop flag every 0.1 s)
  while kill -0 "$pid" 2> /dev/null && ((SECONDS - start < 3)); do sleep 0.1; done
  if kill -0 "$pid" 2> /dev/null; then
    echo "FAIL: SIG$sig: still running after 3 s"
    kill -KILL "$pid"
    fail=1
  fi
  wait "$pid"
  rc=$?
  [ "$rc" -eq 75 ] || { echo "FAIL: SIG$sig: exit $rc, expected 75"; fail=1; }
  grep -q "stopped by signal .* while waiting for config file 'cfg.yaml'" err.txt \
    || { echo "FAIL: SIG$sig: message:"; cat err.txt; fail=1; }
  left=$(ls -A | grep -v -e '^cfg.yaml$' -e '^out.txt$' -e '^err.txt$')
  [ -z "$left" ] || { echo "FAIL: SIG$sig: files left: $left"; fail=1; }
done
# a writer that comes later: the FIFO is read whole and the run completes
(sleep 0.5 && cat "$SK_DATA/heat2d.yaml" > cfg.yaml) &
"$STIFFKIT" run cfg.yaml --set model.n=[10] --set solver.t_end=0.01 --set output.dir=. > out.txt 2>&1 \
  || { echo "FAIL: the run with a writer failed:"; cat out.txt; fail=1; }
grep -q "model diffusion-2d, n = 100" out.txt || { echo "FAIL: the config was not read"; fail=1; }
wait
[ "$fail" -eq 0 ] && echo "ok: FIFO configs honour SIGTERM, SIGINT and SIGUSR1 and run with a writer"
exit "$fail"
