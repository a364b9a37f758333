#!/usr/bin/env bash
# On the GPU machine: `dpx-align search` against CUDASW++4.0's `align` on the same FASTA files, top 10
# hits per query, BLOSUM62 with gaps 11/1 in both tools' convention (the first gap letter costs 11).
# Wall time with parsing and output included; both tools' makedb are timed apart, and ours searches
# the FASTA and its database file. Checks that one GPU and all GPUs give the same bytes, that the
# database file gives the FASTA's bytes, and that both tools report the same top-10 scores per query.
# With more than one GPU it runs both tools on one GPU and on all (--devices all) and prints the
# speed-ups: wall, and for ours the scoring time alone.
#   usage: scripts/bench-search.sh BUILD_DIR CUDASW4_BINDIR QUERIES [N=1000000] [OUTDIR=.]
# Prints one line per run ("wall <what>: <seconds> s") and a verdict line per check.
set -uo pipefail
build=$1 cudasw=$2 queries=$3 n=${4:-1000000} out=${5:-.}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
db=$out/protein-db-$n.fa
[ -f "$db" ] || python3 "$here/make-protein-db.py" "$n" "$db" --seed 1 || exit 1
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)

TIMEFORMAT=%R
declare -A secs
wall() {  # label, command...: runs it, prints its wall time, returns its status
  local label=$1 s rc; shift
  { s=$( { time "$@" > /dev/null 2>"$out/$label.err"; } 2>&1 ); } ; rc=$?
  echo "wall $label: $s s (exit $rc)"
  secs[$label]=$s
  return $rc
}
# The scoring time `--timings` printed for a run of ours.
scan_time() { sed -n 's/.*timings: scoring \([0-9.]*\) s.*/\1/p' "$out/$1.err"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else printf "?" }'; }

ours="$build/tools/dpx-align search --quiet --timings --top 10 --gap-open 11 --gap-extend 1"
wall dpx-1gpu $ours --devices 0 --output "$out/dpx-1gpu.tsv" "$queries" "$db"
if [ "$gpus" -gt 1 ]; then
  wall dpx-all $ours --devices all --output "$out/dpx-all.tsv" "$queries" "$db"
  cmp -s "$out/dpx-1gpu.tsv" "$out/dpx-all.tsv" && echo "devices: 1 and $gpus GPUs give the same bytes" ||
    echo "devices: 1 and $gpus GPUs DIFFER"
fi

# The same search from a database file (dpx-align makedb: binary, length-sorted, mapped): the same bytes.
dpxdb=$out/protein-db-$n.dpxdb
wall dpx-makedb "$build/tools/dpx-align" makedb "$db" "$dpxdb"
wall dpx-1gpu-dpxdb $ours --devices 0 --output "$out/dpx-1gpu-dpxdb.tsv" "$queries" "$dpxdb"
cmp -s "$out/dpx-1gpu.tsv" "$out/dpx-1gpu-dpxdb.tsv" && echo "makedb: the database file gives the same bytes as the FASTA" ||
  echo "makedb: the database file and the FASTA DIFFER"
if [ "$gpus" -gt 1 ]; then
  wall dpx-all-dpxdb $ours --devices all --output "$out/dpx-all-dpxdb.tsv" "$queries" "$dpxdb"
  cmp -s "$out/dpx-1gpu.tsv" "$out/dpx-all-dpxdb.tsv" && echo "devices: 1 and $gpus GPUs give the same bytes from the database file" ||
    echo "devices: 1 and $gpus GPUs DIFFER from the database file"
fi

wall cudasw4-makedb "$cudasw/makedb" "$db" "$out/cudasw4db"
types="--singlePassType DPXs16 --manyPassType_small DPXs16 --manyPassType_large DPXs32"
cs="$cudasw/align --query $queries --db $out/cudasw4db --top 10 --tsv --mat blosum62 --gop -11 --gex -1 $types --uploadFull --prefetchDBFile"
CUDA_VISIBLE_DEVICES=0 wall cudasw4-1gpu $cs --of "$out/cudasw4-1gpu.tsv"
[ "$gpus" -gt 1 ] && wall cudasw4-all $cs --of "$out/cudasw4-all.tsv"
if [ "$gpus" -gt 1 ]; then  # 1 -> all GPUs (target >= 1.8x for two)
  echo "speed-up 1 -> $gpus GPUs, wall: ours $(ratio "${secs[dpx-1gpu]}" "${secs[dpx-all]}") from the FASTA," \
    "$(ratio "${secs[dpx-1gpu-dpxdb]}" "${secs[dpx-all-dpxdb]}") from the database file;" \
    "CUDASW++4.0 $(ratio "${secs[cudasw4-1gpu]}" "${secs[cudasw4-all]}")"
  echo "speed-up 1 -> $gpus GPUs, scoring alone (--timings): ours" \
    "$(ratio "$(scan_time dpx-1gpu-dpxdb)" "$(scan_time dpx-all-dpxdb)") from the database file"
fi

# Top-10 scores per query, in query order: ours (score in column 3, rows query by query after a
# header) and CUDASW++4.0's TSV (query id in column 1, score in column 5).
awk -F'\t' 'NR > 1 { if ($1 != last) { q++; last = $1 } print q "\t" $3 }' "$out/dpx-1gpu.tsv" |
  sort -t "$(printf '\t')" -k1,1n -k2,2nr > "$out/dpx-scores.txt"
awk -F'\t' '$1 ~ /^[0-9]+$/ { print $1 + 1 "\t" $5 }' "$out/cudasw4-1gpu.tsv" |
  sort -t "$(printf '\t')" -k1,1n -k2,2nr > "$out/cudasw4-scores.txt"
if cmp -s "$out/dpx-scores.txt" "$out/cudasw4-scores.txt"; then
  echo "top-10 scores: identical for all $(cut -f1 "$out/dpx-scores.txt" | sort -u | wc -l) queries"
else
  echo "top-10 scores: DIFFER (first lines below: ours | CUDASW++4.0)"
  diff <(head -30 "$out/dpx-scores.txt") <(head -30 "$out/cudasw4-scores.txt") | head -20
fi
