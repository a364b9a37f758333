#!/usr/bin/env bash
# Brings a build folder up to date, then packs what a GPU run needs out of it into .gpu/BUILD_DIR.txz
# (same relative layout, so test-plugin still finds ../../plugin/libgstdpx.so; xz -9e: the CUDA
# images in the binaries gzip to half their size only, and the largest dictionary finds the
# binaries' common images), small enough to carry to the GPU machine (about 36 MB for a build
# configured with -Dcuda-arch=sm_90; two minutes on two cores). Other files in .gpu/ stay.
# CUDA objects older than the newest header are compiled again first (dpx_drop_stale_cuda_objects
# in deps.sh: ninja cannot see a .cu file's headers).
#   usage: scripts/gpu-stage.sh [BUILD_DIR]      then carry ".gpu" and ".device" and, there,
#          tar xJf .gpu/BUILD_DIR.txz && scripts/gpu-verify.sh BUILD_DIR ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-gpu}
stage=$(mktemp -d)/$build
grep -qx '/.gpu/' "$root/.git/info/exclude" 2>/dev/null || echo '/.gpu/' >> "$root/.git/info/exclude"
mkdir -p "$root/.gpu" "$stage" && rm -f "$root/.gpu/$build.tgz" "$root/.gpu/$build.txz"
source "$root/scripts/deps.sh"
dpx_drop_stale_cuda_objects "$root/$build"
ninja -C "$root/$build"
cd "$root/$build"
for f in tests/*/test-* tools/dpx-bench tools/dpx-align plugin/libgstdpx.so; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  mkdir -p "$stage/$(dirname "$f")" && cp "$f" "$stage/$f"
done
XZ_OPT="-9e -T0" tar cJf "$root/.gpu/$build.txz" -C "$(dirname "$stage")" "$build" && rm -rf "$(dirname "$stage")"
du -sh "$root/.gpu/$build.txz"
