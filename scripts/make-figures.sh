#!/usr/bin/env bash
# Makes the pictures of docs/images/ (PNGs the README and docs show): builds the plugin on the CPU
# backend into build-cpu/ (no GPU needed; the CUDA backend gives the same bytes), then runs every
# script of scripts/figures/ with Debian's Python (matplotlib, OpenCV): morphology.py (each
# operation on a photograph), motion.py (dpxmotionest's vectors), benchmarks.py (bar charts of
# dpx-bench JSON beside the anchors). A new kind of picture is one more script there, taking the
# same --out and --bench arguments (common.py).
#   usage: scripts/make-figures.sh [DPX_BENCH_JSON ...]   (default: docs/figures/latest.json,
#          the latest figures of docs/performance.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/deps.sh"
dpx_install_packages python3-matplotlib python3-opencv python3-numpy gstreamer1.0-plugins-bad
dpx_build build-cpu -Dcuda=disabled -- gstdpx
export GST_PLUGIN_PATH="$root/build-cpu/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
out=$root/docs/images
mkdir -p "$out"
bench=()
for f in "$@"; do bench+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
for script in "$here"/figures/*.py; do
  [ "$(basename "$script")" = common.py ] && continue
  /usr/bin/python3 "$script" --out "$out" ${bench[@]+--bench "${bench[@]}"}
done
