#!/usr/bin/env bash
# Runs on the GPU machine from the project root, over a build made elsewhere (default build-gpu/):
# every test binary (no GPU test may be skipped), the DPX instructions in the kernels' SASS,
# compute-sanitizer (memcheck on every CUDA suite, racecheck on a representative subset) and the
# benchmarks. Full logs go to ./gpu-verify-out (packed into $OUT/gpu-verify.tgz when $OUT is set);
# a summary is printed last. Exits non-zero when any step fails, times out or skips a test.
#   usage: scripts/gpu-verify.sh [BUILD_DIR] [BENCH ...]   (BUILD_DIR as staged by scripts/gpu-stage.sh)
#          BENCH: morph, motion, align, epilogue, pipeline (dpx-bench subcommands, with options after ':',
#          e.g. "align:--only=edit")
#   DPX_VERIFY_STEPS: comma list of tests,sass,memcheck,racecheck,bench (default: all of them)
#   DPX_TEST_SHARDS: processes per suite in the tests step, gtest shards side by side (default 1;
#                    12 runs every suite of a Hopper machine in about two minutes)
#   DPX_MEMCHECK_FILTER: gtest filter for memcheck (default: every test)
#   DPX_RACECHECK_FILTER: gtest filter for racecheck (default: one small case per shared-memory kernel)
#   DPX_SANITIZE_SHARDS: processes per suite under compute-sanitizer (default 12)
#   DPX_VERIFY_TESTS: the test binaries to run, by name and in order (default: every one found)
set -uo pipefail
build=${1:-build-gpu}; shift || true
steps=",${DPX_VERIFY_STEPS:-tests,sass,memcheck,racecheck,bench},"
out=$(pwd)/gpu-verify-out; rm -rf "$out"; mkdir -p "$out"
[ -f .device/env.sh ] && source .device/env.sh
export PATH=/usr/local/cuda/bin:$PATH
summary=()
failed=0
fail() { summary+=("FAIL: $*"); failed=1; }
tests=$(find "$build/tests" -maxdepth 2 -type f -name 'test-*' -perm -u+x | sort)
if [ -n "${DPX_VERIFY_TESTS:-}" ]; then  # only these suites, in this order
  tests=$(for n in $DPX_VERIFY_TESTS; do grep "/$n\$" <<< "$tests"; done)
fi

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > "$out/gpu.txt" 2>&1
summary+=("gpu: $(head -1 "$out/gpu.txt")")

# 1. tests: every binary, all output kept; a skipped GPU test is a failure here.
if [[ $steps == *,tests,* ]]; then
  shards=${DPX_TEST_SHARDS:-1}
  for t in $tests; do
    name=$(basename "$t")
    pids=()
    for ((i = 0; i < shards; i++)); do
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout "${DPX_TEST_TIMEOUT:-300}" "$t" > "$out/$name.$i.log" 2>&1 &
      pids+=($!)
    done
    rc=0
    for p in "${pids[@]}"; do wait "$p" || rc=$?; done
    for ((i = 0; i < shards; i++)); do cat "$out/$name.$i.log"; done > "$out/$name.log" && rm -f "$out/$name".[0-9]*.log
    # each shard's "NAME: N passed, N failed, N skipped", added up (none if any shard printed none)
    line=$(grep -E "^$name: [0-9]+ passed" "$out/$name.log" |
      awk -v n="$name" -v k="$shards" '{p+=$2; f+=$4; s+=$6; c++} END {if (c == k) printf "%s: %d passed, %d failed, %d skipped", n, p, f, s}')
    # A skip's reason is the line after gtest's "file:line: Skipped"; tests of the no-CUDA paths
    # skip here by design (DPX_ONLY_WITHOUT_CUDA), any other skip is a GPU test that did not run.
    reasons=$(grep -A1 ': Skipped$' "$out/$name.log" | grep -vE ': Skipped$|^--$')
    by_design=$(grep -c '^only where CUDA is unavailable: ' <<< "$reasons")
    skipped=$(grep -c . <<< "$reasons")
    summary+=("$name rc=$rc ${line:-no summary line} (skipped: $skipped, of them $by_design tests of the no-CUDA paths)")
    grep -E '^\[  FAILED  \]|^\[  SKIPPED \]' "$out/$name.log" | sort -u | head -20 | sed 's/^/    /' >> "$out/failures.txt"
    { [ "$rc" -eq 0 ] && [ -n "$line" ] && [ "$skipped" -eq "$by_design" ]; } || fail "$name (rc=$rc, skipped=$skipped, by design=$by_design)"
  done
fi

