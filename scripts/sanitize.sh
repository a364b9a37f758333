#!/usr/bin/env bash
# Builds the CPU paths (CUDA disabled, so it fits in CI's time) with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-san/ and runs every test binary there; any report fails.
# -O1 with line tables only (-g1): the optimisation the sanitizers recommend, and reports still name
# file and line; the emulation tests' large template bodies compile 2.5 times faster than at -O2 -g.
# Ends with one line "sanitizers: N passed, N failed, N skipped".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/deps.sh"
dpx_install_packages
dpx_build build-san -Dcuda=disabled -Db_sanitize=address,undefined -Doptimization=1 -Ddebug=false -Dcpp_args=-g1 \
  -Dbench=true

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The register kernels' warp emulation (a warp's 32 lanes on host threads meeting at every shuffle)
# takes 8 minutes of two cores under the sanitizers: here it runs every tenth of its cases (the
# indices ending in 0, every operation among them); scripts/test.sh runs all of them.
# The separable passes' emulation (a block's 128 threads) takes 7 minutes here: the elements whose
# passes another element already takes (the same run length, path and merge) are left to test.sh.
rows_skipped=$(for d in 1 2 3 4 5 6 7 8 9; do printf 'AllCases/MorphRowsEmulated.MatchesCpu/*%s:' "$d"; done)
separable_skipped=$(for e in rect3x1 rect7x3 ellipse7x5; do printf 'Elements/MorphSeparableEmulated.MatchesCpu/%s:' "$e"; done)
export GTEST_FILTER="*-$rows_skipped$separable_skipped"
export LSAN_OPTIONS=suppressions=$here/lsan.supp:print_suppressions=0
# The plugin is instrumented too: scan it in this process (the uninstrumented gst-plugin-scanner
# cannot load it) into a registry of the build's own, with only the system plugins the tests use, so
# no unrelated plugin (fonts, camera drivers) is loaded into the process and reported as a leak.
plugins="$root/build-san/gst-plugins"
rm -rf "$plugins" && mkdir -p "$plugins"
for p in coreelements app videotestsrc videoconvertscale nvcodec; do
  f=$(pkg-config --variable=pluginsdir gstreamer-1.0)/libgst$p.so
  if [ -f "$f" ]; then ln -s "$f" "$plugins/"; fi
done
export GST_PLUGIN_SYSTEM_PATH_1_0="$plugins" GST_REGISTRY_FORK=no GST_REGISTRY="$root/build-san/registry.bin"

# Each binary runs as one process per core, each with its share of the tests (gtest's sharding).
shards=$(nproc)
p=0 f=0 s=0 rc=0
for t in $(find "$root/build-san/tests" -maxdepth 2 -type f -name 'test-*' -perm -u+x | sort); do
  name=$(basename "$t")
  start=$SECONDS
  pids=() bp=0 bf=0 bs=0
  for ((i = 0; i < shards; i++)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$t" > "$root/build-san/$name.$i.san.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    log="$root/build-san/$name.$i.san.log"
    if wait "${pids[$i]}"; then trc=0; else trc=$?; fi
    line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$" "$log" | tail -1 || true)
    if [ -z "$line" ] || [ "$trc" -ne 0 ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
      echo "$name (part $((i + 1)) of $shards): FAILED under sanitizers (rc=$trc); log $log:" >&2
      grep -E -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:|^\[  FAILED  \]' "$log" | head -60 >&2 || tail -30 "$log" >&2
      rc=1
    fi
    read -r _ a _ b _ c _ <<< "${line:-x 0 x 0 x 0 x}"
    bp=$((bp + a)) bf=$((bf + b)) bs=$((bs + c))
  done
  echo "$name: $bp passed, $bf failed, $bs skipped ($((SECONDS - start)) s)"
  p=$((p + bp)) f=$((f + bf)) s=$((s + bs))
done
echo "sanitizers: $p passed, $f failed, $s skipped"
exit $rc
