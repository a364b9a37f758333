#!/usr/bin/env bash
# The main job: builds the plugin, then runs a generated 5-second clip (an animated zone plate)
# through dpxdilate ! dpxerode — a morphological closing, which fills the fine dark rings — and
# encodes it to VP8/WebM under demo-output/. The backend is auto: CUDA where a device is usable,
# the CPU otherwise; the log says which. Only the plugin is built, and without a usable GPU it is
# built without the CUDA kernels (into build-cpu/): a few minutes on two cores instead of a quarter
# of an hour.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
dpx_install_packages
if dpx_gpu_usable; then
  build=build
  dpx_build "$build" -- gstdpx
else
  build=build-cpu
  echo "demo: no usable GPU here: building the plugin without the CUDA kernels (CPU backend) into $build/" >&2
  dpx_build "$build" -Dcuda=disabled -- gstdpx
fi
root=$(cd "$here/.." && pwd)
out="$root/demo-output"
mkdir -p "$out"
clip="$out/closing.webm"
log="$out/gst-debug.log"

export GST_PLUGIN_PATH="$root/$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
GST_DEBUG="dpxfilter:4" GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE="$log" gst-launch-1.0 -q -e \
  videotestsrc num-buffers=150 pattern=zone-plate kx2=24 ky2=24 kt=2 \
  ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 \
  ! dpxdilate size=5 shape=ellipse ! dpxerode size=5 shape=ellipse \
  ! vp8enc deadline=1 ! webmmux ! filesink location="$clip"

backend=$(grep -o 'backend: [a-z]*.*' "$log" | head -1 || true)
echo "demo: 150 frames 1280x720 through dpxdilate ! dpxerode (${backend:-backend not logged})"
echo "demo output: $clip"
