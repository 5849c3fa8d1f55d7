#!/usr/bin/env bash
# tests/tools/verify_report_test.sh: run `stiffkit verify --report` in a fresh directory; check exit code, the text report, the JSON report and that nothing else is left
# usage: verify_report_test.sh CODE PATTERN RESULT -- verify-args...
#   CODE     expected exit status
#   PATTERN  fixed string the text report (stdout) must contain
#   RESULT   "pass" or "fail": the JSON report's "result"
set -u
code=$1; pattern=$2; result=$3; shift 3
[ "$1" = "--" ] && shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
"$STIFFKIT" verify "$@" --report report.json > stdout.txt 2> stderr.txt
rc=$?
fail=0
if [ "$rc" -ne "$code" ]; then
  echo "FAIL: exit code $rc, expected $code"; fail=1
fi
if ! grep -qF -- "$pattern" stdout.txt; then
  echo "FAIL: expected in the text report: $pattern"; fail=1
fi
if ! /usr/bin/python3 -c '
import json, sys
d = json.load(open("report.json"))
assert d["result"] == sys.argv[1], "result %r, expected %r" % (d["result"], sys.argv[1])
names = [c["name"] for c in d["checks"]]
for need in ("production", "tolerance_refinement", "reference_stepper", "exact_solution",
             "jacobian_initial", "jacobian_final", "invariants"):
    assert need in names, "check %s missing from %s" % (need, names)
for c in d["checks"]:
    assert c["verdict"] in ("pass", "fail", "not_verified"), c
    assert isinstance(c["finding"], str) and c["finding"], c
    assert isinstance(c["values"], dict) and isinstance(c["rows"], list), c
inv = [c for c in d["checks"] if c["name"] == "invariants"][0]
assert inv["verdict"] == "not_verified" and "no invariants provided by the model" in inv["finding"]
' "$result"; then
  echo "FAIL: the JSON report does not parse or lacks the expected content"; fail=1
fi
files=$(ls -A | grep -v -e '^stdout.txt$' -e '^stderr.txt$' -e '^report.json$' || true)
if [ -n "$files" ]; then
  echo "FAIL: files left behind besides the report: $files"; fail=1
fi
if [ "$fail" -ne 0 ]; then
  echo "--- stdout"; cat stdout.txt; echo "--- stderr"; cat stderr.txt
  [ -f report.json ] && { echo "--- report.json"; cat report.json; }
  exit 1
fi
echo "ok: exit $rc"
exit 0
