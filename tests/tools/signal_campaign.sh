#!/usr/bin/env bash
# tests/tools/signal_campaign.sh: runs stopped at random times (SIGTERM, SIGKILL, inside checkpoint writes) always continue to the uninterrupted answer; damaged, foreign and missing checkpoints are refused without touching earlier results
#
# Environment: STIFFKIT (the CLI), SLOW_MODEL (tests/plugins/slow_model.c
# built), SK_DATA (the data/ directory). SK_SIGNAL_SEED repeats a campaign's
# draws (the seed is printed; the moments a signal lands still depend on the
# machine). Size: SK_SIGNAL_TERM_RUNS (10), SK_SIGNAL_SEGMENT_RUNS (4),
# SK_SIGNAL_KILLS (8), SK_SIGNAL_DAE_RUNS (2), SK_SIGNAL_PARALLEL (5 SIGTERM
# chains at a time: the slow model sleeps, so they do not slow each other).
# The last line is "summary key=value ...", read by benchmarks/restart/.
#
# Expected values and why:
# - The slow model (tests/plugins/slow_model.c: y_i' = -k_i y_i, k_i =
#   10^(3i/(n-1)), exact solution exp(-k_i t)) is judged against its exact
#   solution, cell by cell: E = max |y - exact| / (rtol |exact| + atol). The
#   uninterrupted run has some E_ref (its global error: the local errors of
#   some 400 steps, each bounded in the WRMS norm, accumulated; 6.5 here).
#   An emergency restart starts again at order 1 from the saved state and
#   step size, like the start at t0, and adds a startup error of that kind:
#   segment mode, 10 such restarts and no signal, reaches 2.9 E_ref. A
#   continued run must have E <= max(6 E_ref, 10), twice that. A state
#   restored from the wrong time or a lost step is off by 10^3..10^5 units.
#   The deviation from the uninterrupted run, max |run - ref| / (rtol |ref| +
#   atol), is printed too; by the triangle inequality it is at most about
#   E + E_ref. (A bound of 10 on that deviation is too tight: segment mode
#   alone, with no signal, is 19 units from the exact solution and 23 from
#   the plain run.)
# - The t column of every continued run equals the reference's as text: no
#   output time missing, repeated or moved.
# - Segment mode (checkpoint.segment) restarts the engine at every boundary
#   in the uninterrupted run as well, so a continued run is byte-identical
#   to it (cmp of the CSV).
# - SIGKILL has no handler: killed at random times and right after a
#   checkpoint's temporary file appears (inside the write), a run leaves the
#   previous checkpoint under the final name, complete: --restart accepts it
#   and the continued run meets the same bound (exact solution again).
# - The DAE (data/networks/board.yaml, ida-bdf) has no exact solution: the
#   same network at rtol = atol = 1e-10 stands in for it (10^4 times tighter,
#   an independent run), with the same rule E <= max(6 E_ref, 10).
# - Refusals (exit 65: checksum, another problem, not a checkpoint; exit 66:
#   missing) leave every earlier file byte for byte as it was.
set -u
: "${STIFFKIT:?STIFFKIT must name the stiffkit CLI}"
: "${SLOW_MODEL:?SLOW_MODEL must name the slow model plugin}"
: "${SK_DATA:?SK_DATA must name the data directory}"
seed=${SK_SIGNAL_SEED:-$(($(date +%s) % 100000))}
nterm=${SK_SIGNAL_TERM_RUNS:-10}
nseg=${SK_SIGNAL_SEGMENT_RUNS:-4}
nkill=${SK_SIGNAL_KILLS:-8}
ndae=${SK_SIGNAL_DAE_RUNS:-2}
width=${SK_SIGNAL_PARALLEL:-5}
RANDOM=$seed
echo "seed $seed (SK_SIGNAL_SEED=$seed repeats the draws)"
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}
start=$SECONDS

# frac VAR LO HI: VAR = a uniform fraction in [LO, HI) with 3 digits, drawn
# from the seeded sequence (here: in a command substitution it would not advance)
frac() {
  local _r=$((RANDOM % 1000))
  printf -v "$1" '%s' "$(awk -v lo="$2" -v hi="$3" -v r=$_r 'BEGIN { printf "%.3f", lo + (hi - lo) * r / 1000 }')"
}
mul() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a * b }'; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
over() { awk -v r="$1" -v b="$2" 'BEGIN { exit !(r > b) }'; }
maxof() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }
limit() { awk -v e="$1" 'BEGIN { b = 6 * e; print (b > 10 ? b : 10) }'; }

