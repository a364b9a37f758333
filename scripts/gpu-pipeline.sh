#!/usr/bin/env bash
# Runs on the GPU machine from the project root (build staged by scripts/gpu-stage.sh, bundle made
# with EXTRA_GST_PLUGINS=openh264, test data by scripts/make-test-data.sh; carry ".device" and
# ".gpu"): the elements behind a real decoder, and a soak.
#  1. decode: .device/test-data/clip-720p.h264 through nvh264dec into CUDA memory, then
#     dpxdilate ! dpxerode ! dpxmotionest draw=true on CUDA memory (no copy to the host: every
#     frame must be logged "in device memory"), downloaded at the end; the same stream decoded on
#     the CPU (openh264dec) through the same elements with backend=cpu; frames and motion vectors
#     must be equal byte for byte.
#  2. soak (scripts/soak.sh, which also runs on its own): 100,000 frames (DPX_SOAK_FRAMES) of
#     640x360 NV12 through the three elements in CUDA memory and, at the same time in a second
#     process, through dpxdilate ! dpxerode on system memory (frames in flight); each process's RSS
#     and device memory are sampled, start (after 1,000 frames' warm-up) against end.
# Logs go to ./gpu-pipeline-out (packed into $OUT/gpu-pipeline.tgz when $OUT is set); a summary is
# printed last. Exits non-zero when a check fails.
#   usage: tar xJf .gpu/build-gpu.txz && scripts/gpu-pipeline.sh [BUILD_DIR]   (default build-gpu)
set -uo pipefail
build=${1:-build-gpu}
out=$(pwd)/gpu-pipeline-out; rm -rf "$out"; mkdir -p "$out"
source .device/env.sh
export GST_PLUGIN_PATH=$(pwd)/$build/plugin
clip=.device/test-data/clip-720p.h264
frames=${DPX_SOAK_FRAMES:-100000}
summary=()
failed=0
fail() { summary+=("FAIL: $*"); failed=1; }

# --- 1. decode on the GPU against decode on the CPU ------------------------------------------------
filters() {  # backend, vectors file
  echo "dpxdilate backend=$1 ! dpxerode backend=$1 size=5 ! dpxmotionest backend=$1 draw=true block-size=8 location=$2"
}
GST_DEBUG=dpxfilter:6 gst-launch-1.0 -q filesrc location=$clip ! h264parse ! nvh264dec \
  ! "video/x-raw(memory:CUDAMemory),format=NV12" ! $(filters cuda "$out/gpu.jsonl") \
  ! cudadownload ! video/x-raw,format=NV12 ! filesink location="$out/gpu.nv12" > "$out/decode-gpu.log" 2>&1
rc_gpu=$?
gst-launch-1.0 -q filesrc location=$clip ! h264parse ! openh264dec ! videoconvert ! video/x-raw,format=NV12 \
  ! $(filters cpu "$out/cpu.jsonl") ! filesink location="$out/cpu.nv12" > "$out/decode-cpu.log" 2>&1
rc_cpu=$?
bytes=$(stat -c %s "$out/gpu.nv12" 2>/dev/null || echo 0)
n_frames=$((bytes / (1280 * 720 * 3 / 2)))
on_device=$(grep -c 'input in device memory, output' "$out/decode-gpu.log")
on_host=$(grep -c 'input in host memory' "$out/decode-gpu.log")
summary+=("decode: gpu rc=$rc_gpu cpu rc=$rc_cpu, $n_frames frames; frames in device memory: $on_device, in host memory: $on_host")
{ [ $rc_gpu -eq 0 ] && [ $rc_cpu -eq 0 ] && [ "$n_frames" -eq 240 ]; } || fail "decode pipelines (see decode-*.log)"
[ "$on_host" -eq 0 ] && [ "$on_device" -ge $((3 * 240)) ] || fail "decode: frames left device memory inside the chain"
if cmp -s "$out/gpu.nv12" "$out/cpu.nv12"; then summary+=("decode: frames equal byte for byte")
else fail "decode: frames differ ($(cmp "$out/gpu.nv12" "$out/cpu.nv12" 2>&1 | head -1))"; fi
if cmp -s "$out/gpu.jsonl" "$out/cpu.jsonl" && [ -s "$out/gpu.jsonl" ]; then
  summary+=("decode: motion vectors equal ($(wc -l < "$out/gpu.jsonl") lines)")
else fail "decode: motion vectors differ or are missing"; fi
rm -f "$out/gpu.nv12" "$out/cpu.nv12"

# --- 2. soak (scripts/soak.sh) ------------------------------------------------------------------
while read -r line; do
  case $line in FAIL:*) summary+=("$line"); failed=1;; *) summary+=("$line");; esac
done < <(DPX_SOAK_OUT="$out" DPX_SOAK_FRAMES=$frames scripts/soak.sh "$build" cuda)

[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-pipeline.tgz" -C "$(dirname "$out")" "$(basename "$out")"
printf '%s\n' "${summary[@]}"
[ $failed -eq 0 ] && echo "gpu-pipeline: all checks passed" || echo "gpu-pipeline: FAILED"
exit $failed
