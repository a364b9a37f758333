#!/usr/bin/env bash
# Runs on the GPU machine from the project root, over a build made elsewhere (default build-gpu/):
# every test binary (no GPU test may be skipped), the DPX instructions in the kernels' SASS, and
# the benchmarks. Full logs go to ./gpu-verify-out (packed into $OUT/gpu-verify.tgz when $OUT is
# set); a summary is printed last.
#   usage: scripts/gpu-verify.sh [BUILD_DIR] [BENCH ...]    (BUILD_DIR as staged by scripts/gpu-stage.sh)     BENCH: morph, motion, align, epilogue, pipeline
set -uo pipefail
build=${1:-build-gpu}; shift || true
out=$(pwd)/gpu-verify-out; rm -rf "$out"; mkdir -p "$out"
[ -f .device/env.sh ] && source .device/env.sh
export PATH=/usr/local/cuda/bin:$PATH
summary=()

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > "$out/gpu.txt" 2>&1
summary+=("gpu: $(head -1 "$out/gpu.txt")")

# 1. tests: every binary, all output kept; skipped GPU tests are a failure here.
for t in $(find "$build/tests" -maxdepth 2 -type f -name 'test-*' -perm -u+x | sort); do
  name=$(basename "$t")
  timeout "${DPX_TEST_TIMEOUT:-300}" "$t" > "$out/$name.log" 2>&1; rc=$?
  line=$(grep -E "^$name: [0-9]+ passed" "$out/$name.log" | tail -1)
  skipped=$(grep -c '^\[  SKIPPED \]' "$out/$name.log")
  summary+=("$name rc=$rc ${line:-no summary line} (skip lines: $skipped)")
  grep -E '^\[  FAILED  \]|^\[  SKIPPED \]' "$out/$name.log" | sort -u | head -20 | sed 's/^/    /' >> "$out/failures.txt"
done

# 2. SASS: which DPX / SIMD min-max instructions each kernel object holds.
for obj in $(find "$build" -type f \( -name 'dpx-bench' -o -name 'test-kernels' \)); do
  cuobjdump -sass "$obj" 2>/dev/null | awk -v o="$(basename "$obj")" '
    /Function :/ {fn=$3}
    /VIMNMX|VIADDMNMX|VHMNMX|VIBMNMX|VABSDIFF|IMNMX/ {
      for (i=1;i<=NF;i++) if ($i ~ /^(VIMNMX|VIADDMNMX|VHMNMX|VIBMNMX|VABSDIFF|IMNMX)/) c[o" "fn" "$i]++
    }
    END {for (k in c) print k, c[k]}' >> "$out/sass-dpx.txt"
done
sort -o "$out/sass-dpx.txt" "$out/sass-dpx.txt"
summary+=("sass: $(wc -l < "$out/sass-dpx.txt") kernel/instruction rows in sass-dpx.txt")

# 3. benchmarks
for b in "$@"; do
  (cd "$out" && timeout "${DPX_BENCH_TIMEOUT:-240}" "$OLDPWD/$build/tools/dpx-bench" "$b") > "$out/bench-$b.log" 2>&1
  summary+=("bench $b rc=$?")
done

printf '%s\n' "${summary[@]}" > "$out/summary.txt"
echo "=== failures/skips ==="; cat "$out/failures.txt" 2>/dev/null | head -40
echo "=== SASS: min/max-family instructions over all kernels (per kernel in sass-dpx.txt) ==="
awk '{c[$1" "$3]+=$4} END {for (k in c) print k, c[k]}' "$out/sass-dpx.txt" | sort
for b in "$@"; do echo "=== bench $b ==="; sed -n '/^== dpx-bench/,$p' "$out/bench-$b.log" | head -60; done
echo "=== summary ==="; cat "$out/summary.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-verify.tgz" -C "$out" .
exit 0