# the header of a CSV split into head[1..] (names may be quoted and hold commas)
AWK_HEAD='function split_head(line, head,   n, i, c, q, f) {
  n = 0; f = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (c == "\"") { q = !q; continue }
    if (c == "," && !q) { head[++n] = f; f = "" } else f = f c
  }
  head[++n] = f
  return n
}'
# compare REF RUN RTOL ATOL [TMIN]: the same header and t column (as text);
# prints the largest |run - ref| / (rtol |ref| + atol) over the value columns
# (not the error columns) of the rows after TMIN, and where; exit 1 (with the
# reason) when the header, a time or the number of rows differs
compare() {
  awk -F, -v rtol="$3" -v atol="$4" -v tmin="${5:--1e300}" "$AWK_HEAD"'
    NR == FNR { if (FNR == 1) { split_head($0, head); hline = $0 } else { t[FNR] = $1; for (j = 2; j <= NF; j++) v[FNR, j] = $j }
                nref = FNR; next }
    FNR == 1 { if ($0 != hline) { print "the header differs: " $0; bad = 1; exit 1 } next }
    /^#/ { next }
    { n = FNR
      if (!(FNR in t) || $1 != t[FNR]) { printf "t column differs at row %d: %s, reference %s\n", FNR - 1, $1, t[FNR]; bad = 1; exit 1 }
      if ($1 + 0 <= tmin + 0) next
      for (j = 2; j <= NF; j++) {
        if (head[j] ~ /_err$/) continue
        a = $j + 0; b = v[FNR, j] + 0; d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b
        r = d / (rtol * s + atol)
        if (r > rmax) { rmax = r; rrow = FNR - 1; rcol = head[j] }
      } }
    END { if (bad) exit 1
          if (n != nref) { printf "%d rows, reference %d\n", n - 1, nref - 1; exit 1 }
          printf "%.4g (row %d %s)\n", rmax, rrow, rcol }' "$1" "$2"
}
# exact FILE N RTOL ATOL: max |y_i - exp(-k_i t)| / (rtol exp(-k_i t) + atol)
# over the y[i] columns of a slow-model CSV (N components)
exact() {
  awk -F, -v nn="$2" -v rtol="$3" -v atol="$4" "$AWK_HEAD"'
    FNR == 1 { m = split_head($0, head)
               for (j = 1; j <= m; j++) if (head[j] ~ /^y\[[0-9]+\]$/) k[j] = 10 ^ (3 * substr(head[j], 3) / (nn - 1))
               next }
    /^#/ { next }
    { for (j in k) { e = exp(-k[j] * $1); d = $j - e; if (d < 0) d = -d; r = d / (rtol * e + atol)
                     if (r > rmax) { rmax = r; rt = $1; rc = head[j] } } }
    END { printf "%.4g (t=%s %s)\n", rmax, rt, rc }' "$1"
}
num() { awk '{ print $1 }' <<< "$1"; }
# started PID PREFIX: wait until run PID has opened its result files (its
# signal thread runs by then) or has ended
started() {
  while kill -0 "$1" 2> /dev/null && [ ! -e "$2.csv.tmp.$1" ]; do sleep 0.005; done
}
# a listing of a directory with checksums (names and contents)
snapshot() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs -r md5sum); }

# ---- the slow model: uninterrupted runs ------------------------------------------------
SLOW=(--no-stats --set model.type=plugin --set "model.plugin=$SLOW_MODEL" --set model.parameters.delay=0.005
  --set solver.t_end=1 --set output.n_times=50 --set output.prefix=slow
  --set "output.probes=[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]")
