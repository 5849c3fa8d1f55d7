#!/usr/bin/env bash
# benchmarks/scaling/run_starts.sh: the hard starts at scale in one command: 2D heat with the sine mode, the polynomial and u0 = 1 at 10^4..10^6 states, 3D heat at 100^3 and the Brusselator, through stiffkit (defaults and best), a hand-written CVODE driver, scipy and Octave, with the error against the semi-discrete exact solution
#
# Usage: bash benchmarks/scaling/run_starts.sh [RESULT_MD]
# Environment: BUILD_DIR (default build), SIZES (2D points per side, default
# "100 316 1000"), STARTS (default "sin poly one"), PEER_MAX (largest N for scipy
# and Octave, default 316), SIZE3D (default 100; empty = none), BRUSS (points per
# side, default 512; empty = none), REPS (rounds, default 1), TMAX (seconds per
# run, default 600), PYTHON (default /usr/bin/python3, with numpy, scipy, h5py),
# OCTAVE (default octave; empty = skip), PROGS (the programs to run, default
# "default best direct peers mpi"), MPI_RANKS (ranks of the "stiffkit mpi" rows,
# default 2), MPI_MIN (smallest points per side with an MPI row, default 316),
# SK_SET (extra key=value settings of the stiffkit rows, space separated, e.g.
# "solver.rtol=4e-7" to match a peer's error; the program names say them).
#
# Each case runs its programs one after the other (one process at a time), in
# REPS rounds; the table keeps the minimum wall time and the maximum peak RSS.
# Programs: "stiffkit default" (linsol.type and linsol.preconditioner auto),
# "stiffkit best" (the ADI line preconditioner for the sine mode, mg for starts
# with every mode: benchmarks/README.md, "Structured multigrid"), "direct CVODE"
# (benchmarks/baseline_cvode_heat2d.c: SPGMR + the same ADI preconditioner,
# stiffkit's Krylov settings maxl 20 and eps_lin 1e-3, the packaged vector
# kernels), scipy solve_ivp BDF with the sparse Jacobian, Octave ode15s with the
# sparse Jacobian; "stiffkit mpi" is `mpiexec -n MPI_RANKS stiffkit run` with mg on
# the ranks' blocks (one OpenMP thread per rank; its peak RSS is the largest
# rank's, as GNU time reports the largest child). rtol 1e-6, atol 1e-9, t in [0, 0.1] (the Brusselator: [0, 2], as
# data/brusselator.yaml; stiffkit only, it has no exact solution).
# The error of every heat run is that of its final state against the exact
# solution of the same ODE system (semidiscrete_error.py); "lin/NL" is linear
# iterations per nonlinear iteration.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
SIZES=${SIZES:-"100 316 1000"}
STARTS=${STARTS:-"sin poly one"}
PEER_MAX=${PEER_MAX:-316}
SIZE3D=${SIZE3D-100}
BRUSS=${BRUSS-512}
REPS=${REPS:-1}
TMAX=${TMAX:-600}
PYTHON=${PYTHON:-/usr/bin/python3}
OCTAVE=${OCTAVE-octave}
PROGS=${PROGS:-"default best direct peers mpi"}
MPI_RANKS=${MPI_RANKS:-2}
MPI_MIN=${MPI_MIN:-316}
SK_SET=${SK_SET:-}
RESULT=${1:-}
SK="$ROOT/$BUILD_DIR/bin/stiffkit"
BASE="$ROOT/$BUILD_DIR/bin/baseline_cvode_heat2d"
HERE="$ROOT/benchmarks/scaling"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cmake --build "$ROOT/$BUILD_DIR" --target stiffkit_cli baseline_cvode_heat2d -j2 > /dev/null ||
  { echo "build failed" >&2; exit 1; }
unset OMP_NUM_THREADS
ROWS="$OUT/rows.tsv"
: > "$ROWS"

want() { # program kind: 0 when PROGS names it
  case " $PROGS " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

ic_args() { # dim start: stiffkit's settings for the start
  case $2 in
    sin) echo "--set model.semidiscrete=true" ;;
    poly) [ "$1" = 3 ] && f='64*x*(1-x)*y*(1-y)*z*(1-z)' || f='16*x*(1-x)*y*(1-y)'
      echo "--set model.ic=formula --set model.ic_formula=$f --set model.exact=none" ;;
    one) echo "--set model.ic=constant --set model.ic_value=1 --set model.exact=none" ;;
  esac
}

