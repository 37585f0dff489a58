#!/bin/sh
# Part of `make test` (check-slurm): the Slurm job array of docs/sweeps.md,
# docs/examples/slurm-sweep.sh exactly, on a real one-node cluster started
# here — munged with a key of its own, slurmctld and slurmd on localhost, a
# slurm.conf and every state, spool, log and socket file in one temporary
# directory.  Task 1 of the array is stopped mid-run (scontrol suspend),
# killed and requeued (scontrol requeuehold), and released; it must resume
# its partial part in place, the merge job (afterok on the array) must
# run, and the merged file must equal one un-sharded `tilefit sweep` byte
# for byte.  Whatever it started is stopped on exit, failure included.
# Skips (exit 0, "check-slurm: skipped: REASON") when not root or when
# slurm-wlm or munge is missing or does not start.
# Run from the top of the tree after `make`; make bounds it with timeout.
set -eu
TOP=$(pwd)
# nothing of a Slurm the caller may run under (SLURM_JOB_ID, SBATCH_PARTITION, ...)
unset $(env | sed -n 's/^\(S\(LURM\|BATCH\)_[A-Za-z0-9_]*\)=.*/\1/p') 2>/dev/null || true
SPEC=${SLURM_TEST_SPEC:-tests/data/sweep/slurm.json}
SHARDS=4
START=$(date +%s)