SEG=(--set checkpoint.every=0.1 --set checkpoint.segment=true)
mkdir -p "$top/ref" "$top/refseg"
t0=$(now)
(cd "$top/ref" && "$STIFFKIT" run "${SLOW[@]}" > out.txt 2> err.txt) || bad "the reference run failed"
wall=$(since "$t0")
t0=$(now)
(cd "$top/refseg" && "$STIFFKIT" run "${SLOW[@]}" "${SEG[@]}" > out.txt 2> err.txt) || bad "the segment-mode reference failed"
wallseg=$(since "$t0")
eref=$(exact "$top/ref/slow.csv" 16 1e-6 1e-9)
eseg=$(exact "$top/refseg/slow.csv" 16 1e-6 1e-9)
dseg=$(compare "$top/ref/slow.csv" "$top/refseg/slow.csv" 1e-6 1e-9) || bad "segment mode: $dseg"
lim=$(limit "$(num "$eref")")
echo "slow model: plain ${wall}s, E_ref = $eref; segment mode ${wallseg}s, E = $eseg, $dseg from the plain run; bound on E: $lim"
over "$(num "$eseg")" "$lim" && bad "segment mode (no signal) is $eseg from the exact solution"
[ -e "$top/ref/slow.ckpt" ] || [ -e "$top/refseg/slow.ckpt" ] && bad "a completed run kept its checkpoint"

