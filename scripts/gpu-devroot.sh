#!/usr/bin/env bash
# Packs the headers, pkg-config files and libraries that building gst-dpx needs (GStreamer, GLib,
# json-glib, GoogleTest) into .gpu/devroot.tgz, so the GPU machine (nvcc, meson and ninja, but no
# GStreamer or GoogleTest) can build the whole project on its own cores:
#   there: scripts/gpu-build.sh BUILD_DIR [meson options...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stage=$(mktemp -d)
grep -qx '/.gpu/' "$root/.git/info/exclude" 2>/dev/null || echo '/.gpu/' >> "$root/.git/info/exclude"
mkdir -p "$root/.gpu"
dev=(libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev libglib2.0-dev
     libjson-glib-dev libgtest-dev libgmock-dev libpcre2-dev libffi-dev zlib1g-dev libmount-dev libblkid-dev
     libselinux1-dev libsepol-dev liborc-0.4-dev libgl-dev libglx-dev libegl-dev libgles-dev)
files=$(for p in "${dev[@]}"; do dpkg -L "$p" 2>/dev/null; done | grep -E '^/usr/(include|lib|share/pkgconfig)' )
# every pkg-config file of this machine: pkg-config wants the private requirements to exist too
files="$files $(ls /usr/lib/x86_64-linux-gnu/pkgconfig/*.pc /usr/share/pkgconfig/*.pc)"
# the shared libraries the .so links point to, and everything they load
libs=$(for f in $files; do if [ -L "$f" ] && [[ $f == *.so ]]; then readlink -f "$f"; fi; done | sort -u)
closure=$(for l in $libs; do echo "$l"; ldd "$l" 2>/dev/null | awk '/=> \//{print $3}' |
  while read -r dep; do echo "${dep/#\/lib\//\/usr\/lib\/}"; readlink -f "$dep"; done; done | sort -u |
  grep -Ev 'ld-linux|/libc\.so|/libm\.so|libpthread|libdl\.so|librt\.so|libstdc\+\+|libgcc_s' || true)
# with every link of each library's name chain (libX.so -> libX.so.0 -> libX.so.0.1.2)
chains=$(for l in $closure; do ls "${l%%.so*}".so.* 2>/dev/null; done)
for f in $files $closure $chains; do
  [ -f "$f" ] || [ -L "$f" ] || continue
  mkdir -p "$stage$(dirname "$f")" && cp -a "$f" "$stage$f"
done
tar czf "$root/.gpu/devroot.tgz" -C "$stage" usr && rm -rf "$stage"
du -sh "$root/.gpu/devroot.tgz"
