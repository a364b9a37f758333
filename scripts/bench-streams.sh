#!/usr/bin/env bash
# Many camera streams at once: N parallel gst-launch pipelines decode one 1080p H.264 file with
# nvh264dec into CUDA memory, decode only beside each element chain, for N = 1, 4, 8, 16; prints
# the aggregate frames/s of each (every stream's frames over the wall time from launch to the last
# exit) and its ratio to decode only at the same N. The chains run in turn for each N, so a slow
# or fast spell of the machine touches them alike.
#
#   make the clip (here: the GPU machine has NVDEC but no encoder; x264enc is installed when missing):
#     scripts/bench-streams.sh --make [CLIP]     default CLIP .device/test-data/clip-1080p.h264,
#                                                carried with the bundle (".device")
#   run (GPU machine, from the project root, bundle sourced by the script, build unpacked):
#     scripts/bench-streams.sh [BUILD_DIR]       default build-gpu
#
# Environment: STREAMS ("1 4 8 16"), REPEAT (1: best of that many runs per cell), CLIP,
# DECODE ("nvh264dec ! video/x-raw(memory:CUDAMemory),format=NV12"; e.g. "avdec_h264" to try the
# script on a machine without a GPU), CHAINS (a file of "name|elements" lines replacing the
# built-in ones). Logs and bench-streams.json go to ./bench-streams-out (packed into
# $OUT/bench-streams.tgz when $OUT is set); the table is printed last. Exits non-zero when a
# pipeline fails.
set -uo pipefail
root=$(pwd)
clip=${CLIP:-$root/.device/test-data/clip-1080p.h264}
frames=600

if [ "${1:-}" = "--make" ]; then
  set -e
  clip=${2:-$clip}
  mkdir -p "$(dirname "$clip")"
  if ! gst-inspect-1.0 x264enc >/dev/null 2>&1; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends gstreamer1.0-plugins-ugly >/dev/null
  fi
  # A camera-like stream: detail everywhere that moves every frame (a drifting zone plate, so the
  # encoder spends its bits as on real footage), a key frame every 2 s, no B-frames, 4 Mbit/s
  # (about 10 MB: small enough to carry beside a build).
  gst-launch-1.0 -q videotestsrc num-buffers=$frames pattern=zone-plate kx2=20 ky2=20 kt=1 \
    ! video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 \
    ! x264enc bitrate=4000 key-int-max=60 speed-preset=faster bframes=0 \
    ! video/x-h264,profile=main,stream-format=byte-stream ! filesink location="$clip"
  echo "made $clip ($(du -h "$clip" | cut -f1), $frames frames of 1920x1080)"
  exit 0
fi

build=${1:-build-gpu}
[ -f .device/env.sh ] && source .device/env.sh
export GST_PLUGIN_PATH=$root/$build/plugin
[ -f "$clip" ] || { echo "no clip at $clip: make it with scripts/bench-streams.sh --make" >&2; exit 2; }
streams=${STREAMS:-1 4 8 16}
repeat=${REPEAT:-1}
decode=${DECODE:-"nvh264dec ! video/x-raw(memory:CUDAMemory),format=NV12"}
out=$root/bench-streams-out; rm -rf "$out"; mkdir -p "$out"

chains=("decode|" "dilate|dpxdilate" "motion|dpxmorph operation=open width=5 height=5 ! dpxmotionest")
gst-inspect-1.0 dpxdeshake >/dev/null 2>&1 && chains+=("deshake|dpxdeshake")
[ -n "${CHAINS:-}" ] && mapfile -t chains < "$CHAINS"

# The frames one stream decodes, counted by the sink (without -q: it would hide the sink's
# messages); the run stops when it counts none.
frames=$(gst-launch-1.0 filesrc location="$clip" ! h264parse ! $decode ! fakesink silent=false -v 2>/dev/null \
  | grep -c 'chain')
[ "$frames" -gt 0 ] || { echo "no frame decoded from $clip with: $decode" >&2; exit 2; }

failed=0
# run N ELEMENTS LOG: N pipelines at once; prints the aggregate frames/s.
run() {
  local n=$1 elements=$2 log=$3 pids=() i
  local tail="fakesink sync=false"
  [ -n "$elements" ] && tail="$elements ! $tail"
  local t0 t1
  t0=$(date +%s.%N)
  for ((i = 0; i < n; i++)); do
    gst-launch-1.0 -q filesrc location="$clip" ! h264parse ! $decode ! $tail > "$log.$i" 2>&1 &
    pids+=($!)
  done
  local rc=0
  for i in "${pids[@]}"; do wait "$i" || rc=1; done
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then
    echo "FAIL" ; return 1
  fi
  awk -v n="$n" -v f="$frames" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", n * f / (b - a) }'
}

declare -A fps
for n in $streams; do
  for c in "${chains[@]}"; do
    name=${c%%|*}; elements=${c#*|}
    best=0
    for ((r = 0; r < repeat; r++)); do
      got=$(run "$n" "$elements" "$out/$name-$n-$r.log") || { failed=1; echo "FAIL: $name x$n (see $out/$name-$n-$r.log.*)"; }
      [ "$got" != "FAIL" ] && awk -v g="$got" -v b="$best" 'BEGIN { exit !(g > b) }' && best=$got
    done
    fps[$name,$n]=$best
  done
done

{
  echo "["
  sep=""
  for n in $streams; do
    for c in "${chains[@]}"; do
      name=${c%%|*}
      ratio=$(awk -v a="${fps[$name,$n]}" -v d="${fps[decode,$n]}" 'BEGIN { printf "%.4f", (d > 0 ? a / d : 0) }')
      printf '%s  {"streams": %d, "chain": "%s", "elements": "%s", "frames_per_stream": %d, "fps": %s, "ratio_to_decode": %s}' \
        "$sep" "$n" "$name" "${c#*|}" "$frames" "${fps[$name,$n]}" "$ratio"
      sep=$',\n'
    done
  done
  echo; echo "]"
} > "$out/bench-streams.json"

[ -n "${OUT:-}" ] && tar czf "$OUT/bench-streams.tgz" -C "$(dirname "$out")" "$(basename "$out")"
echo "1080p H.264, $frames frames a stream, decoded by: $decode (best of $repeat)"
printf '%-8s %-8s %12s %10s   %s\n' streams chain "frames/s" "vs decode" elements
for n in $streams; do
  for c in "${chains[@]}"; do
    name=${c%%|*}
    awk -v n="$n" -v c="$name" -v a="${fps[$name,$n]}" -v d="${fps[decode,$n]}" -v e="${c#*|}" \
      'BEGIN { printf "%-8d %-8s %12.1f %9.1f%%   %s\n", n, c, a, (d > 0 ? 100 * a / d : 0), e }'
  done
done
exit $failed
