#!/usr/bin/env bash
# benchmarks/scaling/run_handoff.sh: the structured multigrid with and without its hand-off to the model's ADI (linsol.mg_model_below, linsol.mg_model_max_lin), on the sine mode and the all-mode starts of the 2D and 3D heat problem, interleaved, with the error against the semi-discrete exact solution
#
# usage: bash benchmarks/scaling/run_handoff.sh [RESULT.md]
# Environment: BUILD_DIR (default build), SIZES (2D N per side, default "316 1000"), STARTS
# (default "sin poly one"), SIZE3D (default 100; empty: no 3D case), CONFIGS (the settings
# compared, BELOW:MAX_LIN for linsol.mg_model_below and linsol.mg_model_max_lin, default
# "0:0 25:0 25:3": a hierarchy at every setup, the bound alone, the defaults), REPS (rounds, default 2; each
# case's figure is the round with the smallest integration wall), THREADS (solver.threads,
# default 2: fixed, so that every run of a round gets the same cores).
# Every run: data/heat2d.yaml, spgmr + mg, rtol 1e-6, atol 1e-9, t in [0, 0.1], HDF5 states
# written (the error needs the final state).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
SIZES=${SIZES:-"316 1000"}
STARTS=${STARTS:-"sin poly one"}
SIZE3D=${SIZE3D-100}
CONFIGS=${CONFIGS:-"0:0 25:0 25:3"}
REPS=${REPS:-2}
THREADS=${THREADS:-2}
PYTHON=${PYTHON:-/usr/bin/python3}
RESULT=${1:-}
SK="$ROOT/$BUILD_DIR/bin/stiffkit"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cmake --build "$ROOT/$BUILD_DIR" --target stiffkit_cli -j2 > /dev/null || { echo "build failed" >&2; exit 1; }

cases=()
for n in $SIZES; do
  for start in $STARTS; do
    cases+=("2 $n $start")
  done
done
[ -n "$SIZE3D" ] && cases+=("3 $SIZE3D poly")

: > "$OUT/rows.tsv"
for round in $(seq 1 "$REPS"); do
  for c in "${cases[@]}"; do
    read -r dim n start <<< "$c"
    case $start in
      sin) ic=(--set model.semidiscrete=true) ;;
      poly) [ "$dim" = 3 ] && f='64*x*(1-x)*y*(1-y)*z*(1-z)' || f='16*x*(1-x)*y*(1-y)'
        ic=(--set model.ic=formula --set "model.ic_formula=$f" --set model.exact=none) ;;
      one) ic=(--set model.ic=constant --set model.ic_value=1 --set model.exact=none) ;;
      *) echo "unknown start $start" >&2; exit 2 ;;
    esac
    mode=()
    [ "$dim" = 3 ] && mode=(--set "model.mode=[1]")
    for config in $CONFIGS; do
      below=${config%%:*} maxlin=${config#*:}
      tag="$OUT/d$dim-n$n-$start-b$below-m$maxlin-r$round"
      "$SK" run "$ROOT/data/heat2d.yaml" --set model.dim="$dim" "${mode[@]}" --set "model.n=[$n]" \
        "${ic[@]}" --set linsol.type=spgmr --set linsol.preconditioner=mg \
        --set linsol.mg_model_below="$below" --set linsol.mg_model_max_lin="$maxlin" \
        --set solver.threads="$THREADS" \
        --set output.csv=false --set output.hdf5=true --set output.dir="$OUT" \
        --set output.prefix="$(basename "$tag")" --stats-json "$tag.json" > "$tag.out" 2>&1
      rc=$?
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$dim" "$n" "$start" "$config" "$rc" "$tag" >> "$OUT/rows.tsv"
      echo "  ${dim}D $start $n^$dim, mg_model_below:max_lin $config, round $round: exit $rc" >&2
    done
  done
done

"$PYTHON" - "$OUT/rows.tsv" "$ROOT/benchmarks/scaling/semidiscrete_error.py" "$RESULT" << 'EOF'
import json, re, subprocess, sys
rows_file, err_script, result = sys.argv[1], sys.argv[2], sys.argv[3]
best = {}
for line in open(rows_file):
    dim, n, start, below, rc, tag = line.rstrip("\n").split("\t")
    key = (dim, n, start, below)
    if rc != "0":
        best.setdefault(key, None)
        continue
    s = json.load(open(tag + ".json"))["stats"]
    text = open(tag + ".out").read()
    m = re.search(r"(\d+) setups,.*?(\d+) more by the model", text)
    row = dict(steps=s["steps"], nl=s["newton_iters"], lin=s["lin_iters"], wall=s["wall_time"],
               mg=int(m.group(1)) if m else None, adi=int(m.group(2)) if m else None, tag=tag)
    if best.get(key) is None or row["wall"] < best[key]["wall"]:
        best[key] = row
lines = ["| case | mg_model_below:max_lin | steps | NL its | lin its | lin/NL | mg setups | ADI setups "
         "| integration [s] | vs 0 | rel. L2 error vs semi-discrete exact |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
for (dim, n, start, below), r in best.items():
    case = f"heat{dim}d {start} {n}^{dim}"
    if r is None:
        lines.append(f"| {case} | {below} | failed | | | | | | | | |")
        continue
    base = best.get((dim, n, start, "0:0"))
    ratio = f"{base['wall'] / r['wall']:.2f}x" if base and below != "0:0" else ""
    out = subprocess.run([sys.executable, err_script, r["tag"] + ".h5", n, dim, start, "0.1"],
                         capture_output=True, text=True)
    err = f"{json.loads(out.stdout)['rel_l2_err']:.2e}" if out.returncode == 0 else "-"
    lines.append(f"| {case} | {below} | {r['steps']} | {r['nl']} | {r['lin']} | "
                 f"{r['lin'] / max(r['nl'], 1):.2f} | {r['mg']} | {r['adi']} | {r['wall']:.3f} | "
                 f"{ratio} | {err} |")
text = "\n".join(lines) + "\n"
print(text, end="")
if result:
    open(result, "w").write(text)
EOF
