#!/usr/bin/env bash
# Packs what a GPU run needs out of a build folder into .gpu/BUILD_DIR.tgz (same relative layout,
# so test-plugin still finds ../../plugin/libgstdpx.so), small enough to carry to the GPU machine.
#   usage: scripts/gpu-stage.sh [BUILD_DIR]      then carry ".gpu" and ".device" and, there,
#          tar xzf .gpu/BUILD_DIR.tgz && scripts/gpu-verify.sh BUILD_DIR ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-gpu}
stage=$(mktemp -d)/$build
grep -qx '/.gpu/' "$root/.git/info/exclude" 2>/dev/null || echo '/.gpu/' >> "$root/.git/info/exclude"
rm -rf "$root/.gpu" && mkdir -p "$root/.gpu" "$stage"
cd "$root/$build"
for f in tests/*/test-* tools/dpx-bench tools/dpx-align plugin/libgstdpx.so; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  mkdir -p "$stage/$(dirname "$f")" && cp "$f" "$stage/$f"
done
tar czf "$root/.gpu/$build.tgz" -C "$(dirname "$stage")" "$build" && rm -rf "$(dirname "$stage")"
du -sh "$root/.gpu/$build.tgz"
