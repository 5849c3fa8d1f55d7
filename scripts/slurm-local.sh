#!/usr/bin/env bash
# scripts/slurm-local.sh: a private single-node Slurm cluster on 127.0.0.1 for tests (install, start, stop, logs, available)
#
# Usage:
#   slurm-local.sh install      apt-get install the daemons and clients (Debian 12: Slurm 22.05)
#                               unless they are installed already; run apt-get update first
#   slurm-local.sh available    exit 0 silently when the cluster can be started here;
#                               otherwise print the reason on stdout and exit 1
#   slurm-local.sh start DIR    write DIR/etc/slurm.conf, start munged, slurmctld and slurmd
#                               with everything under DIR, wait until the node is idle and
#                               print `export SLURM_CONF=...` lines for eval
#   slurm-local.sh env DIR      print the same export lines again
#   slurm-local.sh status DIR   which daemons run, sinfo, squeue
#   slurm-local.sh logs DIR     tails of the daemon logs and of the job completion log
#   slurm-local.sh stop DIR     cancel all jobs, stop the daemons, kill what is left of this
#                               instance; DIR itself is kept (remove it yourself)
#
# Example:
#   d=$(mktemp -d); trap 'scripts/slurm-local.sh stop "$d"; rm -rf "$d"' EXIT
#   eval "$(scripts/slurm-local.sh start "$d")"
#   sbatch --wrap 'hostname'
#
# Environment:
#   SK_SLURM_PORT          slurmctld port (default 6817; when unset and 6817/6818 are taken,
#                          the next free pair above is used)
#   SK_SLURM_SLURMD_PORT   slurmd port (default: slurmctld port + 1)
#   SK_SLURM_TIMEOUT       seconds start waits for the node to become idle (default 60)
#   SK_SLURM_KILLWAIT      seconds between SIGTERM and SIGKILL at a time limit or scancel (default 30)
#   SK_SLURM_NODE          node and controller name (default localhost)
#
# The cluster needs root (SlurmUser=root), no systemd, no cgroups and no slurmdbd. It uses its
# own munge key and socket, so a munged started by the packages (with /etc/munge/munge.key) may
# or may not be running; it is never used. Clients find the cluster through SLURM_CONF only.
# Every daemon listens on 127.0.0.1 only. Daemons (and the slurmstepd processes they fork)
# carry SK_SLURM_INSTANCE=DIR in their environment; `stop` finds leftovers by that marker,
# never by process name.
set -euo pipefail

PACKAGES=(slurmctld slurmd slurm-client munge)
TIMEOUT=${SK_SLURM_TIMEOUT:-60}
KILLWAIT=${SK_SLURM_KILLWAIT:-30}
NODE=${SK_SLURM_NODE:-localhost}
MARKER=SK_SLURM_INSTANCE

say() { printf 'slurm-local: %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

usage() {
  sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 64
}

# The daemons live in /usr/sbin, which a non-login PATH may lack.
case ":$PATH:" in
  *:/usr/sbin:*) ;;
  *) PATH=$PATH:/usr/sbin:/sbin ;;
esac

# instance_dir DIR: DIR as an absolute, symlink-free path (created if missing)
instance_dir() {
  [[ -n ${1:-} ]] || usage
  mkdir -p -- "$1"
  (cd -- "$1" && pwd -P)
}

# existing_dir DIR: like instance_dir, but DIR must exist and have been set up by start
existing_dir() {
  [[ -n ${1:-} ]] || usage
  [[ -f $1/etc/slurm.conf ]] || die "$1 holds no cluster (no etc/slurm.conf)"
  (cd -- "$1" && pwd -P)
}

pid_of() {
  local f=$1 p=""
  [[ -s $f ]] && p=$(tr -cd '0-9' < "$f")
  printf '%s' "$p"
}

# alive PID: the process exists and is not a zombie (an init that is slow to reap, as in
# some containers, leaves a dead daemon as a zombie that kill -0 still reports)
alive() {
  local stat
  [[ -n ${1:-} ]] || return 1
  stat=$(cat 2> /dev/null < "/proc/$1/stat") || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}
dead() { ! alive "$1"; }
no_jobs() { [[ -z $(squeue -h -o %A 2> /dev/null) ]]; }

