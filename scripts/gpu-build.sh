#!/usr/bin/env bash
# On the GPU machine (nvcc, meson, ninja; no GStreamer or GoogleTest): unpacks .gpu/devroot.tgz made
# by scripts/gpu-devroot.sh and builds the project into BUILD_DIR with every core there.
#   usage: scripts/gpu-build.sh BUILD_DIR [meson options...]
set -euo pipefail
build=${1:-build-gpu}; shift || true
dev=/opt/devroot
[ -d $dev/usr ] || { mkdir -p $dev && tar xzf .gpu/devroot.tgz -C $dev; }
export PKG_CONFIG_SYSROOT_DIR=$dev
export PKG_CONFIG_LIBDIR=$dev/usr/lib/x86_64-linux-gnu/pkgconfig:$dev/usr/share/pkgconfig
export LD_LIBRARY_PATH=$dev/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
[ -f "$build/build.ninja" ] || meson setup "$build" --buildtype=release -Dcuda=enabled "$@"
source scripts/deps.sh
dpx_drop_stale_cuda_objects "$build"
ninja -C "$build"
