#!/usr/bin/env bash
# Turns a photograph (PNG or JPEG) into the binary 8-bit PGM that `dpx-bench motion-quality
# --image=FILE.pgm` reads: decoded and converted to grey (BT.601 luma) by GStreamer.
#   usage: scripts/photo-to-pgm.sh PHOTO OUT.pgm
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PHOTO OUT.pgm" >&2; exit 2; }
photo=$1 out=$2
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
log=$(gst-launch-1.0 -v filesrc location="$photo" ! decodebin ! videoconvert ! video/x-raw,format=GRAY8 \
  ! filesink location="$raw") || { echo "$0: cannot decode $photo" >&2; exit 1; }
caps=$(grep -oE 'width=\(int\)[0-9]+, height=\(int\)[0-9]+' <<< "$log" | head -1)
width=$(sed -E 's/width=\(int\)([0-9]+).*/\1/' <<< "$caps")
height=$(sed -E 's/.*height=\(int\)([0-9]+)/\1/' <<< "$caps")
[ -n "$width" ] && [ -n "$height" ] || { echo "$0: cannot decode $photo" >&2; exit 1; }
# GStreamer pads GRAY8 rows to 4 bytes; the PGM holds packed rows.
python3 - "$raw" "$out" "$width" "$height" <<'PY'
import sys
raw, out, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
stride = (w + 3) // 4 * 4
data = open(raw, 'rb').read()
if len(data) != stride * h:
    sys.exit(f"photo-to-pgm: decoded {len(data)} bytes, expected {stride * h}")
with open(out, 'wb') as f:
    f.write(b'P5\n%d %d\n255\n' % (w, h))
    f.write(b''.join(data[r * stride:r * stride + w] for r in range(h)))
PY
echo "wrote $out (${width}x${height})"