skip() { echo "check-slurm: skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "not root (slurmd and munged run as root here)"
for c in munged mungekey slurmctld slurmd sbatch scontrol squeue sinfo python3; do
  command -v "$c" >/dev/null 2>&1 || skip "$c is missing (.ci/deps installs slurm-wlm and munge)"
done
[ -x ./tilefit ] || { echo "check-slurm: FAIL: ./tilefit is not built" >&2; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/tilefit-slurm-XXXXXX")
chmod 755 "$T" # munged requires its socket's directories searchable by all
CONF=$T/slurm.conf
PIDS=""
# PIDs that are running (not zombies)
running() {
  for p; do
    [ -r "/proc/$p/stat" ] && [ "$(sed 's/^.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null)" != Z ] && echo "$p"
  done
  return 0
}
# stops PIDs: SIGTERM, SIGKILL after 3 s
stop() {
  [ $# = 0 ] && return
  kill "$@" 2>/dev/null
  i=0
  while [ -n "$(running "$@")" ] && [ $i -lt 50 ]; do
    [ $i = 30 ] && kill -9 $(running "$@") 2>/dev/null
    sleep 0.1
    i=$((i + 1))
  done
}
# ours [VAR=VALUE]: the PIDs of the processes whose environment names this
# run's slurm.conf (the daemons, slurmstepd, the jobs), and has VAR=VALUE
ours() {
  for e in $(grep -l -z -x "SLURM_CONF=$CONF" /proc/[0-9]*/environ 2>/dev/null); do
    [ $# = 0 ] || grep -q -z -x "$1" "$e" 2>/dev/null || continue
    p=${e#/proc/}
    [ "${p%/environ}" = $$ ] || echo "${p%/environ}"
  done
}
cleanup() {
  rc=$?
  set +e
  trap - EXIT INT TERM
  # The jobs (slurmstepd, the job shells, tilefit: ours but for the daemons
  # and their children), the daemons, then anything left.
  for pass in 1 2; do
    left=""
    for p in $(ours); do
      pp=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
      case " $PIDS " in *" $p "*) continue ;; esac
      [ $pass = 1 ] && case " $PIDS " in *" $pp "*) continue ;; esac
      left="$left $p"
    done
    [ -n "$left" ] && kill -9 $left 2>/dev/null
    [ $pass = 1 ] && stop $PIDS
  done
  for p in $PIDS; do wait "$p" 2>/dev/null; done # reaps them
  if [ -n "${MUNGED:-}" ]; then stop "$MUNGED"; wait "$MUNGED" 2>/dev/null; fi
  if [ "$rc" != 0 ]; then
    for f in slurmctld.log slurmd.log munged.log; do
      [ -f "$T/$f" ] && { echo "--- $f (last lines)" >&2; tail -15 "$T/$f" >&2; }
    done
    for f in "$T"/out/slurm-*.out; do [ -s "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }; done
  fi
  rm -rf "$T"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() { echo "check-slurm: FAIL: $*" >&2; exit 1; }
sl() { SLURM_CONF=$CONF "$@"; }
field() { sl scontrol show job -o "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
# until SECONDS CMD...: polls CMD every 0.1 s, false once SECONDS have passed
until_() {
  n=$(($1 * 10)); shift
  while ! "$@"; do
    n=$((n - 1)); [ $n -gt 0 ] || return 1
    sleep 0.1
  done
}

# The reference: one un-sharded run, while the cluster starts.
./tilefit sweep "$SPEC" -j 2 -o "$T/ref.jsonl" --quiet &
REF=$!
PIDS="$REF"

# munge, with its own key and socket.
mungekey -c -b 1024 -k "$T/munge.key" >/dev/null 2>&1 || skip "mungekey cannot create a key"
munged -F --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
  --seed-file="$T/munged.seed" >"$T/munged.log" 2>&1 &
MUNGED=$!
until_ 10 test -S "$T/munge.sock" || { tail -5 "$T/munged.log"; skip "munged does not start"; }
munge -n -S "$T/munge.sock" | unmunge -S "$T/munge.sock" >/dev/null 2>&1 ||
  skip "munge cannot encode and decode a credential"

# Two free ports (a race with other programs is possible, and reported as a failure to start).
set -- $(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
mkdir -p "$T/state" "$T/spool" "$T/out"
cat >"$CONF" <<EOF
ClusterName=tilefit-test
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$2
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock,cred_expire=5
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobRequeue=1
KillWait=2
MinJobAge=600
SchedulerParameters=bf_interval=1,sched_interval=1
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$CONF slurmctld -D -c -f "$CONF" >/dev/null 2>&1 &
PIDS="$PIDS $!"
SLURM_CONF=$CONF slurmd -D -N localhost -f "$CONF" >/dev/null 2>&1 &
PIDS="$PIDS $!"
idle() { [ "$(sl sinfo -h -o %T 2>/dev/null)" = idle ]; }
until_ 30 idle || { tail -5 "$T/slurmctld.log" "$T/slurmd.log"; skip "slurmctld and slurmd do not bring localhost up in 30 s"; }
UP=$(($(date +%s) - START))

# The documented script, as it is, with tilefit on PATH.
set -- $(sl env PATH="$TOP:$PATH" TILEFIT_DATA="$TOP" SPEC="$SPEC" SHARDS=$SHARDS CPUS=1 OUT="$T/out" \
  sh docs/examples/slurm-sweep.sh) || fail "docs/examples/slurm-sweep.sh"
[ $# = 2 ] || fail "docs/examples/slurm-sweep.sh printed '$*', not two job ids"
ARRAY=$1 MERGE=$2
echo "check-slurm: up in $UP s; array $ARRAY, merge $MERGE submitted ($(($(date +%s) - START)) s)"
VICTIM=${ARRAY}_1
PART=$T/out/part-1.jsonl

# Task 1: stopped once it has written something, so that what it wrote is
# known to be partial, then killed and requeued.
# task 1's tilefit processes, and their states (R, S, T, ...)
task1() {
  for p in $(ours "SLURM_ARRAY_TASK_ID=1"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = tilefit ] && echo "$p"
  done
  return 0
}
states() { for p in $(task1); do sed 's/^.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null; done | sort -u | tr -d '\n'; }
until_ 60 test -s "$PART" || fail "task 1 wrote nothing in 60 s (state $(field "$VICTIM" JobState))"
sl scontrol suspend "$VICTIM" ||
  fail "scontrol suspend $VICTIM (state $(field "$VICTIM" JobState): a task that ends this soon needs a bigger spec)"
suspended() { [ "$(field "$VICTIM" JobState)" = SUSPENDED ] && [ "$(states)" = T ]; }
until_ 10 suspended || fail "task 1 is not suspended (state $(field "$VICTIM" JobState), tilefit '$(states)')"
AT=$(wc -l <"$PART")
INODE=$(stat -c %i "$PART")
sl scontrol requeuehold "$VICTIM" || fail "scontrol requeuehold $VICTIM"
held() { [ "$(field "$VICTIM" JobState)" = PENDING ] && [ -z "$(task1)" ]; }
until_ 20 held || fail "task 1 is not pending, its tilefit gone, after requeuehold"
KILLED=$(wc -l <"$PART")
sl scontrol release "$VICTIM" || fail "scontrol release $VICTIM"
wait "$REF" || fail "the un-sharded sweep"
TOTAL=$(wc -l <"$T/ref.jsonl")
SIZE=$(((TOTAL + SHARDS - 1) / SHARDS)) # task 1's points: index 0, N, 2N, ...
[ "$KILLED" -lt "$SIZE" ] || fail "task 1 had written all its $SIZE lines before it was killed: the spec is too small"
echo "check-slurm: task 1 stopped at $AT of $SIZE lines, killed at $KILLED, requeued ($(($(date +%s) - START)) s)"

# The merge job runs once every task (task 1 a second time) has succeeded.
done_() {
  s=$(field "$MERGE" JobState)
  case $s in
    COMPLETED) return 0 ;;
    PENDING | RUNNING | COMPLETING | CONFIGURING) return 1 ;;
  esac
  fail "merge job $MERGE: $s ($(field "$MERGE" Reason))"
}
until_ 120 done_ || fail "the merge job did not complete (state $(field "$MERGE" JobState), $(field "$MERGE" Reason))"
for i in $(seq $SHARDS); do
  [ "$(field "${ARRAY}_$i" JobState)" = COMPLETED ] || fail "task $i: $(field "${ARRAY}_$i" JobState)"
done
[ "$(field "$VICTIM" Restarts)" = 1 ] || fail "task 1 ran $(field "$VICTIM" Restarts) restarts, not 1"
[ "$(stat -c %i "$PART")" = "$INODE" ] || fail "task 1's part was written anew, not resumed in place"
[ "$(wc -l <"$PART")" = "$SIZE" ] || fail "task 1's part has $(wc -l <"$PART") lines, not $SIZE"
cmp "$T/out/sweep.jsonl" "$T/ref.jsonl" || fail "the merged sweep differs from one un-sharded run"
echo "check-slurm: $SHARDS-task array of $SPEC on slurmctld+slurmd (up in ${UP} s); task 1 stopped at $AT of $SIZE lines," \
  "killed at $KILLED, requeued and resumed in place; the merged $TOTAL lines equal one run byte for byte ($(($(date +%s) - START)) s)"