# chain DIR MODE WALL F1 F2 ...: run in DIR; SIGTERM after F1 x WALL seconds;
# continue with --restart, SIGTERMed again after F2 x WALL, ... ("-": not);
# a last round runs to the end. Writes DIR/summary (interruptions, rounds)
# and DIR/problems (one line per problem).
chain() {
  local dir=$1 mode=$2 w=$3
  shift 3
  local extra=() restart=() round=0 stops=0 rc=0 f delay=0 pid
  [ "$mode" = segment ] && extra=("${SEG[@]}")
  mkdir -p "$dir"
  cd "$dir" || return
  : > problems
  for f in "$@" -; do
    round=$((round + 1))
    "$STIFFKIT" run "${SLOW[@]}" "${extra[@]}" "${restart[@]}" > "out.$round" 2> "err.$round" &
    pid=$!
    if [ "$f" != - ]; then
      delay=$(mul "$f" "$w")
      started "$pid" slow
      sleep "$delay"
      kill -TERM "$pid" 2> /dev/null
    fi
    wait "$pid"
    rc=$?
    if [ "$rc" -eq 0 ]; then
      [ ${#restart[@]} -eq 0 ] || grep -q "^continued from checkpoint slow.ckpt at t = " "out.$round" \
        || echo "round $round: no 'continued from checkpoint' line" >> problems
      break
    elif [ "$rc" -eq 75 ]; then
      stops=$((stops + 1))
      grep -q "run interrupted by SIGTERM at t=.*--restart \(\./\)\?slow.ckpt$" "err.$round" \
        || echo "round $round: exit 75 without the message naming the checkpoint: $(head -c 300 "err.$round")" >> problems
      [ -s slow.ckpt ] || echo "round $round: exit 75 but no checkpoint" >> problems
      [ -e slow.partial.csv ] || echo "round $round: no partial CSV kept" >> problems
      restart=(--restart slow.ckpt)
    else
      echo "round $round (SIGTERM after ${delay}s): exit $rc: $(head -c 300 "err.$round")" >> problems
      break
    fi
  done
  echo "$stops $round" > summary
  [ "$rc" -eq 0 ] || echo "did not complete (exit $rc)" >> problems
  [ -e slow.ckpt ] && echo "the completed run kept its checkpoint" >> problems
  ls slow.partial.* > /dev/null 2>&1 && echo "partial files outlive the completed run" >> problems
  ls ./*.tmp.* > /dev/null 2>&1 && echo "temporary files left: $(ls ./*.tmp.*)" >> problems
}

# ---- SIGTERM at random times, then --restart until complete ------------------------------
# Signals are sent at random times after a run has opened its result files.
# Before that, a SIGTERM that comes while the process is still loading its
# shared libraries (before main starts the signal thread: some 50 ms here)
# ends it by the default action (exit 143, nothing written). How a signal
# 10 ms after the start ends a run is printed, not judged:
mkdir -p "$top/early"
(
  cd "$top/early" || exit
  "$STIFFKIT" run "${SLOW[@]}" > ../early.out 2> ../early.err &
  pid=$!
  sleep 0.01
  kill -TERM $pid
  wait $pid
  rc=$?
  shopt -s nullglob
  left=(*)
  echo "SIGTERM 10 ms after the start: exit $rc; files left: ${#left[@]} ${left[*]}"
)

# the draws happen here, in order, so that a seed repeats them
dirs=()
f1=
for i in $(seq 1 $((nterm + nseg))); do
  if [ "$i" -le "$nterm" ]; then
    name=term$i mode=plain w=$wall
  else
    name=seg$((i - nterm)) mode=segment w=$wallseg
  fi
  frac f1 0.1 0.9
  f2=- f3=-
  [ $((RANDOM % 2)) -eq 0 ] && frac f2 0.1 0.6
  [ "$f2" != - ] && [ $((RANDOM % 2)) -eq 0 ] && frac f3 0.1 0.6
  dirs+=("$top/$name")
  echo "$name: SIGTERM after $f1 $f2 $f3 x ${w}s ($mode)"
  (chain "$top/$name" "$mode" "$w" "$f1" "$f2" "$f3") &
  [ $((i % width)) -eq 0 ] && wait
done
wait

worst_e=0 worst_d=0 stopped=0 stops_all=0 identical=0
for d in "${dirs[@]}"; do
  name=$(basename "$d")
  read -r stops rounds < "$d/summary"
  stopped=$((stopped + (stops > 0)))
  stops_all=$((stops_all + stops))
  if [ -s "$d/problems" ]; then
    bad "$name: $(tr '\n' ';' < "$d/problems")"
    [ -e "$d/slow.csv" ] || continue
  fi
  case $name in
  seg*) ref=$top/refseg/slow.csv ;;
  *) ref=$top/ref/slow.csv ;;
  esac
  dev=$(compare "$ref" "$d/slow.csv" 1e-6 1e-9) || {
    bad "$name: $dev"
    continue
  }
  e=$(exact "$d/slow.csv" 16 1e-6 1e-9)
  echo "$name: $stops interruption(s) in $rounds rounds; E = $e; deviation from the uninterrupted run $dev"
  over "$(num "$e")" "$lim" && bad "$name: $e from the exact solution (bound $lim)"
  case $name in
  seg*)
    if cmp -s "$ref" "$d/slow.csv"; then
      identical=$((identical + 1))
    else
      bad "$name: not byte-identical to the uninterrupted segment-mode run: $(cmp "$ref" "$d/slow.csv")"
    fi
    ;;
  *)
    worst_e=$(maxof "$worst_e" "$(num "$e")")
    worst_d=$(maxof "$worst_d" "$(num "$dev")")
    ;;
  esac
done
echo "SIGTERM: $stopped of $((nterm + nseg)) runs interrupted, $stops_all interruptions; plain mode: E up to $worst_e (E_ref $(num "$eref"), bound $lim), deviation from the uninterrupted run up to $worst_d; segment mode: $identical of $nseg byte-identical"
# a signal late in a run may come after its last output (the run then completes)
[ "$stopped" -ge $(((nterm + nseg) * 3 / 4)) ] || bad "only $stopped runs were interrupted: the signals came too late"

# ---- segment mode: a continued run stopped again before its next boundary ----------------
# the checkpoint it started from is still the last boundary's: the message must
# name it (the random chains above meet this case only now and then)
d=$top/segtwice
mkdir -p "$d"
cd "$d" || exit 2
for round in 1 2; do
  restart=()
  [ $round -eq 2 ] && restart=(--restart slow.ckpt)
  "$STIFFKIT" run "${SLOW[@]}" "${SEG[@]}" "${restart[@]}" > "out.$round" 2> "err.$round" &
  pid=$!
  started "$pid" slow
  sleep 0.3 # about t = 1e-3: before the first boundary, t = 0.1
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  [ "$rc" -eq 75 ] || bad "segment mode, stop $round: exit $rc"
done
grep -q "checkpoint './slow.ckpt' holds t=0.000000e+00: continue with the same command and --restart" err.1 \
  || bad "segment mode, first stop: $(head -n 1 err.1)"
grep -q "checkpoint '.*slow.ckpt' holds t=0.000000e+00: continue with the same command and --restart" err.2 \
  || bad "segment mode, a continued run stopped before its next boundary: the message names no checkpoint, though slow.ckpt (t = 0) still continues it: $(head -n 1 err.2)"
"$STIFFKIT" run "${SLOW[@]}" "${SEG[@]}" --restart slow.ckpt > out.3 2> err.3 || bad "segment mode, third round: $(cat err.3)"
cmp -s "$top/refseg/slow.csv" slow.csv || bad "segment mode, stopped twice: not byte-identical to the uninterrupted run"

# ---- refusals: nothing is touched --------------------------------------------------------
refusals=0
d=$top/refuse
mkdir -p "$d"
cd "$d" || exit 2
"$STIFFKIT" run "${SLOW[@]}" > out.1 2> err.1 &
pid=$!
started "$pid" slow
sleep "$(mul 0.5 "$wall")"
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" -ne 75 ] || [ ! -s slow.ckpt ]; then
  bad "refusals: the interrupted run exited $rc"
else
  cp slow.ckpt tampered.ckpt
  size=$(stat -c %s tampered.ckpt)
  byte=$(od -An -tu1 -j $((size / 2)) -N1 tampered.ckpt | tr -d ' ')
  # shellcheck disable=SC2059
  printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of=tampered.ckpt bs=1 seek=$((size / 2)) conv=notrunc status=none
  cmp -s slow.ckpt tampered.ckpt && bad "the byte was not changed"
  cp "$SK_DATA/heat2d.yaml" notackpt.ckpt
  before=$(snapshot .)
  refuse() { # refuse CODE PATTERN args...: exit CODE, PATTERN on stderr, no file changed
    local code=$1 pattern=$2
    shift 2
    "$STIFFKIT" run "${SLOW[@]}" "$@" > ../r.out 2> ../r.err
    local rc=$?
    local ok=1
    [ "$rc" -eq "$code" ] || { bad "refusal ($*): exit $rc, expected $code: $(cat ../r.err)"; ok=0; }
    grep -qF -- "$pattern" ../r.err || { bad "refusal ($*): no '$pattern' in: $(cat ../r.err)"; ok=0; }
    [ "$(snapshot .)" = "$before" ] || { bad "refusal ($*) changed the directory: $(diff <(echo "$before") <(snapshot .))"; ok=0; }
    refusals=$((refusals + ok))
  }
  refuse 65 "fails its checksum" --restart tampered.ckpt
  refuse 65 "belongs to another problem (checkpoint has 'solver.rtol: 1e-06', this run 'solver.rtol: 1e-07')" \
    --set solver.rtol=1e-7 --restart slow.ckpt
  refuse 65 "belongs to another problem" --set model.parameters.n=17 --restart slow.ckpt
  refuse 65 "is not a stiffkit checkpoint" --restart notackpt.ckpt
  refuse 66 "cannot open checkpoint 'missing.ckpt'" --restart missing.ckpt
  # after all that, the checkpoint still continues the run (found by --resume)
  "$STIFFKIT" run "${SLOW[@]}" --resume > out.2 2> err.2 || bad "--resume after the refusals: $(cat err.2)"
  grep -q "^continued from checkpoint ./slow.ckpt at t = " out.2 || bad "--resume did not continue from the checkpoint: $(cat out.2)"
  dev=$(compare "$top/ref/slow.csv" slow.csv 1e-6 1e-9) || bad "after the refusals: $dev"
  e=$(exact slow.csv 16 1e-6 1e-9)
  over "$(num "$e")" "$lim" && bad "after the refusals: E = $e"
  # --resume without a checkpoint starts at t0 and completes
  rm -f slow.*
  "$STIFFKIT" run "${SLOW[@]}" --set model.parameters.delay=0 --resume > out.3 2> err.3 \
    || bad "--resume without a checkpoint: $(cat err.3)"
  grep -q "continued from checkpoint" out.3 && bad "--resume without a checkpoint claims to continue"
  echo "refusals: $refusals of 5 (checksum, another problem x2, not a checkpoint -> 65; missing -> 66), no file touched; --resume continues (E = $e)"
fi

# ---- SIGKILL at random times and inside checkpoint writes ----------------------------------
# 20000 states (160 kB a checkpoint, fsync'ed), a checkpoint every 50 ms of wall time
NK=20000
KILL=(--no-stats --set model.type=plugin --set "model.plugin=$SLOW_MODEL" --set "model.parameters.n=$NK"
  --set model.parameters.delay=0.003 --set solver.t_end=1 --set output.n_times=50 --set output.states=false
  --set "output.probes=[0,2000,5000,8000,10000,12000,15000,19999]" --set output.prefix=big
  --set checkpoint.wall=0.05)
d=$top/kill
mkdir -p "$d/ref"
cd "$d/ref" || exit 2
t0=$(now)
"$STIFFKIT" run "${KILL[@]}" > out.txt 2> err.txt || bad "SIGKILL reference: $(cat err.txt)"
kwall=$(since "$t0")
kref=$(exact big.csv $NK 1e-6 1e-9)
klim=$(limit "$(num "$kref")")
echo "SIGKILL model ($NK states): ${kwall}s, $(grep -o "checkpoints written: [0-9]*" out.txt), E_ref = $kref; bound $klim"
inside=0 accepted=0 fresh=0 late=0 kworst=0 kills=0
# killrun MODE DELAY args...: start a run, SIGKILL it after DELAY seconds or,
# in target mode, after DELAY and then as soon as its checkpoint temporary
# file exists; sets killed_in = 1 when that file outlived the kill
killrun() {
  local mode=$1 delay=$2
  shift 2
  "$STIFFKIT" run "${KILL[@]}" "$@" > /dev/null 2> kerr &
  local pid=$! tmp
  tmp=big.ckpt.tmp.$pid
  sleep "$delay"
  if [ "$mode" = target ]; then
    while kill -0 "$pid" 2> /dev/null && [ ! -e "$tmp" ]; do :; done
  fi
  kill -KILL "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  kills=$((kills + 1))
  killed_in=0
  [ -e "$tmp" ] && killed_in=1
  inside=$((inside + killed_in))
}
where() { [ "$killed_in" -eq 1 ] && echo "inside a write" || echo "outside writes"; }
for i in $(seq 1 "$nkill"); do
  mkdir -p "$d/k$i"
  cd "$d/k$i" || exit 2
  if [ $((i % 2)) -eq 0 ]; then
    mode=target
    frac f 0 0.5
  else
    mode=random
    frac f 0.05 0.8
  fi
  killrun $mode "$(mul "$f" "$kwall")"
  note="$mode kill after $f x ${kwall}s $(where)"
  again=$((RANDOM % 2))
  frac f 0 0.3
  if [ -e big.csv ]; then # the run had completed: nothing to continue
    late=$((late + 1))
    echo "k$i: $note: the run had completed"
    cmp -s "$d/ref/big.csv" big.csv || bad "k$i: a run without a restart differs from the reference"
    continue
  fi
  # half the time the continuation is killed inside a write too, then continued
  if [ "$again" -eq 0 ] && [ -e big.ckpt ]; then
    killrun target "$(mul "$f" "$kwall")" --restart big.ckpt
    note="$note; its continuation killed $(where)"
  fi
  if [ -e big.ckpt ]; then
    cont=(--restart big.ckpt)
  else
    cont=(--resume) # killed before the first checkpoint: starts again at t0
  fi
  "$STIFFKIT" run "${KILL[@]}" "${cont[@]}" > out.txt 2> err.txt
  rc=$?
  [ "$rc" -eq 0 ] || bad "k$i ($note): continuing with ${cont[*]} exited $rc: $(head -c 400 err.txt)"
  if [ "${cont[0]}" = --restart ]; then
    accepted=$((accepted + 1))
    grep -q "^continued from checkpoint big.ckpt at t = " out.txt || bad "k$i: no restart line"
  else
    fresh=$((fresh + 1))
  fi
  dev=$(compare "$d/ref/big.csv" big.csv 1e-6 1e-9) || {
    bad "k$i ($note): $dev"
    continue
  }
  e=$(exact big.csv $NK 1e-6 1e-9)
  echo "k$i: $note; ${cont[*]}: E = $e, deviation $dev"
  over "$(num "$e")" "$klim" && bad "k$i: $e from the exact solution (bound $klim)"
  kworst=$(maxof "$kworst" "$(num "$e")")
  [ -e big.ckpt ] && bad "k$i: the completed run kept its checkpoint"
done
echo "SIGKILL: $kills kills, $inside inside a checkpoint write (its temporary file left behind); $accepted runs continued from the checkpoint under its final name, $fresh started again (killed before the first checkpoint), $late had completed before the kill; E up to $kworst (bound $klim)"
# target mode waits until the temporary file exists and then kills: only a
# write that ends between that test and the kill (microseconds against the
# milliseconds of a 160 kB write and its fsync) escapes, so of the targeted
# kills (every second one) at least one lands inside
[ "$nkill" -lt 2 ] || [ "$inside" -ge 1 ] || bad "no SIGKILL landed inside a checkpoint write"

# ---- a DAE (IDA): interrupted and continued from (y, y') ---------------------------------
# the board network runs in a fraction of a second; a checkpoint every simulated
# second (each one fsync'ed) stretches it so that a signal lands inside
DAE=(--no-stats "$SK_DATA/networks/board.yaml")
d=$top/dae
mkdir -p "$d/ref" "$d/tight" "$d/run"
(cd "$d/tight" && "$STIFFKIT" run "${DAE[@]}" --set solver.rtol=1e-10 --set solver.atol=1e-10 > out.txt 2> err.txt) \
  || bad "DAE at 1e-10: $(cat "$d/tight/err.txt")"
cd "$d/ref" || exit 2
t0=$(now)
"$STIFFKIT" run "${DAE[@]}" --set checkpoint.every=1 > out.txt 2> err.txt || bad "DAE reference: $(cat err.txt)"
dwall=$(since "$t0")
dref=$(compare "$d/tight/board.csv" board.csv 1e-6 1e-6)
echo "DAE (board network, ida-bdf): ${dwall}s with a checkpoint every second; E_ref = $dref against rtol = atol = 1e-10"
cd "$d/run" || exit 2
dstops=0 dworst=0
for _ in $(seq 1 $((3 * ndae))); do
  rm -f board.*
  "$STIFFKIT" run "${DAE[@]}" --set checkpoint.every=1 > out.1 2> err.1 &
  pid=$!
  started "$pid" board
  frac f 0.2 0.8
  sleep "$(mul "$f" "$dwall")"
  kill -TERM "$pid" 2> /dev/null
  wait "$pid"
  rc=$?
  [ "$rc" -eq 0 ] && continue # finished before the signal: again
  [ "$rc" -eq 75 ] || {
    bad "DAE run: exit $rc after SIGTERM: $(cat err.1)"
    break
  }
  # an IDA checkpoint holds y' (the field has_yp, an int64 at byte 64, is 1)
  [ "$(od -An -td8 -j 64 -N 8 board.ckpt | tr -d ' ')" = 1 ] || bad "the DAE checkpoint holds no y'"
  "$STIFFKIT" run "${DAE[@]}" --restart board.ckpt > out.2 2> err.2 || {
    bad "DAE restart: $(cat err.2)"
    break
  }
  dstops=$((dstops + 1))
  # the rows after the restart time (the earlier ones are the saved rows)
  tres=$(sed -nE 's/^continued from checkpoint board.ckpt at t = ([^ ]+).*/\1/p' out.2)
  e=$(compare "$d/tight/board.csv" board.csv 1e-6 1e-6 "$tres") || bad "DAE: $e"
  eref_after=$(compare "$d/tight/board.csv" "$d/ref/board.csv" 1e-6 1e-6 "$tres")
  elim=$(limit "$(num "$eref_after")")
  dev=$(compare "$d/ref/board.csv" board.csv 1e-6 1e-6) || bad "DAE: $dev"
  # the heat flows (algebraic, a second table): every output time once, in order
  fdev=$(compare "$d/ref/board.flows.csv" board.flows.csv 1e-6 1e-6) || bad "DAE flows: $fdev"
  echo "DAE: SIGTERM, continued from t = $tres: E after it $e (the uninterrupted run there: $eref_after; bound $elim); deviation from the uninterrupted run $dev (heat flows: $fdev)"
  over "$(num "$e")" "$elim" && bad "DAE: $e from the tight solution after t = $tres (bound $elim)"
  dworst=$(maxof "$dworst" "$(awk -v a="$(num "$e")" -v b="$(num "$eref_after")" 'BEGIN { printf "%.3g", (b > 0 ? a / b : 0) }')")
  [ $dstops -ge "$ndae" ] && break
done
[ $dstops -ge 1 ] || [ "$ndae" -eq 0 ] || bad "the DAE run (${dwall}s) could not be interrupted in $((3 * ndae)) attempts"

echo "campaign took $((SECONDS - start)) s"
echo "summary seed=$seed term_runs=$nterm seg_runs=$nseg interrupted=$stopped interruptions=$stops_all" \
  "e_ref=$(num "$eref") e_seg=$(num "$eseg") e_worst=$worst_e e_bound=$lim dev_worst=$worst_d" \
  "seg_identical=$identical kills=$kills kills_inside=$inside kill_restarts=$accepted kill_fresh=$fresh kill_late=$late" \
  "kill_e_ref=$(num "$kref") kill_e_worst=$kworst refusals=$refusals dae_runs=$dstops" \
  "dae_e_ref=$(num "$dref") dae_e_ratio_worst=$dworst seconds=$((SECONDS - start)) failed=$fail"
if [ "$fail" -ne 0 ]; then
  echo "seed $seed"
  exit 1
fi
echo "ok: every interrupted run continued to the uninterrupted answer"