# one run: case program round command...; appends "case program round rc wall rss json_file state"
run_one() {
  local case=$1 prog=$2 round=$3
  shift 3
  local tag="$OUT/$(echo "$case-$prog-$round" | tr ' =/^' '____')"
  /usr/bin/time -f '%e %M' -o "$tag.time" timeout "$TMAX" "$@" > "$tag.out" 2> "$tag.err"
  local rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$case" "$prog" "$round" "$rc" "$(cat "$tag.time" 2> /dev/null | tail -1)" "$tag" >> "$ROWS"
  echo "  $case / $prog / round $round: exit $rc, $(tail -1 "$tag.time" 2> /dev/null)" >&2
}

sk_run() { # case prog round dim n start linsol prec (SKCMD: the command, default stiffkit)
  local case=$1 prog=$2 round=$3 dim=$4 n=$5 start=$6 ls=$7 prec=$8
  local extra="" kv
  for kv in $SK_SET; do
    extra="$extra --set $kv"
  done
  [ -n "$SK_SET" ] && prog="$prog, $SK_SET"
  local tag="$OUT/$(echo "$case-$prog-$round" | tr ' =/^' '____')"
  local mode=""
  [ "$dim" = 3 ] && mode="--set model.mode=[1]"
  # shellcheck disable=SC2046,SC2086
  run_one "$case" "$prog" "$round" ${SKCMD:-$SK} run "$ROOT/data/heat2d.yaml" --set model.dim="$dim" \
    $mode --set model.n=["$n"] $(ic_args "$dim" "$start") \
    --set linsol.type="$ls" --set linsol.preconditioner="$prec" --set output.csv=false \
    --set output.hdf5=true --set output.dir="$OUT" --set output.prefix="$(basename "$tag")" \
    --stats-json "$tag.json" $extra
}

for round in $(seq 1 "$REPS"); do
  for n in $SIZES; do
    for start in $STARTS; do
      case="heat2d $start $n^2"
      best=$([ "$start" = sin ] && echo model || echo mg)
      want default && sk_run "$case" "stiffkit default" "$round" 2 "$n" "$start" auto auto
      want best && sk_run "$case" "stiffkit best ($best)" "$round" 2 "$n" "$start" spgmr "$best"
      if want mpi && [ -n "$MPI_RANKS" ] && [ "$n" -ge "$MPI_MIN" ]; then
        SKCMD="env OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n $MPI_RANKS --oversubscribe $SK" \
          sk_run "$case" "stiffkit mpi $MPI_RANKS ranks (mg)" "$round" 2 "$n" "$start" spgmr mg
      fi
      tag="$OUT/$(echo "$case-direct CVODE (ADI)-$round" | tr ' =/^' '____')"
      want direct && run_one "$case" "direct CVODE (ADI)" "$round" "$BASE" "$n" --ic "$start" \
        --maxl 20 --eps-lin 1e-3 --state-out "$tag.bin"
      if want peers && [ "$n" -le "$PEER_MAX" ]; then
        tag="$OUT/$(echo "$case-scipy BDF-$round" | tr ' =/^' '____')"
        run_one "$case" "scipy BDF" "$round" "$PYTHON" "$ROOT/benchmarks/scipy_heat2d.py" "$n" \
          --ic "$start" --state-out "$tag.bin"
        if [ -n "$OCTAVE" ]; then
          tag="$OUT/$(echo "$case-Octave ode15s-$round" | tr ' =/^' '____')"
          run_one "$case" "Octave ode15s" "$round" "$OCTAVE" --no-gui --quiet \
            "$HERE/octave_heat2d.m" "$n" "$start" 1e-6 1e-9 "$tag.bin"
        fi
      fi
    done
  done
  if [ -n "$SIZE3D" ]; then
    case="heat3d poly $SIZE3D^3"
    want default && sk_run "$case" "stiffkit default" "$round" 3 "$SIZE3D" poly auto auto
    want best && sk_run "$case" "stiffkit best (mg)" "$round" 3 "$SIZE3D" poly spgmr mg
    if want mpi && [ -n "$MPI_RANKS" ]; then
      SKCMD="env OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n $MPI_RANKS --oversubscribe $SK" \
        sk_run "$case" "stiffkit mpi $MPI_RANKS ranks (mg)" "$round" 3 "$SIZE3D" poly spgmr mg
    fi
  fi
  if [ -n "$BRUSS" ]; then
    case="brusselator 2x$BRUSS^2"
    for prec in auto amg; do
      prog="stiffkit $([ $prec = auto ] && echo default || echo "(spgmr + $prec)")"
      ls=$([ $prec = auto ] && echo auto || echo spgmr)
      tag="$OUT/$(echo "$case-$prog-$round" | tr ' =/^' '____')"
      run_one "$case" "$prog" "$round" \
        "$SK" run "$ROOT/data/brusselator.yaml" --set model.n=["$BRUSS"] --set linsol.type="$ls" \
        --set linsol.preconditioner=$prec --set output.csv=false --set output.hdf5=false \
        --set output.dir="$OUT" --set output.prefix=b --stats-json "$tag.json"
    done
  fi