# 2. SASS: which DPX / SIMD min-max instructions each kernel object holds (the binaries side by
# side: one cuobjdump takes about a minute).
if [[ $steps == *,sass,* ]]; then
  for obj in $(find "$build" -type f \( -name 'dpx-bench' -o -name 'test-kernels' -o -name 'test-motion' \)); do
    cuobjdump -sass "$obj" 2>/dev/null | awk -v o="$(basename "$obj")" '
      /Function :/ {fn=$3}
      /VIMNMX|VIADDMNMX|VHMNMX|VIBMNMX|VABSDIFF|IMNMX/ {
        for (i=1;i<=NF;i++) if ($i ~ /^(VIMNMX|VIADDMNMX|VHMNMX|VIBMNMX|VABSDIFF|IMNMX)/) c[o" "fn" "$i]++
      }
      END {for (k in c) print k, c[k]}' > "$out/sass-$(basename "$obj").part" &
  done
  wait
  sort "$out"/sass-*.part > "$out/sass-dpx.txt" && rm -f "$out"/sass-*.part
  rows=$(wc -l < "$out/sass-dpx.txt")
  summary+=("sass: $rows kernel/instruction rows in sass-dpx.txt")
  [ "$rows" -gt 0 ] || fail "sass: no DPX instructions found (cuobjdump missing?)"
fi

# 3. compute-sanitizer: memcheck on every suite, racecheck on a subset. A suite runs as gtest
#    shards side by side (DPX_SANITIZE_SHARDS processes sharing the GPU), so each finishes within
#    its time limit; a shard that times out, fails or reports an error fails the step. A shard
#    holding only CPU tests never calls CUDA: --require-cuda-init no lets it end with its own status.
sanitize() {  # tool, timeout, binary, extra args...
  local tool=$1 limit=$2 t=$3; shift 3
  local name; name=$(basename "$t")
  local shards=${DPX_SANITIZE_SHARDS:-12} i pids=()
  for ((i = 0; i < shards; i++)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout "$limit" compute-sanitizer --tool "$tool" \
      --require-cuda-init no --error-exitcode 86 --print-limit 20 "$t" "$@" > "$out/$tool-$name.$i.log" 2>&1 &
    pids+=($!)
  done
  local rc=0 errors=0 r e
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"; r=$?
    [ "$r" -eq 0 ] || rc=$r
    e=$(grep -oE 'ERROR SUMMARY: [0-9]+' "$out/$tool-$name.$i.log" | tail -1 | grep -oE '[0-9]+$')
    errors=$((errors + ${e:-0}))
  done
  local tests; tests=$(cat "$out/$tool-$name".*.log | grep -cE '^\[       OK \]')
  summary+=("$tool $name: $shards shards, $tests tests, rc=$rc (124: a shard ran out of time), errors=$errors")
  { [ "$rc" -eq 0 ] && [ "$errors" -eq 0 ]; } || fail "$tool $name (rc=$rc, errors=$errors)"
}
if [[ $steps == *,memcheck,* ]]; then
  for t in $tests; do
    sanitize memcheck "${DPX_MEMCHECK_TIMEOUT:-300}" "$t" ${DPX_MEMCHECK_FILTER:+"--gtest_filter=$DPX_MEMCHECK_FILTER"}
  done
fi
if [[ $steps == *,racecheck,* ]]; then
  # One case per kernel that shares memory between threads, each a few seconds under racecheck.
  filter=${DPX_RACECHECK_FILTER:-MorphCuda.PublicEntryMatchesCpu:MorphCuda.BarsBoxPassMatchesCpu:EditCuda.DistancesEqualCpuOnManyLengths:EditCuda.CigarsEqualCpuOnManyLengths:DtwCuda.OneToManyEqualsCpu:EpilogueCuda.GridStrideLoopKeepsChannelsInStep:AlignDevice.BatchesOtherThanPlannedAreRefused:MotionCuda.PredictiveWithPreviousFieldMatchesCpu:MotionCuda.ShiftedTextureMatchesCpuAndTheShift}
  for t in $tests; do
    case $(basename "$t") in test-kernels|test-motion) sanitize racecheck "${DPX_RACECHECK_TIMEOUT:-240}" "$t" "--gtest_filter=$filter";; esac
  done
fi

# 4. benchmarks
if [[ $steps == *,bench,* ]]; then
  for b in "$@"; do
    sub=${b%%:*}; args=(); [[ $b == *:* ]] && read -r -a args <<< "${b#*:}"
    (cd "$out" && timeout "${DPX_BENCH_TIMEOUT:-240}" "$OLDPWD/$build/tools/dpx-bench" "$sub" "${args[@]}" --json="$out/bench-$sub.json") > "$out/bench-$sub.log" 2>&1
    rc=$?
    summary+=("bench $sub rc=$rc")
    [ "$rc" -eq 0 ] || fail "bench $sub (rc=$rc)"
  done
fi

printf '%s\n' "${summary[@]}" > "$out/summary.txt"
echo "=== failures/skips ==="; cat "$out/failures.txt" 2>/dev/null | head -40
if [[ $steps == *,sass,* ]]; then
  echo "=== SASS: min/max-family instructions over all kernels (per kernel in sass-dpx.txt) ==="
  awk '{c[$1" "$3]+=$4} END {for (k in c) print k, c[k]}' "$out/sass-dpx.txt" | sort
fi
for b in "$@"; do sub=${b%%:*}; echo "=== bench $sub ==="; sed -n '/^== dpx-bench/,$p' "$out/bench-$sub.log" 2>/dev/null | head -60; done
echo "=== summary ==="; cat "$out/summary.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-verify.tgz" -C "$out" .
exit $failed
