#!/usr/bin/env bash
# Makes the encoded test streams the GPU pipeline check decodes (scripts/gpu-pipeline.sh): the GPU
# machine has NVDEC but no encoder, so they are encoded here. Installs x264enc when missing.
#   usage: scripts/make-test-data.sh [OUT_DIR]      (default .device/test-data, carried with the bundle)
# makes: OUT_DIR/clip-720p.h264 — 240 frames of 1280x720 moving test patterns, H.264 constrained
#        baseline (no B-frames, CAVLC), so that the CPU-side reference there decodes it with
#        openh264dec, the one software H.264 decoder small enough to carry
#        (EXTRA_GST_PLUGINS=openh264 ../shared/device/gst-bundle.sh ...).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/.device/test-data}
mkdir -p "$out"

if ! gst-inspect-1.0 x264enc >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends gstreamer1.0-plugins-ugly >/dev/null
fi

# Moving content with fine detail (the ball sweeping over a zone plate would be smoothed away by
# the encoder; snow keeps every block busy), key frame every 60 frames.
gst-launch-1.0 -q videotestsrc num-buffers=240 pattern=ball motion=sweep background-color=0xff203040 \
  ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 \
  ! x264enc bitrate=6000 key-int-max=60 speed-preset=faster bframes=0 cabac=false \
  ! video/x-h264,profile=constrained-baseline,stream-format=byte-stream \
  ! filesink location="$out/clip-720p.h264"
echo "made $out/clip-720p.h264 ($(du -h "$out/clip-720p.h264" | cut -f1))"
