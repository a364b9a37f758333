#!/usr/bin/env bash
# Where a frame's time goes in `cudaupload ! dpxdilate ! cudadownload`, element by element, for
# NV12, I420 and Y444 at 4K: each pipeline with and without dpxdilate (and dpxdilate with no frame
# in flight, so its latency is its own work) under GStreamer's latency tracer, summarised by
# scripts/latency_summary.py (median / mean / p90 µs a buffer in each element). The wall time of
# each run is printed beside its table. If the upload or download takes longer beside dpxdilate
# than in the bare pipeline, the element's frames slow gst-cuda's copies; if only dpxdilate's own
# latency grows from NV12 to I420, the third plane costs inside the element.
# On the GPU machine: the bundle made with EXTRA_GST_PLUGINS="openh264 coretracers" (the latency
# tracer), `source .device/env.sh` done by this script. Without CUDA (CPU=1) the same pipelines run
# on system memory with backend=cpu, to check the script itself.
#   usage: scripts/pipeline-trace.sh [BUILD_DIR] [FRAMES]   (default build-gpu, 300)
# Logs and tables go to ./pipeline-trace-out (packed into $OUT/pipeline-trace.tgz when $OUT is set).
set -euo pipefail
build=${1:-build-gpu}
frames=${2:-300}
out=$(pwd)/pipeline-trace-out; rm -rf "$out"; mkdir -p "$out"
[ -f .device/env.sh ] && [ "${CPU:-0}" != 1 ] && source .device/env.sh
export GST_PLUGIN_PATH=$(pwd)/$build/plugin
size="width=3840,height=2160"
if [ "${CPU:-0}" = 1 ]; then
  size="width=640,height=360"
  up="identity name=up"; down="identity name=down"; mem="video/x-raw"; backend=cpu
else
  up=cudaupload; down=cudadownload; mem="video/x-raw(memory:CUDAMemory)"; backend=cuda
fi

run() {  # name, format, the filter between upload and download ("" for none)
  local name=$1 format=$2 filter=$3 log="$out/$1.log" start end
  start=$(date +%s%N)
  GST_TRACERS="latency(flags=element)" GST_DEBUG="GST_TRACER:7" GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE="$log" \
    gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=black ! "video/x-raw,format=$format,$size" \
    ! $up ! "$mem" ! $filter $down ! video/x-raw ! fakesink sync=false
  end=$(date +%s%N)
  python3 "$(dirname "$0")/latency_summary.py" "$log" --label "$name" | tee "$out/$name.md"
  echo "wall: $(( (end - start) / 1000 / frames )) µs a frame over $frames frames (tracer included)" | tee -a "$out/$name.md"
  echo
}

for format in NV12 I420 Y444; do
  run "$format-bare" "$format" ""
  run "$format-dilate" "$format" "dpxdilate name=el backend=$backend ! $mem !"
  run "$format-dilate-0-in-flight" "$format" "dpxdilate name=el backend=$backend frames-in-flight=0 ! $mem !"
done
if [ -n "${OUT:-}" ]; then tar czf "$OUT/pipeline-trace.tgz" -C "$out" .; fi
