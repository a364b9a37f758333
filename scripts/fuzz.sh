#!/usr/bin/env bash
# Builds every libFuzzer harness of tests/fuzz/ (fuzz_*.cpp) with clang 14 under AddressSanitizer
# and UndefinedBehaviorSanitizer, CPU only, into build-fuzz/, then runs each for SECONDS (default
# 60) on its committed corpus (tests/fuzz/corpus/NAME, seeds and every past finding) plus the
# inputs it found before (build-fuzz/corpus/NAME). Exit status 0 only when no harness found a
# crash, a leak or a timeout (30 s of wall time for one input: a busy machine is not a finding); a
# finding is saved as build-fuzz/artifacts/NAME-*.
# usage: scripts/fuzz.sh [SECONDS] [NAME...]   (names: the harnesses to run, default all)
# Environment: FUZZ_JOBS (parallel compiles, default the CPU count), CXX_FUZZ (default clang++-14),
# FUZZ_RUNS (a campaign: each harness stops after this many executions; SECONDS 0 = no time limit).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
out="$root/build-fuzz"
cxx=${CXX_FUZZ:-clang++-14}
jobs=${FUZZ_JOBS:-$(nproc)}
source "$root/scripts/deps.sh"
dpx_install_packages clang-14 libfuzzer-14-dev libclang-rt-14-dev

# The parsers and decoders under test and what they need, named by file (found wherever they are
# in kernels/ and tools/align/): compiled once, linked into each harness from an archive (a harness
# takes only the objects it uses).
units=(status backend worker_pool device_nocuda sequences cigar score_matrix builtin_matrices sw_common
       options search_options input_file sequence_reader series_reader letters db_file output_file)
sources=() include_dirs=()
for u in "${units[@]}"; do
  found=$(cd "$root" && find kernels tools/align -name "$u.cpp")
  if [ "$(echo "$found" | grep -c .)" -ne 1 ]; then echo "fuzz.sh: expected one $u.cpp, found: ${found:-none}" >&2; exit 2; fi
  sources+=("$found")
  include_dirs+=("-I$root/$(dirname "$found")")
done
flags=(-std=c++17 -O1 -g1 -fno-omit-frame-pointer -DDPX_HAVE_CUDA=0 -D_FILE_OFFSET_BITS=64
       -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -I"$root/kernels/include" -I"$root/kernels/runtime" "${include_dirs[@]}" -I"$root/tests/fuzz")
mkdir -p "$out/obj" "$out/artifacts"
build_start=$(date +%s)
# Runs "$@" in the background, at most $jobs at a time; `finish` waits for them all.
running=0 build_failed=0
spawn() {
  if [ $running -ge "$jobs" ]; then wait -n || build_failed=1; running=$((running - 1)); fi
  "$@" &
  running=$((running + 1))
}
finish() {
  while [ $running -gt 0 ]; do wait -n || build_failed=1; running=$((running - 1)); done
  if [ $build_failed -ne 0 ]; then echo "fuzz.sh: the build failed" >&2; exit 2; fi
}
# compile what changed since the last build (a source newer than its object; everything after a
# header changed)
stale=yes
if [ -f "$out/libfuzzed.a" ] && [ -z "$(find "$root/kernels" "$root/tools/align" "$root/tests/fuzz" -name '*.h' -newer "$out/libfuzzed.a" | head -1)" ]; then
  stale=no
fi
for src in "${sources[@]}"; do
  obj="$out/obj/$(echo "$src" | tr / _).o"
  if [ $stale = yes ] || [ "$root/$src" -nt "$obj" ]; then spawn "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$root/$src" -o "$obj"; fi
done
finish
rm -f "$out/libfuzzed.a"
ar rcs "$out/libfuzzed.a" "$out"/obj/*.o
harnesses=()
for h in "$root"/tests/fuzz/fuzz_*.cpp; do
  name=$(basename "$h" .cpp)
  name=${name#fuzz_}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  harnesses+=("$name")
  spawn "$cxx" "${flags[@]}" -fsanitize=fuzzer "$h" "$out/libfuzzed.a" -lz -pthread -o "$out/fuzz_$name"
done
finish
echo "fuzz.sh: built ${#harnesses[@]} harnesses in $(( $(date +%s) - build_start )) s"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
failed=()
summary=""
for name in "${harnesses[@]}"; do
  mkdir -p "$out/corpus/$name" "$root/tests/fuzz/corpus/$name"
  log="$out/$name.log"
  rc=0
  "$out/fuzz_$name" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=30 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$name-" "$out/corpus/$name" "$root/tests/fuzz/corpus/$name" > "$log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  summary+=$(printf '  %-12s %12s executions  %s' "$name" "${runs:-?}" "$([ $rc -eq 0 ] && echo ok || echo "FOUND A FAILURE (exit $rc), see $log")")$'\n'
  if [ $rc -ne 0 ]; then
    failed+=("$name")
    grep -E "ERROR:|runtime error|SUMMARY|Test unit written" "$log" | head -5 >&2 || true
  fi
done
printf 'fuzz.sh: %s\n%s' "$([ -n "${FUZZ_RUNS:-}" ] && echo "$FUZZ_RUNS executions each" || echo "$seconds s each")" "$summary"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in ${failed[*]}" >&2
  exit 1
fi
