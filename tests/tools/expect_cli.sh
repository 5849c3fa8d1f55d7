#!/usr/bin/env bash
# tests/tools/expect_cli.sh: run the CLI in a fresh directory; check exit code, message and what files it left
# usage: expect_cli.sh CODE PATTERN LEFTOVER -- stiffkit-args...
#   CODE      expected exit status
#   PATTERN   fixed string that stderr (or stdout, for CODE 0) must contain ("" = any)
#   LEFTOVER  none: the directory must stay empty; partial: only *.partial.* files, among them a
#             provenance sidecar saying status: incomplete, and no final-name result;
#             complete: a final-name result with a provenance sidecar saying status: complete,
#             and no temporary or partial files
# The message is looked for in stderr (and in stdout too when CODE is 0).
# SK_LAUNCH (optional, split on spaces) runs stiffkit under a launcher, e.g.
# "mpiexec -n 2 --oversubscribe" for the distributed tests.
set -u
code=$1; pattern=$2; leftover=$3; shift 3
[ "$1" = "--" ] && shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
# shellcheck disable=SC2086
${SK_LAUNCH:-} "$STIFFKIT" "$@" > stdout.txt 2> stderr.txt
rc=$?
fail=0
if [ "$rc" -ne "$code" ]; then
  echo "FAIL: exit code $rc, expected $code"; fail=1
fi
search=(stderr.txt)
[ "$code" -eq 0 ] && search+=(stdout.txt)
if [ -n "$pattern" ] && ! grep -qF -- "$pattern" "${search[@]}"; then
  echo "FAIL: expected message containing: $pattern"; fail=1
fi
files=$(ls -A | grep -v -e '^stdout.txt$' -e '^stderr.txt$' || true)
case "$leftover" in
  none)
    if [ -n "$files" ]; then echo "FAIL: files left behind: $files"; fail=1; fi ;;
  partial)
    if echo "$files" | grep -v '\.partial\.' | grep -q .; then
      echo "FAIL: files other than *.partial.* left: $files"; fail=1
    fi
    for f in $(echo "$files" | grep '\.partial\.csv$'); do
      tail -n 1 "$f" | grep -q '^# status=incomplete' || { echo "FAIL: $f lacks the incomplete marker"; fail=1; }
    done
    if ! grep -qs '^status: incomplete' ./*.partial.provenance.yaml; then
      echo "FAIL: no partial provenance sidecar with status: incomplete"; fail=1
    fi ;;
  complete)
    if echo "$files" | grep -q -e '\.tmp' -e '\.partial\.'; then
      echo "FAIL: temporary or partial files left: $files"; fail=1
    fi
    if ! grep -qs '^status: complete' ./*.provenance.yaml; then
      echo "FAIL: no provenance sidecar with status: complete"; fail=1
    fi ;;
esac
if [ "$fail" -ne 0 ]; then
  echo "--- stdout"; cat stdout.txt; echo "--- stderr"; cat stderr.txt
  exit 1
fi
echo "ok: exit $rc"
exit 0
