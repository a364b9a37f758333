#!/usr/bin/env bash
# Submits a dpx-align search to Slurm as a job array, one task (and one GPU) per shard, and its
# merge as a job that starts once every shard has succeeded.
#   usage: scripts/slurm/submit.sh -n SHARDS -o OUT [--only I,J-K] [search options] QUERIES DATABASE
# The shards write OUT.parts/I and OUT.parts/I.shard, their logs OUT.parts/logs/search.I.log; the
# merge writes OUT (replaced only when whole) and OUT.parts/logs/merge.log. --only resubmits those
# shards (sbatch --array syntax) and a new merge; give the same other arguments as the first time.
# Prints "search JOBID" and "merge JOBID".
# Environment:
#   DPX_ALIGN        the dpx-align to run (default: the one on PATH), on a path every node sees
#   DPX_SLURM_GRES   what each shard asks for (default gpu:1; empty: nothing, for --backend cpu)
#   DPX_SLURM_ARGS   more sbatch options for both jobs, e.g. "--partition=gpu --time=2:00:00"
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "submit.sh: $*" >&2; exit 2; }

n= out= only=
while [ $# -gt 0 ]; do
  case $1 in
    -n) n=${2-}; shift 2 || die "-n needs a value" ;;
    -o) out=${2-}; shift 2 || die "-o needs a value" ;;
    --only) only=${2-}; shift 2 || die "--only needs a value" ;;
    *) break ;;
  esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || die "-n SHARDS: the number of shards (1 or more)"
[ -n "$out" ] || die "-o OUT: where the merged output goes"
[ $# -ge 2 ] || die "the search's options, QUERIES and DATABASE come last"
for arg in "$@"; do
  case $arg in --shard | --shard=* | --output | --output=* | -o) die "$arg: submit.sh sets the shard and the output" ;; esac
done
dpx_align=$(command -v "${DPX_ALIGN:-dpx-align}") || die "no dpx-align: put it on PATH or set DPX_ALIGN"
export DPX_ALIGN=$(cd "$(dirname "$dpx_align")" && pwd)/$(basename "$dpx_align")

parts=$out.parts
mkdir -p "$parts/logs"
gres=${DPX_SLURM_GRES-gpu:1}
read -r -a extra <<< "${DPX_SLURM_ARGS:-}"
common=(--parsable --export=ALL "${extra[@]}")
search=$(sbatch "${common[@]}" --array="${only:-0-$((n - 1))}" ${gres:+--gres="$gres"} \
  --output="$parts/logs/search.%a.log" "$here/search-shard.sbatch" "$n" "$parts" "$@")
search=${search%%;*}  # --parsable prints JOBID[;CLUSTER]
merge=$(sbatch "${common[@]}" --dependency=afterok:"$search" --kill-on-invalid-dep=yes \
  --output="$parts/logs/merge.log" "$here/merge.sbatch" "$n" "$parts" "$out")
echo "search ${search}"
echo "merge ${merge%%;*}"
