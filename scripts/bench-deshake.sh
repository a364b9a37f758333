#!/usr/bin/env bash
# Stabilisation quality of dpxdeshake beside FFmpeg's deshake and vid.stab (both passes, defaults) on
# shaky clips made from the photographs in tests/data/photos; prints the table (and whether the
# targets hold: jitter at most vid.stab's and half of deshake's, the pan followed within 20%, no
# frame mostly border) and writes docs/images/deshake-jitter.png and deshake-before-after.png.
#
#   scripts/bench-deshake.sh [BUILD_DIR] [dpxdeshake properties...]
#
# Needs the built plugin (BUILD_DIR, default build-cpu), ffmpeg with vid.stab, and Debian's
# python3-opencv, python3-numpy and python3-matplotlib under /usr/bin/python3. Runs on the CPU backend.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-cpu}"
shift || true
[ -f "$build/plugin/libgstdpx.so" ] || { echo "no plugin at $build/plugin (build it first)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "ffmpeg is needed" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$root/docs/images"
GST_PLUGIN_PATH="$build/plugin" /usr/bin/python3 "$root/scripts/deshake_quality.py" \
  --photos "$root/tests/data/photos" --work "$work" --out-json "$work/quality.json" \
  --images "$root/docs/images" --props "$*"
