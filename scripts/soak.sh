#!/usr/bin/env bash
# A long run of the elements with their memory watched: DPX_SOAK_FRAMES frames (default 100,000) of
# NV12 from videotestsrc through the elements, each process's RSS (and on CUDA its device memory, from
# nvidia-smi) sampled every 2 s with the stream's position (progressreport); start (the first sample
# after the first 1,000 frames, the warm-up, however long the pipeline took to start) against end.
# Fails when a pipeline fails, when RSS grows by more than 32 MiB or device memory by more than
# 16 MiB from start to end.
#   usage: scripts/soak.sh [BUILD_DIR] [cuda|cpu]   (default build-gpu and cuda; run from the project root)
#     cuda: two processes at once, cudaupload ! dpxdilate ! dpxerode ! dpxmotionest ! cudadownload on
#           CUDA memory, and dpxdilate ! dpxerode (backend=cuda, frames in flight) on system memory
#     cpu:  one process, dpxdilate ! dpxerode ! dpxmotionest with backend=cpu on system memory
#   DPX_SOAK_FRAMES (100000), DPX_SOAK_SIZE (WxH; 640x360 on cuda, 160x96 on cpu),
#   DPX_SOAK_OUT (logs and samples; default ./soak-out)
# Prints one line per process (frames, time, RSS and device memory at start and end) and FAIL: lines.
set -uo pipefail
build=${1:-build-gpu}
backend=${2:-cuda}
frames=${DPX_SOAK_FRAMES:-100000}
if [ "$backend" = cuda ]; then size=${DPX_SOAK_SIZE:-640x360}; else size=${DPX_SOAK_SIZE:-160x96}; fi
out=${DPX_SOAK_OUT:-$(pwd)/soak-out}
mkdir -p "$out"
[ -f .device/env.sh ] && source .device/env.sh
export GST_PLUGIN_PATH=$(pwd)/$build/plugin
rss_tolerance_kb=32768
device_tolerance_mib=16

# soak NAME PIPELINE...: runs it, samples RSS (kB), device memory (MiB; "-" on the CPU) and the frames
# the stream has passed every 2 s and writes its summary line, with FAIL: lines for what went wrong,
# to soak-NAME.summary.
soak() {
  local name=$1; shift
  local start=$SECONDS
  rm -f "$out/soak-$name.samples"
  gst-launch-1.0 -q "$@" > "$out/soak-$name.log" 2>&1 &
  local pid=$!
  while kill -0 $pid 2>/dev/null; do
    local rss seconds dev=-
    rss=$(awk '/VmRSS/{print $2}' /proc/$pid/status 2>/dev/null)
    if [ "$backend" = cuda ]; then
      dev=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null \
            | awk -F', ' -v p=$pid '$1==p{print $2}')
      dev=${dev:-0}
    fi
    # progressreport prints "NAME (h:m:s): POSITION / DURATION seconds" every second of wall time
    seconds=$(sed -n 's/^progressreport[0-9]* ([^)]*): \([0-9]*\) .*/\1/p' "$out/soak-$name.log" | tail -n 1)
    [ -n "$rss" ] && echo "$((SECONDS - start)) $rss $dev $(( ${seconds:-0} * fps ))" >> "$out/soak-$name.samples"
    sleep 2
  done
  wait $pid; local rc=$?
  local secs=$((SECONDS - start))
  local rss0 rss1 dev0 dev1
  read -r _ rss0 dev0 _ < <(awk '$4 >= 1000' "$out/soak-$name.samples" 2>/dev/null | head -1)
  read -r _ rss1 dev1 _ < <(tail -1 "$out/soak-$name.samples" 2>/dev/null)
  {
    echo "soak $name ($size, $backend): rc=$rc, $frames frames in ${secs} s ($((frames / (secs > 0 ? secs : 1))) frames/s); RSS ${rss0:-?} -> ${rss1:-?} kB, device ${dev0:-?} -> ${dev1:-?} MiB (start after 1,000 frames; tolerance $rss_tolerance_kb kB, $device_tolerance_mib MiB)"
    [ $rc -eq 0 ] || echo "FAIL: soak $name: rc=$rc (see soak-$name.log)"
    if [ -n "${rss0:-}" ] && [ -n "${rss1:-}" ]; then
      [ $((rss1 - rss0)) -le $rss_tolerance_kb ] || echo "FAIL: soak $name: RSS grew by $((rss1 - rss0)) kB"
      if [ "$backend" = cuda ]; then
        [ $((dev1 - dev0)) -le $device_tolerance_mib ] || echo "FAIL: soak $name: device memory grew by $((dev1 - dev0)) MiB"
      fi
    else
      echo "FAIL: soak $name: no memory samples after the warm-up"
    fi
  } > "$out/soak-$name.summary"
}

w=${size%x*}; h=${size#*x}
fps=30
src="videotestsrc num-buffers=$frames pattern=ball motion=sweep ! video/x-raw,format=NV12,width=$w,height=$h,framerate=$fps/1
  ! progressreport update-freq=1"
if [ "$backend" = cuda ]; then
  names="cuda-memory system-memory"
  soak cuda-memory $src ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! dpxdilate ! dpxerode ! dpxmotionest \
    ! "video/x-raw(memory:CUDAMemory)" ! cudadownload ! fakesink sync=false &
  soak system-memory $src ! dpxdilate backend=cuda ! dpxerode backend=cuda ! fakesink sync=false &
  wait
else
  names="cpu-system-memory"
  soak cpu-system-memory $src ! dpxdilate backend=cpu ! dpxerode backend=cpu ! dpxmotionest backend=cpu \
    ! fakesink sync=false
fi
failed=0
for name in $names; do
  cat "$out/soak-$name.summary"
  grep -q '^FAIL:' "$out/soak-$name.summary" && failed=1
done
exit $failed