done

TMAX="$TMAX" SK_ERROR_SCRIPT="$HERE/semidiscrete_error.py" "$PYTHON" - "$ROWS" "$RESULT" << 'EOF'
import json, os, re, subprocess, sys
rows_file, result = sys.argv[1], sys.argv[2]
runs = {}
for line in open(rows_file):
    case, prog, rnd, rc, tm, tag = line.rstrip("\n").split("\t")
    wall_p, rss = (tm.split() + ["", ""])[:2] if tm else ("", "")
    runs.setdefault((case, prog), []).append((int(rc), wall_p, rss, tag))

def stats_of(prog, tag):
    """steps, nonlinear its, linear its, integration wall, linear solver text"""
    if prog.startswith("stiffkit"):
        d = json.load(open(tag + ".json"))
        s = d["stats"]
        pre = ""
        for ln in open(tag + ".out"):
            m = re.search(r"linear solver (\S+), preconditioner (\S+)", ln)
            if m:
                pre = f"{m.group(1)} + {m.group(2)}"
        return s["steps"], s["newton_iters"], s["lin_iters"], s["wall_time"], pre
    d = json.loads(open(tag + ".out").read().strip().splitlines()[-1])
    return d.get("steps"), d.get("newton_iters"), d.get("lin_iters"), d["wall_time"], ""

def error_of(case, prog, tag):
    m = re.match(r"heat(\d)d (\w+) (\d+)\^", case)
    if not m:
        return None
    dim, start, n = m.group(1), m.group(2), m.group(3)
    state = tag + (".h5" if prog.startswith("stiffkit") else ".bin")
    if not os.path.exists(state):
        return None
    out = subprocess.run([sys.executable, os.environ["SK_ERROR_SCRIPT"], state, n, dim, start,
                          "0.1"], capture_output=True, text=True)
    return json.loads(out.stdout)["rel_l2_err"] if out.returncode == 0 else None

lines = ["| case | program | linear solver | steps | NL its | lin its | lin/NL | integration [s] | process [s] | peak RSS [MiB] | rel. L2 error vs semi-discrete exact | rounds |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
for (case, prog), rs in runs.items():
    ok = [r for r in rs if r[0] == 0]
    if not ok:
        rc, tag = rs[0][0], rs[0][3]
        why = f"timeout ({os.environ.get('TMAX', '600')} s)" if rc == 124 else f"exit {rc}"
        if rc != 124 and os.path.exists(tag + ".err"):  # the program's own first error line
            errs = [ln.strip() for ln in open(tag + ".err", errors="replace") if ln.strip()]
            if errs:
                why += ": " + " ".join(errs[:2])[:140].replace("|", "/")
        lines.append(f"| {case} | {prog} | | {why} | | | | | | | | {len(rs)} |")
        continue
    best = None
    for rc, wp, rss, tag in ok:
        st = stats_of(prog, tag)
        if best is None or st[3] < best[0][3]:
            best = (st, wp, tag)
    st, wp, tag = best
    rss_max = max(float(r[2]) for r in ok) / 1024.0
    steps, nl, li, wall, pre = st
    ratio = f"{li / nl:.2f}" if li is not None and nl else "-"
    err = error_of(case, prog, tag)
    fmt = lambda v: "-" if v is None else str(v)
    lines.append(f"| {case} | {prog} | {pre or '-'} | {fmt(steps)} | {fmt(nl)} | {fmt(li)} | {ratio} | "
                 f"{wall:.3f} | {float(wp):.2f} | {rss_max:.0f} | {'-' if err is None else '%.2e' % err} | {len(ok)} |")
text = "\n".join(lines) + "\n"
print(text, end="")
if result:
    with open(result, "w") as f:
        f.write(text)
EOF
