#!/usr/bin/env bash
# The Slurm recipe (scripts/slurm/) on a real Slurm: starts munged, slurmctld and slurmd on this
# machine (one node, localhost, configuration and state in a temporary folder, no GPUs), makes a
# database with scripts/make-protein-db.py, runs scripts/slurm/submit.sh with 4 shards on the CPU
# backend (an array of 4 tasks, then the merge as a dependent job) and checks that the merged
# output is byte for byte the one-host search's; then reruns one shard the way the README says
# and checks again. Installs Debian's slurm-wlm and munge when they are missing; skips (exit 0,
# saying why) when they cannot be installed or their daemons do not start here. Stops every daemon
# it started.
#   usage: tests/slurm/run.sh [BUILD_DIR=build]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
dpx_align=$build/tools/dpx-align
skip() { echo "slurm recipe: SKIPPED: $*"; exit 0; }
fail() { echo "slurm recipe: FAILED: $*"; show_logs; exit 1; }
[ -x "$dpx_align" ] || { echo "slurm recipe: FAILED: no $dpx_align (build first)"; exit 1; }

if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
  [ "$(id -u)" = 0 ] || skip "slurm-wlm and munge are not installed and installing them needs root"
  DEBIAN_FRONTEND=noninteractive flock /tmp/apt.lock apt-get install -y -q slurm-wlm munge > /tmp/slurm-install.$$.log 2>&1 ||
    skip "cannot install slurm-wlm and munge ($(tail -n 1 /tmp/slurm-install.$$.log))"
  rm -f /tmp/slurm-install.$$.log
fi
[ "$(id -u)" = 0 ] || skip "slurmd needs root to start jobs"

start=$(date +%s)
tmp=$(mktemp -d /tmp/dpx-slurm.XXXXXX)
chmod 711 "$tmp"  # munged wants every folder above its socket open to all
pids=()
jobs_submitted=()
cleanup() {
  [ ${#jobs_submitted[@]} -gt 0 ] && scancel "${jobs_submitted[@]}" 2> /dev/null
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do kill "${pids[k]}" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
show_logs() {
  for f in "$tmp"/*.log "$tmp"/hits.parts/logs/*.log; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
  done
}

# munge: a fresh key, its own socket
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged -F --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" 2> /dev/null &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge.sock" ] || skip "munged did not start: $(tail -n 1 "$tmp/munged.log" 2> /dev/null)"

# Slurm: one node, this machine's CPUs, free ports
read -r ctld_port node_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" << CONF
ClusterName=dpxtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i > /dev/null 2>&1 &
pids+=($!)
slurmd -D -N localhost > /dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do sinfo -h -o %T 2> /dev/null | grep -qx idle && break; sleep 0.2; done
if ! sinfo -h -o %T 2> /dev/null | grep -qx idle; then
  show_logs
  skip "slurmctld and slurmd did not bring the node up here: $(sinfo -h 2>&1 | head -n 1)"
fi

# Waits for job $1 to end; prints its final state.
wait_job() {
  local state
  for _ in $(seq 600); do
    state=$(scontrol show job "$1" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2)
    case $state in PENDING | RUNNING | CONFIGURING | COMPLETING | "") sleep 0.2 ;; *) echo "$state"; return ;; esac
  done
  echo TIMEOUT
}

# A database of 1,000 generated proteins, 4 queries from another seed; top 5, blast6
cd "$tmp"
python3 "$root/scripts/make-protein-db.py" 1000 db.fa --seed 7 > /dev/null
python3 "$root/scripts/make-protein-db.py" 4 queries.fa --seed 8 > /dev/null
"$dpx_align" makedb db.fa db.dpxdb
search=(--quiet --backend cpu --threads 1 --top 5 --outfmt blast6 --gap-open 12 --gap-extend 1 queries.fa db.dpxdb)
"$dpx_align" search "${search[@]}" --output one-host.b6

submit() {  # submit.sh's arguments; waits for the merge, fails unless it completed
  local ids merge state
  ids=$(DPX_ALIGN=$dpx_align DPX_SLURM_GRES= "$root/scripts/slurm/submit.sh" "$@") || fail "submit.sh $*"
  jobs_submitted+=($(echo "$ids" | awk '{print $2}'))
  merge=$(echo "$ids" | awk '$1 == "merge" {print $2}')
  state=$(wait_job "$merge")
  [ "$state" = COMPLETED ] || fail "the merge job ended $state"
}

submit -n 4 -o hits.b6 "${search[@]}"
[ "$(ls hits.b6.parts/*.shard | wc -l)" = 4 ] || fail "expected 4 shard records, got: $(ls hits.b6.parts)"
cmp one-host.b6 hits.b6 || fail "the merged output differs from the one-host search's"
[ -s hits.b6 ] || fail "no hits at all"

# a shard lost: rerun that one alone, then the merge
rm hits.b6.parts/2 hits.b6.parts/2.shard hits.b6
submit -n 4 -o hits.b6 --only 2 "${search[@]}"
cmp one-host.b6 hits.b6 || fail "after rerunning shard 2 the merged output differs from the one-host search's"

echo "slurm recipe: 4 shards as a job array and the dependent merge give the one-host bytes ($(wc -l < hits.b6) rows); shard 2 rerun alone: the same; $(($(date +%s) - start)) s"