# poll SECONDS CMD...: run CMD every 0.2 s until it succeeds; fail after SECONDS
poll() {
  local limit=$1
  shift
  local end=$((SECONDS + limit))
  until "$@" > /dev/null 2>&1; do
    ((SECONDS < end)) || return 1
    sleep 0.2
  done
}

# listening PORT: something listens on TCP PORT (any address, IPv4 or IPv6)
listening() {
  local hex f
  hex=$(printf ':%04X' "$1")
  for f in /proc/net/tcp /proc/net/tcp6; do
    [[ -r $f ]] || continue
    # field 2 is local address:port, field 4 the state (0A = LISTEN)
    awk -v p="$hex" 'NR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' "$f" && return 0
  done
  return 1
}

# choose_ports: set CTLD_PORT and SLURMD_PORT
choose_ports() {
  if [[ -n ${SK_SLURM_PORT:-} ]]; then
    CTLD_PORT=$SK_SLURM_PORT
    SLURMD_PORT=${SK_SLURM_SLURMD_PORT:-$((CTLD_PORT + 1))}
    ! listening "$CTLD_PORT" || die "port $CTLD_PORT (SK_SLURM_PORT) is in use"
    ! listening "$SLURMD_PORT" || die "port $SLURMD_PORT (slurmd) is in use"
    return 0
  fi
  local p
  for ((p = 6817; p < 6817 + 400; p += 2)); do
    CTLD_PORT=$p
    SLURMD_PORT=${SK_SLURM_SLURMD_PORT:-$((p + 1))}
    if ! listening "$CTLD_PORT" && ! listening "$SLURMD_PORT"; then
      return 0
    fi
  done
  die "no free port pair between 6817 and 7216; set SK_SLURM_PORT"
}

missing_reason() {
  local c
  for c in slurmctld slurmd munged munge sbatch squeue scontrol sinfo; do
    command -v "$c" > /dev/null 2>&1 || {
      echo "$c is not installed (scripts/slurm-local.sh install)"
      return 0
    }
  done
  [[ $(id -u) -eq 0 ]] || echo "a private Slurm cluster needs root (SlurmUser=root)"
}

cmd_available() {
  local why
  why=$(missing_reason)
  [[ -z $why ]] && return 0
  echo "$why"
  return 1
}

