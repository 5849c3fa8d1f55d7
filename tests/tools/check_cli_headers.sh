#!/usr/bin/env bash
# tests/tools/check_cli_headers.sh: every internal header that src/cli/ includes is on DESIGN.md's list of the command's internal headers, and the list names no private layout (*_impl.h)
set -euo pipefail
root=$1
allowed=$(awk '/<!-- cli-internal-headers begin -->/{f=1; next} /<!-- cli-internal-headers end -->/{f=0} f' \
  "$root/DESIGN.md" | grep -o '`[a-z_]*/[a-z_0-9]*\.h`' | tr -d '`' | sort -u)
[ -n "$allowed" ] || { echo "FAIL: DESIGN.md has no cli-internal-headers list"; exit 1; }
fail=0
if grep -q '_impl\.h$' <<< "$allowed"; then
  echo "FAIL: the list names a private layout: $(printf '%s\n' "$allowed" | grep '_impl\.h$' | tr '\n' ' ')"
  fail=1
fi
while IFS=: read -r file header; do
  case "$header" in cli/* | stiffkit/*) continue ;; esac
  if ! grep -qx "$header" <<< "$allowed"; then
    echo "FAIL: ${file#"$root"/} includes $header, which is not on DESIGN.md's list"
    fail=1
  fi
done < <(grep -rHo '#include "[^"]*"' "$root/src/cli" | sed 's/:#include "/:/; s/"$//')
[ "$fail" -eq 0 ] && echo "OK: src/cli includes $(printf '%s\n' "$allowed" | wc -l) listed internal headers at most"
exit "$fail"