cmd_install() {
  local p missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    say "already installed: ${PACKAGES[*]}"
    return 0
  fi
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  # Where /usr/sbin/policy-rc.d exits 101 (containers), the packages' scripts cannot start
  # the services; elsewhere a packaged munged may start on /etc/munge/munge.key. Either way
  # start uses its own key and socket.
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

write_conf() {
  local d=$1 topology=$2 memory=$3
  cat > "$d/etc/slurm.conf" << EOF
# $d/etc/slurm.conf: a private single-node test cluster on 127.0.0.1, written by slurm-local.sh start
ClusterName=sktest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$d/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$d/log/jobcomp.txt
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
KillWait=$KILLWAIT
MinJobAge=600
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$NODE NodeAddr=127.0.0.1 NodeHostname=$NODE $topology RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  # an empty plugin stack, so that a system /etc/slurm/plugstack.conf is not read
  : > "$d/etc/plugstack.conf"
}

start_munged() {
  local d=$1
  install -d -m 0755 "$d/munge"
  if [[ ! -s $d/munge/munge.key ]]; then
    (
      umask 077
      head -c 1024 /dev/urandom > "$d/munge/munge.key"
    )
  fi
  chmod 0400 "$d/munge/munge.key"
  # --force: munged insists that every parent of its socket be world-searchable, which a
  # mktemp -d parent (0700) is not; the only clients are root's.
  env "$MARKER=$d" munged --force \
    --socket="$d/munge/munge.socket" \
    --key-file="$d/munge/munge.key" \
    --pid-file="$d/run/munged.pid" \
    --log-file="$d/log/munged.log" \
    --seed-file="$d/munge/munged.seed" ||
    return 1
  poll 10 test -S "$d/munge/munge.socket" || return 1
  munge -n -S "$d/munge/munge.socket" | unmunge -S "$d/munge/munge.socket" > /dev/null
}

node_idle() {
  [[ $(sinfo -h -N -n "$NODE" -o %t 2> /dev/null) == idle ]]
}

# await SECONDS PIDFILE CMD...: poll CMD until it succeeds; fail after SECONDS, or at once
# when the daemon of PIDFILE has written its PID and died
await() {
  local limit=$1 pidfile=$2 p
  shift 2
  local end=$((SECONDS + limit))
  until "$@" > /dev/null 2>&1; do
    p=$(pid_of "$pidfile")
    if [[ -n $p ]] && ! alive "$p"; then return 2; fi
    ((SECONDS < end)) || return 1
    sleep 0.2
  done
}

# start_failed DIR MESSAGE: stop what was started, show the logs, fail
start_failed() {
  local d=$1
  shift
  stop_instance "$d" > /dev/null 2>&1 || true
  say "error: $*"
  cmd_logs "$d" >&2 || true
  exit 1
}

cmd_start() {
  local why
  why=$(missing_reason)
  [[ -z $why ]] || die "$why"
  local d
  d=$(instance_dir "${1:-}")
  if alive "$(pid_of "$d/run/slurmctld.pid")" || alive "$(pid_of "$d/run/slurmd.pid")"; then
    die "a cluster is already running in $d"
  fi
  choose_ports
  local topology memory
  # CPUs, Boards, SocketsPerBoard, CoresPerSocket, ThreadsPerCore as slurmd itself counts them
  topology=$(slurmd -C 2> /dev/null | head -n 1 | tr ' ' '\n' |
    grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | paste -sd ' ' || true)
  [[ -n $topology ]] || topology="CPUs=$(nproc)"
  # a RealMemory above the real memory drains the node
  memory=$(free -m | awk '/^Mem:/ { print int($2 * 0.9) }')
  ((memory > 0)) || memory=1

  mkdir -p "$d/etc" "$d/state" "$d/spool" "$d/log" "$d/run"
  write_conf "$d" "$topology" "$memory"
  export SLURM_CONF=$d/etc/slurm.conf
  local t0=$SECONDS

  start_munged "$d" || start_failed "$d" "munged did not start"
  # slurmctld and slurmd daemonize and write their own PID files; -c: no jobs are carried
  # over from an earlier start in the same DIR
  env "$MARKER=$d" slurmctld -c -f "$SLURM_CONF" || start_failed "$d" "slurmctld did not start"
  await 30 "$d/run/slurmctld.pid" scontrol ping ||
    start_failed "$d" "slurmctld does not answer on 127.0.0.1:$CTLD_PORT (or it exited)"
  env "$MARKER=$d" slurmd -f "$SLURM_CONF" -N "$NODE" || start_failed "$d" "slurmd did not start"
  if ! await "$TIMEOUT" "$d/run/slurmd.pid" node_idle; then
    sinfo -N -l >&2 || true
    start_failed "$d" "node $NODE is not idle after ${TIMEOUT} s (or slurmd exited)"
  fi
  say "cluster up in $((SECONDS - t0)) s: slurmctld 127.0.0.1:$CTLD_PORT, slurmd 127.0.0.1:$SLURMD_PORT, $topology RealMemory=$memory"
  cmd_env "$d"
}

cmd_env() {
  local d
  d=$(existing_dir "${1:-}")
  printf 'export SLURM_CONF=%q\n' "$d/etc/slurm.conf"
}

cmd_status() {
  local d name p
  d=$(existing_dir "${1:-}")
  for name in munged slurmctld slurmd; do
    p=$(pid_of "$d/run/$name.pid")
    if alive "$p"; then echo "$name: running (pid $p)"; else echo "$name: not running"; fi
  done
  export SLURM_CONF=$d/etc/slurm.conf
  sinfo -N -l 2>&1 || true
  squeue 2>&1 || true
}

cmd_logs() {
  local d f
  d=$(existing_dir "${1:-}")
  for f in munged slurmctld slurmd jobcomp; do
    case $f in
      jobcomp) f=$d/log/jobcomp.txt ;;
      *) f=$d/log/$f.log ;;
    esac
    echo "==> $f <=="
    if [[ -f $f ]]; then tail -n "${SK_SLURM_LOG_LINES:-40}" "$f"; else echo "(missing)"; fi
  done
}

# term_then_kill NAME PID: SIGTERM, then SIGKILL after 10 s
term_then_kill() {
  local name=$1 p=$2
  alive "$p" || return 0
  kill -TERM "$p" 2> /dev/null || true
  if ! poll 10 dead "$p"; then
    say "$name (pid $p) is still running 10 s after SIGTERM; SIGKILL"
    kill -KILL "$p" 2> /dev/null || true
  fi
}

# ancestors: this process and its ancestors, which are never killed (the caller may itself
# run inside a Slurm job and have SLURM_CONF pointing here)
ancestors() {
  local p=$BASHPID
  while [[ -n $p && $p != 0 ]]; do
    echo "$p"
    p=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2> /dev/null || true)
  done
}

# leftovers DIR: PIDs of processes of this instance: those carrying the marker (daemons,
# slurmstepd), job processes (SLURM_JOB_ID and SLURM_CONF=DIR/...), and all their descendants
leftovers() {
  local d=$1 p e nl=$'\n'
  local -A ours=() keep=() parent=()
  for p in $(ancestors); do keep[$p]=1; done
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [[ -n ${keep[$p]:-} ]] && continue
    parent[$p]=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2> /dev/null || true)
    e=$(tr '\0' '\n' 2> /dev/null < "/proc/$p/environ") || continue
    e=$nl$e$nl
    if [[ $e == *"${nl}$MARKER=$d$nl"* ]] ||
      [[ $e == *"${nl}SLURM_CONF=$d/etc/slurm.conf$nl"* && $e == *"${nl}SLURM_JOB_ID="* ]]; then
      ours[$p]=1
    fi
  done
  # descendants of ours are ours too (a job may clear its environment)
  local changed=1
  while ((changed)); do
    changed=0
    for p in "${!parent[@]}"; do
      [[ -z ${ours[$p]:-} && -n ${parent[$p]} && -n ${ours[${parent[$p]}]:-} && -z ${keep[$p]:-} ]] || continue
      ours[$p]=1
      changed=1
    done
  done
  for p in "${!ours[@]}"; do
    alive "$p" && echo "$p"
  done
  return 0
}

# stop_instance DIR: the work of stop, for a DIR made by start
stop_instance() {
  local d=$1 p jobs
  export SLURM_CONF=$d/etc/slurm.conf
  if alive "$(pid_of "$d/run/slurmctld.pid")" && alive "$(pid_of "$d/run/slurmd.pid")" &&
    scontrol ping > /dev/null 2>&1; then
    jobs=$(squeue -h -o %A 2> /dev/null | tr '\n' ' ' || true)
    if [[ -n ${jobs// /} ]]; then
      # scancel sends SIGTERM to every process of a job, SIGKILL after KillWait
      # shellcheck disable=SC2086 # a list of job ids
      scancel $jobs 2> /dev/null || true
      poll "$((KILLWAIT + 10))" no_jobs ||
        say "jobs still listed after scancel: $(squeue -h -o %A 2> /dev/null | tr '\n' ' ')"
    fi
  fi
  term_then_kill slurmd "$(pid_of "$d/run/slurmd.pid")"
  term_then_kill slurmctld "$(pid_of "$d/run/slurmctld.pid")"
  term_then_kill munged "$(pid_of "$d/run/munged.pid")"
  for p in $(leftovers "$d"); do
    say "killing leftover pid $p: $(tr '\0' ' ' 2> /dev/null < "/proc/$p/cmdline" | cut -c1-80)"
    kill -KILL "$p" 2> /dev/null || true
  done
  return 0
}

cmd_stop() {
  local d
  [[ -n ${1:-} ]] || usage
  if [[ ! -f $1/etc/slurm.conf ]]; then
    say "no cluster in $1; nothing to stop"
    return 0
  fi
  d=$(existing_dir "$1")
  local t0=$SECONDS
  stop_instance "$d"
  say "stopped in $((SECONDS - t0)) s ($d kept)"
}

case ${1:-} in
  install) cmd_install ;;
  available) cmd_available ;;
  start | env | status | logs | stop)
    c=$1
    shift
    [[ $# -eq 1 ]] || usage
    "cmd_$c" "$1"
    ;;
  *) usage ;;
esac
